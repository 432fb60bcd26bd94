package libs

import (
	"context"
	"database/sql"

	"github.com/redis/go-redis/v9"
)

// go-redis's Do sends any command by name: SET ... NX on a lock's key is
// the hand-rolled lock, other commands are read as redigo's Do reads them.

func redisDoSetNXBad(ctx context.Context, rdb *redis.Client, db *sql.DB, id string) error {
	if err := rdb.Do(ctx, "SET", "lock:job:"+id, "me", "NX", "PX", 30000).Err(); err != nil {
		return err // redis.Nil: another holder has it
	}
	defer rdb.Do(ctx, "DEL", "lock:job:"+id)                                          // ok: the release of the lock's own key
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id) // want `SQL write via db.ExecContext to jobs under the Redis SET NX lock is not fenced`
	return err
}

func redisDoUniversalBad(ctx context.Context, rdb redis.UniversalClient, sku string, n int) error {
	if _, err := rdb.Do(ctx, "set", "mutex:"+sku, "me", "nx", "ex", 30).Result(); err != nil {
		return err
	}
	defer rdb.Do(ctx, "DEL", "mutex:"+sku)
	return rdb.Do(ctx, "HSET", "inventory:"+sku, "n", n).Err() // want `Redis write via rdb.Do under the Redis SET NX lock is not fenced: it is unconditional`
}

func redisDoAfterReleaseGood(ctx context.Context, rdb *redis.Client, db *sql.DB, id string) error {
	if err := rdb.Do(ctx, "SET", "lock:"+id, "me", "NX", "PX", 5000).Err(); err != nil {
		return err
	}
	if err := rdb.Do(ctx, "DEL", "lock:"+id).Err(); err != nil {
		return err
	}
	// ok: after the release
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'idle' WHERE id = $1", id)
	return err
}

func redisDoDedupeGood(ctx context.Context, rdb *redis.Client, db *sql.DB, eventID string) error {
	if err := rdb.Do(ctx, "SET", "seen:"+eventID, 1, "NX", "EX", 86400).Err(); err != nil {
		return err
	}
	// ok: SET NX as an idempotency key, not a lock (no lock-like key, no release)
	_, err := db.ExecContext(ctx, "INSERT INTO events (id) VALUES ($1)", eventID)
	return err
}

func redisDoFailedGood(ctx context.Context, rdb *redis.Client, db *sql.DB, id string) error {
	if err := rdb.Do(ctx, "SET", "lock:fail:"+id, "me", "NX", "PX", 5000).Err(); err != nil {
		// ok: the lock was not taken on this path
		_, _ = db.ExecContext(ctx, "INSERT INTO lock_failures (id) VALUES ($1)", id)
		return err
	}
	defer rdb.Do(ctx, "DEL", "lock:fail:"+id)
	return nil
}
