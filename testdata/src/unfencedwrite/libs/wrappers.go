package libs

import (
	"context"
	"errors"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"
)

// obtainReady is an acquire wrapper with a clean-up release: its error
// result tells the caller whether it holds the lock.
func obtainReady(ctx context.Context, c *redislock.Client, rdb *redis.Client, key string) (*redislock.Lock, error) {
	lock, err := c.Obtain(ctx, key, time.Minute, nil)
	if err != nil {
		return nil, err
	}
	if rdb.Get(ctx, key+":ready").Val() == "" {
		_ = lock.Release(ctx)
		return nil, errors.New("not ready")
	}
	return lock, nil
}

func wrapperWithCleanupBad(ctx context.Context, c *redislock.Client, rdb *redis.Client) error {
	lock, err := obtainReady(ctx, c, rdb, "jobs")
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return rdb.Set(ctx, "jobs:state", "done", 0).Err() // want `Redis write via rdb.Set to jobs:state under the redislock lock is not fenced`
}

// throttle takes a short lease as a rate limit: released when the work is
// skipped, left to expire otherwise. It hands its caller no lock.
func throttle(ctx context.Context, c *redislock.Client, key string, busy bool) {
	lock, err := c.Obtain(ctx, key, time.Second, nil)
	if err != nil {
		return
	}
	if busy {
		_ = lock.Release(ctx)
		return
	}
}

func afterThrottleGood(ctx context.Context, c *redislock.Client, rdb *redis.Client, keys []string) error {
	for _, k := range keys {
		// ok: throttle's lease is not held for this loop
		if err := rdb.Del(ctx, "queue:"+k).Err(); err != nil {
			return err
		}
		throttle(ctx, c, "throttle:"+k, len(k) > 3)
	}
	return nil
}

// saveAndRelease takes the lock from its caller and releases it itself
// (automuteus' SetDiscordGameState): it holds the lock until the release.
func saveAndRelease(ctx context.Context, rdb *redis.Client, key string, lock *redislock.Lock) {
	if lock == nil {
		return
	}
	rdb.Set(ctx, key, "state", 0) // want `Redis write via rdb.Set under the redislock.Lock lock is not fenced`
	_ = lock.Release(ctx)
	// ok: after the release
	rdb.Set(ctx, key+":ptr", key, 0)
}

// saveAndMaybeRelease is called with a nil lock when the caller took none.
func saveAndMaybeRelease(ctx context.Context, rdb *redis.Client, key string, lock *redislock.Lock) {
	rdb.Set(ctx, key, "state", 0) // want `Redis write via rdb.Set under the redislock.Lock lock is not fenced`
	if lock != nil {
		_ = lock.Release(ctx)
	}
	// ok: released, or never held (lock == nil)
	rdb.Set(ctx, key+":ptr", key, 0)
}

