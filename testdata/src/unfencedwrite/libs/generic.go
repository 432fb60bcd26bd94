package libs

import (
	"context"
	"database/sql"

	"go.etcd.io/etcd/client/v3/concurrency"
)

// A write behind a method of a generic repository is found through the
// instantiated method ((*genericRepo[int]).touch): its summary is its
// generic declaration's.

type genericRepo[T any] struct{ db *sql.DB }

func (r *genericRepo[T]) touch(ctx context.Context, id string) error {
	_, err := r.db.ExecContext(ctx, "UPDATE items SET touched = touched + 1 WHERE id = $1", id)
	return err
}

func (r *genericRepo[T]) touchFenced(ctx context.Context, id string, fence int64) error {
	res, err := r.db.ExecContext(ctx, "UPDATE items SET touched = touched + 1, fence = $2 WHERE id = $1 AND fence < $2", id, fence)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errBusy
	}
	return nil
}

func genericRepoBad(ctx context.Context, s *concurrency.Session, r *genericRepo[int], id string) error {
	m := concurrency.NewMutex(s, "/items/"+id)
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return r.touch(ctx, id) // want `storage write via r.touch under the etcd mutex is not fenced: touch does a SQL write to items with no fence`
}

func genericRepoGood(ctx context.Context, s *concurrency.Session, r *genericRepo[string], id string) error {
	m := concurrency.NewMutex(s, "/items/"+id)
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the generic helper compares the token it is given
	return r.touchFenced(ctx, id, m.Header().Revision)
}
