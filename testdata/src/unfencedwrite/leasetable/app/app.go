// Package app takes its locks through package locks, a lease table.
package app

import (
	"context"
	"database/sql"
	"errors"

	"unfencedwrite/leasetable/locks"
)

var ErrSuperseded = errors.New("superseded")

func debitBad(ctx context.Context, l *locks.Locker, db *sql.DB) error {
	ok, err := l.TryAcquire(ctx, "ledger")
	if err != nil || !ok {
		return err
	}
	defer l.Release(ctx, "ledger")
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", 10, 1) // want `SQL write via db.ExecContext to accounts under the lease table locks is not fenced: its WHERE does not compare a fence column with the token; the lease table locks gives no token to fence with`
	return err
}

func notAcquiredGood(ctx context.Context, l *locks.Locker, db *sql.DB) error {
	ok, err := l.TryAcquire(ctx, "ledger")
	if err != nil {
		return err
	}
	if !ok {
		// ok: not acquired
		_, err = db.ExecContext(ctx, "UPDATE lock_stats SET misses = misses + 1 WHERE name = $1", "ledger")
		return err
	}
	return l.Release(ctx, "ledger")
}

func afterReleaseGood(ctx context.Context, l *locks.Locker, db *sql.DB) error {
	ok, err := l.TryAcquire(ctx, "ledger")
	if err != nil || !ok {
		return err
	}
	if err := l.Renew(ctx, "ledger"); err != nil {
		return err
	}
	if err := l.Release(ctx, "ledger"); err != nil {
		return err
	}
	// ok: released
	_, err = db.ExecContext(ctx, "UPDATE accounts SET audited = true WHERE id = $1", 1)
	return err
}

func debitFencedGood(ctx context.Context, l *locks.Locker, db *sql.DB) error {
	fence, err := l.AcquireFenced(ctx, "ledger")
	if err != nil {
		return err
	}
	defer l.Release(ctx, "ledger")
	// ok: fenced by the token the claim minted
	res, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1, fence = $3 WHERE id = $2 AND fence < $3", 10, 1, fence)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrSuperseded
	}
	return nil
}

func debitFenceDroppedBad(ctx context.Context, l *locks.Locker, db *sql.DB) error {
	fence, err := l.AcquireFenced(ctx, "ledger")
	if err != nil {
		return err
	}
	defer l.Release(ctx, "ledger")
	_ = fence
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", 10, 1) // want `SQL write via db.ExecContext to accounts under the lease table locks is not fenced: its WHERE does not compare a fence column with the token; compare the stored fence with fence in the write itself$`
	return err
}

func claimManyBad(ctx context.Context, l *locks.Locker, db *sql.DB) error {
	names, err := l.ClaimMany(ctx, []string{"a"})
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE reports SET owner_count = $1 WHERE id = 1", len(names)) // want `SQL write via db.ExecContext to reports under the lease table locks is not fenced`
	return err
}

func afterSweepGood(ctx context.Context, l *locks.Locker, db *sql.DB) error {
	if err := l.Sweep(ctx, db); err != nil {
		return err
	}
	// ok: Sweep released its lock before returning
	_, err := db.ExecContext(ctx, "UPDATE accounts SET swept = true WHERE id = $1", 1)
	return err
}
