// Package leasetable: tokens minted in application code (clock, random,
// UUID) and written into a fence that a condition compares, with SQL
// lease tables and outside any lock scope.
package leasetable

import (
	"context"
	"database/sql"
	"errors"
	"math/rand"
	"time"

	"github.com/google/uuid"
)

var errHeld = errors.New("held by another")

// acquireClock stamps the claim with the wall clock and hands it out as
// the token.
func acquireClock(ctx context.Context, db *sql.DB, me string) (int64, error) {
	tok := time.Now().UnixNano() // want `time.Now\(\).UnixNano\(\) is not a monotonic fencing token: wall-clock time .*; it is used as the token returned by acquire acquireClock`
	res, err := db.ExecContext(ctx, `UPDATE locks SET holder = $1, fence = $3, expires_at = now() + interval '30 seconds'
		WHERE name = $2 AND (expires_at < now() OR holder = $1)`, me, "ledger", tok)
	if err != nil {
		return 0, err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return 0, errHeld
	}
	return tok, nil
}

func debit(ctx context.Context, db *sql.DB, me string) error {
	fence, err := acquireClock(ctx, db, me)
	if err != nil {
		return err
	}
	// reported once, at the clock reading in acquireClock
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = 0, fence = $2 WHERE id = $1 AND fence < $2", 1, fence)
	return err
}

// ok: the claim mints the fence itself and returns it
func acquireMintedGood(ctx context.Context, db *sql.DB, me string) (int64, error) {
	var fence int64
	err := db.QueryRowContext(ctx, `UPDATE locks SET holder = $1, fence = fence + 1, expires_at = now() + interval '30 seconds'
		WHERE name = $2 AND (expires_at < now() OR holder = $1) RETURNING fence`, me, "ledger").Scan(&fence)
	return fence, err
}

// stampRandomClaim stamps the lease row with a random number that the
// release compares by order: it is meant as a fence and is not one.
func stampRandomClaim(ctx context.Context, db *sql.DB, me string) error {
	stamp := rand.Int63() // want `rand.Int63\(\) is not a monotonic fencing token: a random number is not ordered across grants; it is used as the fence leases.epoch, which a write's condition compares`
	res, err := db.ExecContext(ctx, `INSERT INTO leases (name, owner, epoch, expires_at) VALUES ($1, $2, $3, now() + interval '1 minute')
		ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, epoch = EXCLUDED.epoch, expires_at = EXCLUDED.expires_at
		WHERE leases.expires_at < now()`, "compactor", me, stamp)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errHeld
	}
	return nil
}

func releaseStamped(ctx context.Context, db *sql.DB, stamp int64) error {
	_, err := db.ExecContext(ctx, "DELETE FROM leases WHERE name = $1 AND epoch <= $2", "compactor", stamp)
	return err
}

// underClaimClockBad writes under a lease-table lock with a clock reading
// as its fence.
func underClaimClockBad(ctx context.Context, db *sql.DB, me string) error {
	res, err := db.ExecContext(ctx, `UPDATE locks SET holder = $1, expires_at = now() + interval '30 seconds'
		WHERE name = $2 AND expires_at < now()`, me, "docs")
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errHeld
	}
	tok := time.Now().UnixNano() // want `time.Now\(\).UnixNano\(\) is not a monotonic fencing token: wall-clock time .*; it is used as the fence of SQL write via db.ExecContext`
	_, err = db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", 1, tok)
	return err
}

// Outside any lock scope: a job row stamped with the clock by one write,
// compared by order by another.

func startJob(ctx context.Context, db *sql.DB, id int64) (int64, error) {
	epoch := time.Now().UnixNano() // want `time.Now\(\).UnixNano\(\) is not a monotonic fencing token: wall-clock time .*; it is used as the fence jobs.run_epoch, which a write's condition compares`
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'running', run_epoch = $2 WHERE id = $1 AND state = 'queued'", id, epoch)
	return epoch, err
}

func finishJob(ctx context.Context, db *sql.DB, id, epoch int64) error {
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1 AND run_epoch <= $2", id, epoch)
	return err
}

// ok: a UUID compared by equality is an ownership check: a later run's
// stamp differs, so a stale finish matches no row
func startTaskGood(ctx context.Context, db *sql.DB, id int64) (string, error) {
	stamp := uuid.NewString()
	_, err := db.ExecContext(ctx, "UPDATE tasks SET state = 'running', run_token = $2 WHERE id = $1 AND state = 'queued'", id, stamp)
	return stamp, err
}

func finishTaskGood(ctx context.Context, db *sql.DB, id int64, stamp string) error {
	_, err := db.ExecContext(ctx, "UPDATE tasks SET state = 'done' WHERE id = $1 AND run_token = $2", id, stamp)
	return err
}

// ok: a clock stored in updated_at and compared elsewhere is a time
// filter, not a fence
func touchGood(ctx context.Context, db *sql.DB, id int64) error {
	_, err := db.ExecContext(ctx, "UPDATE docs SET updated_at = $2 WHERE id = $1", id, time.Now().Unix())
	return err
}

func expireGood(ctx context.Context, db *sql.DB, cutoff int64) error {
	_, err := db.ExecContext(ctx, "UPDATE docs SET state = 'stale' WHERE updated_at < $1", cutoff)
	return err
}
