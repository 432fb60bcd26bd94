package basic

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

type Lease struct {
	Resource  string
	Token     int64
	ExpiresAt time.Time
}

// Valid is the lease's own check: not reported by itself.
func (l *Lease) Valid() bool { return time.Now().Before(l.ExpiresAt) }

type Worker struct {
	db       *sql.DB
	isLeader bool
}

func validBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	if lease.Valid() { // want `client-side lease check lease.Valid\(\) guards the SQL write via db.ExecContext to orders: a paused holder passes it and writes anyway; compare lease.Token in the write's own condition`
		_, err := db.ExecContext(ctx, "UPDATE orders SET state = 'x' WHERE id = $1", id)
		return err
	}
	return nil
}

func validGood(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	if lease.Valid() {
		// ok: the write itself is fenced
		_, err := db.ExecContext(ctx, "UPDATE orders SET state = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, lease.Token)
		return err
	}
	return nil
}

func clockBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	if !time.Now().Before(lease.ExpiresAt) { // want `client-side expiry check time.Now\(\).Before\(lease.ExpiresAt\) guards the SQL write via db.ExecContext to orders`
		return errors.New("lease expired")
	}
	_, err := db.ExecContext(ctx, "UPDATE orders SET state = 'y' WHERE id = $1", id)
	return err
}

func clockNoWriteGood(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	// ok: nothing is written under the check
	if time.Now().After(lease.ExpiresAt) {
		return errors.New("lease expired")
	}
	return nil
}

func readThenWriteBad(ctx context.Context, db *sql.DB, lease *Lease, id string, bal int64) error {
	var stored int64
	if err := db.QueryRowContext(ctx, "SELECT fence_token FROM accounts WHERE id = $1", id).Scan(&stored); err != nil {
		return err
	}
	if stored >= lease.Token { // want `fence check stored >= lease.Token is done in Go before the SQL write via db.ExecContext to accounts: a newer holder can write between this check and the write`
		return errors.New("superseded")
	}
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = $1, fence_token = $3 WHERE id = $2", bal, id, lease.Token)
	return err
}

func readThenFencedWriteGood(ctx context.Context, db *sql.DB, lease *Lease, id string, bal int64) error {
	var stored int64
	if err := db.QueryRowContext(ctx, "SELECT fence_token FROM accounts WHERE id = $1", id).Scan(&stored); err != nil {
		return err
	}
	// ok: an early exit, but the write compares the fence too
	if stored >= lease.Token {
		return errors.New("superseded")
	}
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = $1, fence_token = $3 WHERE id = $2 AND fence_token < $3", bal, id, lease.Token)
	return err
}

func lockingReadGood(ctx context.Context, db *sql.DB, lease *Lease, id string, bal int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var stored int64
	if err := tx.QueryRowContext(ctx, "SELECT fence_token FROM accounts WHERE id = $1 FOR UPDATE", id).Scan(&stored); err != nil {
		return err
	}
	// ok: the row lock makes the Go-side comparison a correct fence
	if stored > lease.Token {
		return errors.New("superseded")
	}
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = $1, fence_token = $3 WHERE id = $2", bal, id, lease.Token); err != nil {
		return err
	}
	return tx.Commit()
}

func (w *Worker) flagBad(ctx context.Context, lease *Lease, id string) error {
	if !w.isLeader { // want `in-memory ownership flag w.isLeader guards the SQL write via w.db.ExecContext to jobs`
		return nil
	}
	_, err := w.db.ExecContext(ctx, "DELETE FROM jobs WHERE id = $1", id)
	return err
}

func outsideScopeGood(ctx context.Context, db *sql.DB, exp time.Time, id string) error {
	// ok: no lock scope
	if time.Now().Before(exp) {
		_, err := db.ExecContext(ctx, "UPDATE orders SET state = 'z' WHERE id = $1", id)
		return err
	}
	return nil
}
