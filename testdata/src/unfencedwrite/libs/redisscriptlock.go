package libs

import (
	"context"
	"database/sql"
	"errors"

	"github.com/redis/go-redis/v9"
)

// Locks taken by a Lua script that SETs one of its KEYS with NX.

var acquireLockScript = redis.NewScript(`return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`)

var errLockBusy = errors.New("busy")

func scriptLockBad(ctx context.Context, rdb *redis.Client, db *sql.DB) error {
	if err := acquireLockScript.Run(ctx, rdb, []string{"lock:billing"}, "me", 30000).Err(); err != nil {
		return errLockBusy
	}
	defer rdb.Del(ctx, "lock:billing")
	_, err := db.ExecContext(ctx, `UPDATE invoices SET sent = 1 WHERE id = 1`) // want `SQL write via db.ExecContext to invoices under the Redis SET NX lock \(Lua script\) is not fenced: its WHERE does not compare a fence column with the token; the Redis SET NX lock \(Lua script\) gives no token to fence with`
	return err
}

func scriptLockAfterDelGood(ctx context.Context, rdb *redis.Client, db *sql.DB) error {
	if err := acquireLockScript.Run(ctx, rdb, []string{"lock:billing"}, "me", 30000).Err(); err != nil {
		return errLockBusy
	}
	rdb.Del(ctx, "lock:billing")
	_, err := db.ExecContext(ctx, `UPDATE invoices SET seen = 1 WHERE id = 1`) // ok: after the lock's key was deleted
	return err
}

func scriptLockNotAcquiredGood(ctx context.Context, rdb *redis.Client, db *sql.DB) error {
	if err := acquireLockScript.Run(ctx, rdb, []string{"lock:billing"}, "me", 30000).Err(); err != nil {
		_, err = db.ExecContext(ctx, `UPDATE invoices SET skipped = skipped + 1 WHERE id = 1`) // ok: not acquired
		return err
	}
	return nil
}

// A SET NX of a deduplication key in a script is no lock.
var dedupScript = redis.NewScript(`return redis.call('SET', KEYS[1], '1', 'NX', 'EX', 3600)`)

func dedupGood(ctx context.Context, rdb *redis.Client, db *sql.DB, id string) error {
	if err := dedupScript.Run(ctx, rdb, []string{"seen:" + id}).Err(); err != nil {
		return nil
	}
	_, err := db.ExecContext(ctx, `UPDATE events SET handled = 1 WHERE id = $1`, id) // ok: no lock
	return err
}
