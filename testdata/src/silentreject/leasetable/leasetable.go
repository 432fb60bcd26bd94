// Package leasetable: lease-table claims whose refusal is never looked
// at, and fenced writes under a lease-table token whose rejection is.
package leasetable

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

var (
	ErrHeld       = errors.New("held by another")
	ErrSuperseded = errors.New("superseded")
)

const claim = `UPDATE locks SET holder = $1, expires_at = now() + interval '30 seconds'
	WHERE name = $2 AND (expires_at < now() OR holder = $1)`

const claimFenced = `UPDATE locks SET holder = $1, expires_at = now() + interval '30 seconds', fence = fence + 1
	WHERE name = $2 AND (expires_at < now() OR holder = $1)
	RETURNING fence`

func claimDiscardedBad(ctx context.Context, db *sql.DB, me string) {
	db.ExecContext(ctx, claim, me, "sweeper") // want `the result of lease-table claim via db.ExecContext on locks is discarded: a claim that finds the lock held changes 0 rows and returns no error; check RowsAffected\(\) and go on only when it is 1`
	sweep(ctx, db)
}

func claimErrorOnlyBad(ctx context.Context, db *sql.DB, me string) error {
	if _, err := db.ExecContext(ctx, claim, me, "sweeper"); err != nil { // want `the result of lease-table claim via db.ExecContext on locks is discarded`
		return err
	}
	sweep(ctx, db)
	return nil
}

func claimNeverComparedBad(ctx context.Context, db *sql.DB, me string) error {
	res, err := db.ExecContext(ctx, claim, me, "sweeper") // want `lease-table claim via db.ExecContext on locks never compares RowsAffected\(\): a claim that finds the lock held changes 0 rows and returns no error; go on only when it is 1`
	if err != nil {
		return err
	}
	n, _ := res.RowsAffected()
	sweep(ctx, db)
	_ = n
	return nil
}

func claimCheckedGood(ctx context.Context, db *sql.DB, me string) error {
	// ok: the claim goes on only when it changed the row
	res, err := db.ExecContext(ctx, claim, me, "sweeper")
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return ErrHeld
	}
	sweep(ctx, db)
	return nil
}

func claimRetriedGood(ctx context.Context, db *sql.DB, me string) error {
	for {
		// ok: retrying a claim until the row is free is how a lock is taken
		res, err := db.ExecContext(ctx, claim, me, "sweeper")
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			break
		}
		time.Sleep(time.Second)
	}
	sweep(ctx, db)
	return nil
}

func claimScanDiscardedBad(ctx context.Context, db *sql.DB, me string) {
	var fence int64
	db.QueryRowContext(ctx, claimFenced, me, "sweeper").Scan(&fence) // want `the error of lease-table claim via db.QueryRowContext on locks is discarded: sql.ErrNoRows is how the claim says the lock is held; go on only when the RETURNING row is scanned`
	db.ExecContext(ctx, "UPDATE sweeps SET ran = ran + 1, fence = $1 WHERE id = 1 AND fence < $1", fence) // want `the result of fenced write via db.ExecContext is discarded`
}

func fencedUnderClaimGood(ctx context.Context, db *sql.DB, me string) error {
	var fence int64
	if err := db.QueryRowContext(ctx, claimFenced, me, "sweeper").Scan(&fence); err != nil {
		return nil // ok: held by another (sql.ErrNoRows): nothing to do
	}
	// ok: the fenced write's rejection is checked
	res, err := db.ExecContext(ctx, "UPDATE sweeps SET ran = ran + 1, fence = $1 WHERE id = 1 AND fence < $1", fence)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrSuperseded
	}
	return nil
}

func sweep(ctx context.Context, db *sql.DB) {}
