// Package session: liveness checks on an etcd session, written as a select
// on its Done channel. The session can expire (a GC pause, a partition)
// right after the check, so the write must still carry the mutex's
// revision.
package session

import (
	"context"
	"database/sql"
	"errors"

	"go.etcd.io/etcd/client/v3/concurrency"
)

var errLost = errors.New("lock lost")

func selectDoneBad(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) error {
	m := concurrency.NewMutex(s, "/locks/jobs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	select {
	case <-s.Done(): // want `session liveness check s.Done\(\) guards the SQL write via db.ExecContext to jobs: the session can expire right after it`
		return errLost
	default:
	}
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id)
	return err
}

func selectDoneGood(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) error {
	m := concurrency.NewMutex(s, "/locks/jobs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	select {
	case <-s.Done(): // ok: an early exit; the write below is fenced anyway
		return errLost
	default:
	}
	tok := m.Header().Revision
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2", id, tok)
	return err
}

func sessionCtxDoneBad(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) error {
	m := concurrency.NewMutex(s, "/locks/jobs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-s.Ctx().Done(): // want `session liveness check s.Ctx\(\).Done\(\) guards the SQL write via db.ExecContext to jobs`
		return errLost
	default:
	}
	_, err := db.ExecContext(ctx, "DELETE FROM jobs WHERE id = $1", id)
	return err
}

func callerContextGood(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) error {
	m := concurrency.NewMutex(s, "/locks/jobs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok for appcheck: the caller's context says nothing about the lock
	// (the write is unfencedwrite's finding, not a client-side check)
	select {
	case <-ctx.Done():
		return ctx.Err()
	default:
	}
	_, err := db.ExecContext(ctx, "DELETE FROM jobs WHERE id = $1", id)
	return err
}
