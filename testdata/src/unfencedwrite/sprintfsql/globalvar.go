package sprintfsql

import (
	"context"
	"database/sql"
	"errors"

	"go.etcd.io/etcd/client/v3/concurrency"
)

// SQL in package-level variables: read like constants when nothing can
// change them.

var (
	finishJob       = `UPDATE jobs SET state = 'done' WHERE id = $1`
	finishJobFenced = `UPDATE jobs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2`
	// assigned again below: not read
	finishJobLater = `UPDATE jobs SET state = 'done' WHERE id = $1`
	// exported: an importer could assign it, not read
	FinishJobExported = `UPDATE jobs SET state = 'done' WHERE id = $1`
)

var errStaleJob = errors.New("stale")

func init() {
	finishJobLater = `UPDATE jobs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2`
}

func varSQLBad(ctx context.Context, db *sql.DB, m *concurrency.Mutex, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := db.ExecContext(ctx, finishJob, id) // want `SQL write via db.ExecContext to jobs under the etcd mutex is not fenced: its WHERE does not compare a fence column with the token`
	return err
}

func varSQLGood(ctx context.Context, db *sql.DB, m *concurrency.Mutex, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	res, err := db.ExecContext(ctx, finishJobFenced, id, m.Header().Revision) // ok: the variable's statement compares the fence
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errStaleJob
	}
	return nil
}

func varSQLReassigned(ctx context.Context, db *sql.DB, m *concurrency.Mutex, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := db.ExecContext(ctx, finishJobLater, id, m.Header().Revision) // ok: the text is not known (init assigns it)
	return err
}

func varSQLExported(ctx context.Context, db *sql.DB, m *concurrency.Mutex, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := db.ExecContext(ctx, FinishJobExported, id) // ok: the text is not known (an importer may assign it)
	return err
}
