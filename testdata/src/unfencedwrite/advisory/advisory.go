// Package advisory exercises PostgreSQL advisory locks taken with SQL.
// They hand out no token. SQL run in the same transaction (xact locks) or
// on the same pinned connection (session locks) is protected by that
// transaction or session; anything else is not.
package advisory

import (
	"context"
	"database/sql"

	"go.etcd.io/etcd/client/v3/concurrency"
)

func poolSessionLockBad(ctx context.Context, db *sql.DB, id int64) error {
	if _, err := db.ExecContext(ctx, "SELECT pg_advisory_lock($1)", id); err != nil {
		return err
	}
	defer db.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", id)
	// the lock sits on whichever pooled connection ran it; this write may
	// run on another one, and nothing stops a paused holder
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id) // want `SQL write via db.ExecContext to jobs under the PostgreSQL advisory lock is not fenced: its WHERE does not compare a fence column with the token; the PostgreSQL advisory lock gives no token to fence with: mint a counter in the same atomic step as the grant \(a Lua script that takes the lock and INCRs a counter, or a lock service with a revision or zxid: etcd, ZooKeeper\) and compare it in the write; for a database lock, that step is a counter row bumped right after taking it \(UPDATE lock_fences SET token = token \+ 1 WHERE name = \$1 RETURNING token\) whose value every write compares; see https://github.com/fencelint/fencelint/blob/main/docs/unfencedwrite.md#no-token$`
	return err
}

func xactLockSameTxGood(ctx context.Context, db *sql.DB, id int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", id); err != nil {
		return err
	}
	// ok: the lock and the write are one transaction
	if _, err := tx.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id); err != nil {
		return err
	}
	return tx.Commit()
}

func xactLockOtherDatabaseBad(ctx context.Context, db, reports *sql.DB, id int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", id); err != nil {
		return err
	}
	_, err = reports.ExecContext(ctx, "INSERT INTO report_runs (job_id) VALUES ($1)", id) // want `SQL write via reports.ExecContext to report_runs under the PostgreSQL advisory lock is not fenced: a plain INSERT carries no fencing token`
	if err != nil {
		return err
	}
	return tx.Commit()
}

func pinnedConnGood(ctx context.Context, db *sql.DB, id int64) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", id); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", id)
	// ok: the same session holds the lock; if it dies, so does the lock
	// and this connection with it
	_, err = conn.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id)
	return err
}

func tryLockBad(ctx context.Context, db *sql.DB, id int64) error {
	var ok bool
	if err := db.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", id).Scan(&ok); err != nil || !ok {
		return err
	}
	defer db.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", id)
	_, err := db.ExecContext(ctx, "DELETE FROM queue WHERE job_id = $1", id) // want `SQL write via db.ExecContext to queue under the PostgreSQL advisory lock is not fenced`
	return err
}

func afterUnlockGood(ctx context.Context, db *sql.DB, id int64) error {
	if _, err := db.ExecContext(ctx, "SELECT pg_advisory_lock($1)", id); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", id); err != nil {
		return err
	}
	// ok: the lock is released: this write claims no lock
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'idle' WHERE id = $1", id)
	return err
}

func notALockGood(ctx context.Context, db *sql.DB, id int64) error {
	// ok: reading lock state is not taking a lock
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'").Scan(&n); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'idle' WHERE id = $1", id)
	return err
}

// PGLocker wraps session advisory locks on the pool.
type PGLocker struct{ db *sql.DB }

func (l *PGLocker) Lock(ctx context.Context, key int64) error {
	_, err := l.db.ExecContext(ctx, "SELECT pg_advisory_lock($1)", key)
	return err
}

func (l *PGLocker) Unlock(ctx context.Context, key int64) error {
	_, err := l.db.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", key)
	return err
}

func wrapperBad(ctx context.Context, l *PGLocker, db *sql.DB, id int64) error {
	if err := l.Lock(ctx, id); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'running' WHERE id = $1", id); err != nil { // want `SQL write via db.ExecContext to jobs under the PostgreSQL advisory lock is not fenced: its WHERE does not compare a fence column with the token; the PostgreSQL advisory lock gives no token to fence with: mint a counter in the same atomic step as the grant \(a Lua script that takes the lock and INCRs a counter, or a lock service with a revision or zxid: etcd, ZooKeeper\) and compare it in the write; for a database lock, that step is a counter row bumped right after taking it \(UPDATE lock_fences SET token = token \+ 1 WHERE name = \$1 RETURNING token\) whose value every write compares; see https://github.com/fencelint/fencelint/blob/main/docs/unfencedwrite.md#no-token$`
		return err
	}
	if err := l.Unlock(ctx, id); err != nil {
		return err
	}
	// ok: after the release wrapper, no lock is claimed
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'idle' WHERE id = $1", id)
	return err
}

func tryLockNotAcquiredGood(ctx context.Context, db *sql.DB, id int64) error {
	var ok bool
	if err := db.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", id).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		// ok: not acquired, outside the scope
		_, err := db.ExecContext(ctx, "UPDATE jobs SET skipped = skipped + 1 WHERE id = $1", id)
		return err
	}
	defer db.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", id)
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id) // want `SQL write via db.ExecContext to jobs under the PostgreSQL advisory lock is not fenced`
	return err
}

// Nested locks: a write is cited under the innermost lock, and still
// counts as protected by an advisory lock its transaction holds around it.

func xactLockThenEtcdSameTxGood(ctx context.Context, db *sql.DB, s *concurrency.Session, id int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", id); err != nil {
		return err
	}
	m := concurrency.NewMutex(s, "/locks/jobs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the advisory lock taken by this transaction protects it
	if _, err := tx.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id); err != nil {
		return err
	}
	return tx.Commit()
}

func xactLockThenEtcdPoolBad(ctx context.Context, db *sql.DB, s *concurrency.Session, id int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", id); err != nil {
		return err
	}
	m := concurrency.NewMutex(s, "/locks/jobs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	if _, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id); err != nil { // want `SQL write via db.ExecContext to jobs under the etcd mutex is not fenced: its WHERE does not compare a fence column with the token; compare the stored fence with m.Header\(\).Revision in the write itself`
		return err
	}
	return tx.Commit()
}
