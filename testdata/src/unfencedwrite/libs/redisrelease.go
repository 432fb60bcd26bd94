package libs

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// The releases a hand-rolled Redis lock is given: DEL of its key, or the
// compare-and-delete script (delete the key only while it still holds
// this holder's value), inline or in the lock's own Release or Unlock.
// They end the lock's scope and are its bookkeeping, not writes under it;
// the writes between acquire and release are still unfenced (SET NX hands
// out no token).

var unlockScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`)

var renewScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`)

// Not bookkeeping: it deletes the key and writes another.
var moveScript = redis.NewScript(`redis.call("DEL", KEYS[1]) return redis.call("SET", KEYS[2], ARGV[1])`)

func unlockScriptInlineBad(ctx context.Context, rdb *redis.Client, db *sql.DB, id string) error {
	ok, err := rdb.SetNX(ctx, "lock:order:"+id, "me", 30*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer unlockScript.Run(ctx, rdb, []string{"lock:order:" + id}, "me")                               // ok: the lock's release
	if err := renewScript.Run(ctx, rdb, []string{"lock:order:" + id}, "me", 30000).Err(); err != nil { // ok: renews the lock's own key
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE orders SET state = 'paid' WHERE id = $1", id) // want `SQL write via db.ExecContext to orders under the Redis SET NX lock is not fenced`
	return err
}

func unlockScriptEndsScopeGood(ctx context.Context, rdb *redis.Client, db *sql.DB, id string) error {
	ok, err := rdb.SetNX(ctx, "lock:order:"+id, "me", 30*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	if err := unlockScript.Run(ctx, rdb, []string{"lock:order:" + id}, "me").Err(); err != nil {
		return err
	}
	// ok: released above
	_, err = db.ExecContext(ctx, "UPDATE orders SET state = 'open' WHERE id = $1", id)
	return err
}

func otherScriptUnderLockBad(ctx context.Context, rdb *redis.Client, id string) error {
	ok, err := rdb.SetNX(ctx, "lock:order:"+id, "me", 30*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "lock:order:"+id)
	return moveScript.Run(ctx, rdb, []string{"order:" + id, "order:new:" + id}, "x").Err() // want `Redis write via moveScript.Run under the Redis SET NX lock is not fenced`
}

// An application's own Redis lock client, its Release and Unlock in
// methods of their own.

type redisLockClient struct {
	rdb *redis.Client
	db  *sql.DB
}

type heldRedisLock struct{ key, value string }

func (c *redisLockClient) Acquire(ctx context.Context, key string) (*heldRedisLock, error) {
	ok, err := c.rdb.SetNX(ctx, "lock:"+key, "me", 30*time.Second).Result()
	if err != nil || !ok {
		return nil, err
	}
	return &heldRedisLock{key: key, value: "me"}, nil
}

func (c *redisLockClient) Release(ctx context.Context, l *heldRedisLock) error {
	return c.rdb.Del(ctx, "lock:"+l.key).Err()
}

func (c *redisLockClient) Unlock(ctx context.Context, l *heldRedisLock) error {
	return unlockScript.Run(ctx, c.rdb, []string{"lock:" + l.key}, l.value).Err()
}

// Named like a release, but what it deletes is no lock: a write.
func (c *redisLockClient) ReleaseReservation(ctx context.Context, id string) error {
	return c.rdb.Del(ctx, "reservation:"+id).Err()
}

func (c *redisLockClient) releaseWrapperBad(ctx context.Context, id string) error {
	l, err := c.Acquire(ctx, id)
	if err != nil {
		return err
	}
	defer c.Release(ctx, l)                               // ok: the lock's release
	if err := c.ReleaseReservation(ctx, id); err != nil { // want `storage write via c.ReleaseReservation under the Redis SET NX lock is not fenced`
		return err
	}
	_, err = c.db.ExecContext(ctx, "UPDATE orders SET state = 'paid' WHERE id = $1", id) // want `SQL write via c.db.ExecContext to orders under the Redis SET NX lock is not fenced`
	return err
}

func (c *redisLockClient) unlockWrapperGood(ctx context.Context, id string) error {
	l, err := c.Acquire(ctx, id)
	if err != nil {
		return err
	}
	if err := c.Unlock(ctx, l); err != nil {
		return err
	}
	// ok: released above
	_, err = c.db.ExecContext(ctx, "UPDATE orders SET state = 'open' WHERE id = $1", id)
	return err
}

// A lock type's own Unlock deletes whatever key it was made with.

type RedisMutex struct {
	rdb *redis.Client
	key string
}

func (m *RedisMutex) Lock(ctx context.Context) error {
	ok, err := m.rdb.SetNX(ctx, m.key, "me", 30*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errRedisBusy
	}
	return nil
}

func (m *RedisMutex) Unlock(ctx context.Context) error {
	return m.rdb.Del(ctx, m.key).Err()
}

var errRedisBusy = errors.New("busy")

func redisMutexBad(ctx context.Context, m *RedisMutex, db *sql.DB, id string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)                                                                 // ok: the lock's release
	_, err := db.ExecContext(ctx, "UPDATE orders SET state = 'paid' WHERE id = $1", id) // want `SQL write via db.ExecContext to orders under the Redis SET NX lock is not fenced`
	return err
}

func redisMutexUnlockedGood(ctx context.Context, m *RedisMutex, db *sql.DB, id string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	if err := m.Unlock(ctx); err != nil {
		return err
	}
	// ok: released above
	_, err := db.ExecContext(ctx, "UPDATE orders SET state = 'open' WHERE id = $1", id)
	return err
}
