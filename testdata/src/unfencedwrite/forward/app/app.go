// Package app calls dbutil's forwarding helpers under locks: the facts
// carry which parameters are the statement and its arguments.
package app

import (
	"context"
	"database/sql"

	"go.etcd.io/etcd/client/v3/concurrency"

	"unfencedwrite/forward/dbutil"
)

func crossBad(ctx context.Context, db *sql.DB, m *concurrency.Mutex, id string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return dbutil.Exec(ctx, db, "UPDATE docs SET body = $1 WHERE id = $2", "x", id) // want `SQL write via dbutil.Exec to docs under the etcd mutex is not fenced`
}

func crossGood(ctx context.Context, db *sql.DB, m *concurrency.Mutex, id string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the token is forwarded through args... to the fence compare
	return dbutil.Exec(ctx, db, "UPDATE docs SET body = $1, fence = $3 WHERE id = $2 AND fence < $3", "x", id, m.Header().Revision)
}

func crossAdvisoryTxGood(ctx context.Context, db *sql.DB, id int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := dbutil.ExecTx(ctx, tx, "SELECT pg_advisory_xact_lock($1)", id); err != nil {
		return err
	}
	// ok: the lock and the write are one transaction
	if err := dbutil.ExecTx(ctx, tx, "UPDATE jobs SET state = 'done' WHERE id = $1", id); err != nil {
		return err
	}
	return tx.Commit()
}

func crossAdvisoryPoolBad(ctx context.Context, db *sql.DB, id int64) error {
	if err := dbutil.Exec(ctx, db, "SELECT pg_advisory_lock($1)", id); err != nil {
		return err
	}
	defer dbutil.Exec(ctx, db, "SELECT pg_advisory_unlock($1)", id)
	return dbutil.Exec(ctx, db, "UPDATE jobs SET state = 'done' WHERE id = $1", id) // want `SQL write via dbutil.Exec to jobs under the PostgreSQL advisory lock is not fenced`
}
