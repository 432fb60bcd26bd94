// Package sqlcrows: sqlc's :execrows methods hand back the fenced
// statement's RowsAffected(), and its :one methods over UPDATE ...
// RETURNING the Scan error; a caller that drops them or never compares
// the count cannot tell a stale holder's rejected write from success
// (issue 13). The Queries come from the real sqlc (testdata/sqlc).
package sqlcrows

import (
	"context"
	"errors"
	"log"

	"go.etcd.io/etcd/client/v3/concurrency"
	"unfencedwrite/sqlcapp/pgxdb"
	"unfencedwrite/sqlcapp/stddb"
)

var errSuperseded = errors.New("superseded")

func rowsDiscardedBad(ctx context.Context, m *concurrency.Mutex, q *pgxdb.Queries, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := q.FinishJobFenced(ctx, pgxdb.FinishJobFencedParams{ID: id, State: "done", Fence: m.Header().Revision}) // want `the result of fenced write via q.FinishJobFenced is discarded`
	return err
}

func rowsNeverReadBad(ctx context.Context, m *concurrency.Mutex, q *stddb.Queries, id int64) (int64, error) {
	if err := m.Lock(ctx); err != nil {
		return 0, err
	}
	defer m.Unlock(ctx)
	n, err := q.FinishJobFenced(ctx, stddb.FinishJobFencedParams{ID: id, State: "done", Fence: m.Header().Revision}) // want `fenced write via q.FinishJobFenced never compares RowsAffected`
	if err != nil {
		return 0, err
	}
	log.Printf("finished job %d: %d rows", id, n)
	return 1, nil
}

func rowsGood(ctx context.Context, m *concurrency.Mutex, q *pgxdb.Queries, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: 0 rows is told apart and aborts
	n, err := q.FinishJobFenced(ctx, pgxdb.FinishJobFencedParams{ID: id, State: "done", Fence: m.Header().Revision})
	if err != nil {
		return err
	}
	if n == 0 {
		return errSuperseded
	}
	return nil
}

func oneDiscardedBad(ctx context.Context, m *concurrency.Mutex, q *pgxdb.Queries, id int64) string {
	if err := m.Lock(ctx); err != nil {
		return ""
	}
	defer m.Unlock(ctx)
	row, _ := q.ClaimJob(ctx, pgxdb.ClaimJobParams{ID: id, Owner: "me", Fence: m.Header().Revision}) // want `the error of fenced write via q.ClaimJob is discarded`
	return row.State
}

func oneGood(ctx context.Context, m *concurrency.Mutex, q *pgxdb.Queries, id int64) (string, error) {
	if err := m.Lock(ctx); err != nil {
		return "", err
	}
	defer m.Unlock(ctx)
	// ok: the error, ErrNoRows for a stale holder, is returned
	row, err := q.ClaimJob(ctx, pgxdb.ClaimJobParams{ID: id, Owner: "me", Fence: m.Header().Revision})
	if err != nil {
		return "", err
	}
	return row.State, nil
}
