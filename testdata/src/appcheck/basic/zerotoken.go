package basic

import (
	"context"
	"database/sql"
	"errors"
)

// A test of the token against zero or nil that falls back to an unfenced
// write is optionaltoken's finding (the fallback), not a fence check done
// in Go: one diagnosis per root cause.

func zeroTokenFallback(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	// ok: optionaltoken reports this branch
	if lease.Token == 0 {
		_, err := db.ExecContext(ctx, "UPDATE orders SET state = 'x' WHERE id = $1", id)
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE orders SET state = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, lease.Token)
	return err
}


func nilTokenFallback(ctx context.Context, db *sql.DB, tok *int64, id string) error {
	// ok: optionaltoken reports this branch ("when tok is nil")
	if tok == nil {
		_, err := db.ExecContext(ctx, "UPDATE orders SET state = 'x' WHERE id = $1", id)
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE orders SET state = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, *tok)
	return err
}

func readThenWriteAfterZeroTestBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	if lease.Token == 0 {
		return errors.New("no token")
	}
	var stored int64
	if err := db.QueryRowContext(ctx, "SELECT fence_token FROM orders WHERE id = $1", id).Scan(&stored); err != nil {
		return err
	}
	if stored >= lease.Token { // want `fence check stored >= lease.Token is done in Go before the SQL write via db.ExecContext to orders`
		return errors.New("superseded")
	}
	_, err := db.ExecContext(ctx, "UPDATE orders SET state = 'x' WHERE id = $1", id)
	return err
}
