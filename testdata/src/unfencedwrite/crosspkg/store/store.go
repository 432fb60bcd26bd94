// Package store holds write helpers whose behaviour reaches callers
// through facts.
package store

import (
	"context"
	"database/sql"
)

// SaveBalance writes without any fence.
func SaveBalance(ctx context.Context, db *sql.DB, id string, bal int64) error {
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = $1 WHERE id = $2", bal, id)
	return err
}

// SaveBalanceAt is fenced by its version parameter.
func SaveBalanceAt(ctx context.Context, db *sql.DB, id string, bal, version int64) error {
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = $1, version = $3 WHERE id = $2 AND version < $3", bal, id, version)
	return err
}

// Publish is an in-house storage write taught by a directive.
//
//fencelint:write token=seq
func Publish(ctx context.Context, topic string, body []byte, seq uint64) error { return nil }
