// Package dbutil is a write helper in another package: its SQL and
// arguments are its callers'.
package dbutil

import (
	"context"
	"database/sql"
)

// Exec runs the caller's statement on db.
func Exec(ctx context.Context, db *sql.DB, q string, args ...any) error {
	_, err := db.ExecContext(ctx, q, args...)
	return err
}

// ExecTx runs the caller's statement in the caller's transaction.
func ExecTx(ctx context.Context, tx *sql.Tx, q string, args ...any) error {
	_, err := tx.ExecContext(ctx, q, args...)
	return err
}
