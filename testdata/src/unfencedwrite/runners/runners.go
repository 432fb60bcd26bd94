// Package runners exercises locks taken and released through an
// application's own runners (a func literal that returns with the lock
// held, run by a function that returns its error), and writes through the
// connection whose session holds a PostgreSQL advisory lock.
package runners

import (
	"context"
	"database/sql"
	"sync/atomic"

	"go.etcd.io/etcd/client/v3/concurrency"
	"unfencedwrite/runners/util"
)

func retriedLockBad(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) error {
	m := concurrency.NewMutex(s, "/jobs/"+id)
	if err := util.Retry(3, func() error { return m.Lock(ctx) }); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id) // want `SQL write via db.ExecContext to jobs under the etcd mutex is not fenced`
	return err
}

func retriedLockGood(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) error {
	m := concurrency.NewMutex(s, "/jobs/"+id)
	if err := util.Retry(3, func() error { return m.Lock(ctx) }); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the write compares the mutex's revision
	res, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2", id, m.Header().Revision)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return util.ErrLocked
	}
	return nil
}

// Migrator takes a session advisory lock on its pinned connection through
// a runner, as golang-migrate's drivers do: Lock is an acquire wrapper and
// Unlock a release wrapper, each through helpers declared after them.
type Migrator struct {
	conn     *sql.Conn
	db       *sql.DB
	table    string
	isLocked atomic.Bool
}

func (m *Migrator) Lock() error {
	return util.CasRestoreOnErr(&m.isLocked, false, true, util.ErrLocked, func() error {
		return m.applyAdvisoryLock()
	})
}

func (m *Migrator) Unlock() error {
	return util.CasRestoreOnErr(&m.isLocked, true, false, util.ErrLocked, func() error {
		return m.releaseAdvisoryLock()
	})
}

func (m *Migrator) applyAdvisoryLock() error {
	_, err := m.conn.ExecContext(context.Background(), "SELECT pg_advisory_lock($1)", 42)
	return err
}

func (m *Migrator) releaseAdvisoryLock() error {
	_, err := m.conn.ExecContext(context.Background(), "SELECT pg_advisory_unlock($1)", 42)
	return err
}

// SetVersion runs on the connection that holds the lock.
func (m *Migrator) SetVersion(v int) error {
	tx, err := m.conn.BeginTx(context.Background(), nil)
	if err != nil {
		return err
	}
	// ok: a transaction of the connection whose session holds the lock
	if _, err := tx.Exec("INSERT INTO schema_migrations (version) VALUES ($1)", v); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// SetVersionPool writes through the pool, another session than the lock's.
func (m *Migrator) SetVersionPool(v int) error {
	_, err := m.db.Exec("INSERT INTO schema_migrations (version) VALUES ($1)", v) // want `SQL write via m.db.Exec to schema_migrations under the PostgreSQL advisory lock held in the Migrator by Lock is not fenced`
	return err
}

func (m *Migrator) ensure() (err error) {
	if err = m.Lock(); err != nil {
		return err
	}
	defer func() {
		// ok: the release (its own writes are the lock's)
		if e := m.Unlock(); e != nil {
			err = e
		}
	}()
	// ok: the connection holding the lock
	_, err = m.conn.ExecContext(context.Background(), "UPDATE schema_migrations SET dirty = false")
	return err
}

// Store runs a function in a transaction it commits: a transaction-level
// advisory lock taken in the function ends with it.
type Store struct{ db *sql.DB }

func (s *Store) WithTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

func (s *Store) xactLockGood(ctx context.Context, id string) error {
	err := s.WithTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(42)"); err != nil {
			return err
		}
		// ok: the transaction that holds the lock
		_, err := tx.ExecContext(ctx, "UPDATE jobs SET state = 'running' WHERE id = $1", id)
		return err
	})
	if err != nil {
		return err
	}
	// ok: after the commit, no lock is held
	_, err = s.db.ExecContext(ctx, "UPDATE jobs SET state = 'seen' WHERE id = $1", id)
	return err
}

func (s *Store) sessionLockBad(ctx context.Context, conn *sql.Conn, id string) error {
	err := s.WithTx(ctx, func(tx *sql.Tx) error {
		_, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(42)")
		return err
	})
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, "UPDATE jobs SET state = 'seen' WHERE id = $1", id) // want `SQL write via s.db.ExecContext to jobs under the PostgreSQL advisory lock is not fenced`
	return err
}
