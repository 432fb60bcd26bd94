package advisory

// MySQL and MariaDB named locks (GET_LOCK, RELEASE_LOCK): like a
// PostgreSQL session advisory lock they belong to the connection that
// took them and hand out no token. SQL on that same pinned connection is
// protected by the session; SQL on the pool may run on any connection.

import (
	"context"
	"database/sql"
	"errors"
)

var errLocked = errors.New("locked elsewhere")

func mysqlPoolLockBad(ctx context.Context, db *sql.DB, name string, id int64) error {
	if _, err := db.ExecContext(ctx, "SELECT GET_LOCK(?, 10)", name); err != nil {
		return err
	}
	defer db.ExecContext(ctx, "SELECT RELEASE_LOCK(?)", name)
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = ?", id) // want `SQL write via db.ExecContext to jobs under the MySQL named lock \(GET_LOCK\) is not fenced: its WHERE does not compare a fence column with the token; the MySQL named lock \(GET_LOCK\) gives no token to fence with: .*; for a database lock, that step is a counter row bumped right after taking it .*#no-token$`
	return err
}

func mysqlPinnedConnGood(ctx context.Context, db *sql.DB, name string, id int64) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var got int
	if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK(?, 10)", name).Scan(&got); err != nil {
		return err
	}
	if got != 1 {
		return errLocked
	}
	defer conn.ExecContext(ctx, "SELECT RELEASE_LOCK(?)", name)
	// ok: the same session holds the lock; if it dies, so does the lock
	// and this connection with it
	_, err = conn.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = ?", id)
	return err
}

func mysqlTryLockBad(ctx context.Context, db *sql.DB, name string, id int64) error {
	var got int64
	if err := db.QueryRowContext(ctx, "SELECT GET_LOCK(?, 0)", name).Scan(&got); err != nil || got != 1 {
		return errLocked
	}
	defer db.ExecContext(ctx, "DO RELEASE_LOCK(?)", name)
	_, err := db.ExecContext(ctx, "DELETE FROM queue WHERE job_id = ?", id) // want `SQL write via db.ExecContext to queue under the MySQL named lock \(GET_LOCK\) is not fenced`
	return err
}

func mysqlNotTakenGood(ctx context.Context, db *sql.DB, name string, id int64) error {
	var got int
	if err := db.QueryRowContext(ctx, "SELECT GET_LOCK(?, 0)", name).Scan(&got); err != nil {
		return err
	}
	if got == 0 {
		// ok: timed out, the lock is not held here
		_, err := db.ExecContext(ctx, "UPDATE jobs SET skipped = skipped + 1 WHERE id = ?", id)
		return err
	}
	defer db.ExecContext(ctx, "SELECT RELEASE_LOCK(?)", name)
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = ?", id) // want `SQL write via db.ExecContext to jobs under the MySQL named lock \(GET_LOCK\) is not fenced`
	return err
}

func mysqlAfterReleaseGood(ctx context.Context, db *sql.DB, name string, id int64) error {
	if _, err := db.ExecContext(ctx, "SELECT GET_LOCK(?, 10)", name); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, "SELECT RELEASE_ALL_LOCKS()"); err != nil {
		return err
	}
	// ok: released: this write claims no lock
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'idle' WHERE id = ?", id)
	return err
}

func mysqlIsFreeLockGood(ctx context.Context, db *sql.DB, name string, id int64) error {
	// ok: asking whether a lock is free takes no lock
	var free int
	if err := db.QueryRowContext(ctx, "SELECT IS_FREE_LOCK(?)", name).Scan(&free); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'idle' WHERE id = ?", id)
	return err
}

// MySQLLocker wraps named locks on the pool, as many applications do.
type MySQLLocker struct{ db *sql.DB }

func (l *MySQLLocker) Lock(ctx context.Context, name string) error {
	var got int
	if err := l.db.QueryRowContext(ctx, "SELECT GET_LOCK(?, -1)", name).Scan(&got); err != nil {
		return err
	}
	if got != 1 {
		return errLocked
	}
	return nil
}

func (l *MySQLLocker) Unlock(ctx context.Context, name string) error {
	_, err := l.db.ExecContext(ctx, "SELECT RELEASE_LOCK(?)", name)
	return err
}

func mysqlWrapperBad(ctx context.Context, l *MySQLLocker, db *sql.DB, id int64) error {
	if err := l.Lock(ctx, "jobs"); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'running' WHERE id = ?", id); err != nil { // want `SQL write via db.ExecContext to jobs under the MySQL named lock \(GET_LOCK\) is not fenced`
		return err
	}
	if err := l.Unlock(ctx, "jobs"); err != nil {
		return err
	}
	// ok: after the release wrapper, no lock is claimed
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'idle' WHERE id = ?", id)
	return err
}
