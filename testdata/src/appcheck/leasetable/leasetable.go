// Package leasetable: a Go-side expiry check on a SQL lease-table claim
// guarding a write, instead of a fence in the write.
package leasetable

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

var errExpired = errors.New("lease expired")

func expiryCheckBad(ctx context.Context, db *sql.DB, me string) error {
	var expiresAt time.Time
	err := db.QueryRowContext(ctx, `UPDATE locks SET holder = $1, expires_at = now() + interval '30 seconds'
		WHERE name = $2 AND (expires_at < now() OR holder = $1) RETURNING expires_at`, me, "billing").Scan(&expiresAt)
	if err != nil {
		return err
	}
	prepareInvoices()
	if !expiresAt.After(time.Now()) { // want `client-side expiry check expiresAt.After\(time.Now\(\)\) guards the SQL write via db.ExecContext to invoices: a holder paused after the check writes anyway; the lease table locks gives no token to fence with: .*; for a lease table, the claim is that step: SET fence = fence \+ 1 \(or nextval\) in the claim statement, RETURNING fence; see https://github.com/fencelint/fencelint/blob/main/docs/unfencedwrite.md#no-token$`
		return errExpired
	}
	_, err = db.ExecContext(ctx, "UPDATE invoices SET state = 'sent' WHERE batch = $1", 7)
	return err
}

func expiryCheckFencedGood(ctx context.Context, db *sql.DB, me string) error {
	var fence int64
	var expiresAt time.Time
	err := db.QueryRowContext(ctx, `UPDATE locks SET holder = $1, expires_at = now() + interval '30 seconds', fence = fence + 1
		WHERE name = $2 AND (expires_at < now() OR holder = $1) RETURNING fence, expires_at`, me, "billing").Scan(&fence, &expiresAt)
	if err != nil {
		return err
	}
	prepareInvoices()
	// ok: the check saves work; the write's own fence decides
	if !expiresAt.After(time.Now()) {
		return errExpired
	}
	res, err := db.ExecContext(ctx, "UPDATE invoices SET state = 'sent', fence = $2 WHERE batch = $1 AND fence < $2", 7, fence)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errExpired
	}
	return nil
}

func prepareInvoices() {}
