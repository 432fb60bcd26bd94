// Package ledger is the sample the golangci-lint integration test lints:
// standard library only, with an in-house lease type.
package ledger

import (
	"context"
	"database/sql"
	"errors"
)

// ErrFenced reports a write the fence rejected: a newer lease holder wrote.
var ErrFenced = errors.New("ledger: write rejected by fence")

// Lease is held while the holder owns Resource; Token is the fencing token
// the lock service issued with the grant.
type Lease struct {
	Resource string
	Holder   string
	Token    int64
}

// debit is the finding: the write carries no fencing token.
func debit(ctx context.Context, db *sql.DB, lease Lease, account string, amount int64) error {
	_, err := db.ExecContext(ctx, "UPDATE account_balances SET balance = balance - $1 WHERE account_id = $2", amount, account) // finding: unfencedwrite
	return err
}

// debitNolint is the same write, suppressed for golangci-lint.
func debitNolint(ctx context.Context, db *sql.DB, lease Lease, account string, amount int64) error {
	_, err := db.ExecContext(ctx, "UPDATE account_balances SET balance = balance - $1 WHERE account_id = $2", amount, account) //nolint:unfencedwrite // sample: suppressed
	return err
}

// debitFenced compares the stored fence with the lease's token and treats
// a rejected write as an error: no finding.
func debitFenced(ctx context.Context, db *sql.DB, lease Lease, account string, amount int64) error {
	res, err := db.ExecContext(ctx, "UPDATE account_balances SET balance = balance - $1, fence_token = $3 WHERE account_id = $2 AND fence_token < $3", amount, account, lease.Token)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrFenced
	}
	return nil
}

// Use keeps the unexported functions used.
var Use = []any{debit, debitNolint, debitFenced}
