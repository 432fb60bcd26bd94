package libs

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/redis/go-redis/v9"
)

func setNXBad(ctx context.Context, rdb *redis.Client, sku string, n int) error {
	ok, err := rdb.SetNX(ctx, "lock:inventory", "me", 30*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "lock:inventory") // ok: the release of the lock's own key
	return rdb.Set(ctx, "inventory:"+sku, n, 0).Err() // want `Redis write via rdb.Set under the Redis SET NX lock is not fenced: it is unconditional; the Redis SET NX lock gives no token to fence with: mint a counter in the same atomic step as the grant \(a Lua script that takes the lock and INCRs a counter, or a lock service with a revision or zxid: etcd, ZooKeeper\) and compare it in the write; see https://github.com/fencelint/fencelint/blob/main/docs/unfencedwrite.md#no-token$`
}

func setNXNotAcquiredGood(ctx context.Context, rdb *redis.Client, sku string) error {
	if !rdb.SetNX(ctx, "lock:inventory", "me", 30*time.Second).Val() {
		// ok: the lock was not taken here
		return rdb.Set(ctx, "inventory:miss", 1, 0).Err()
	}
	return nil
}

var fencedSet = redis.NewScript(`
local cur = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[2]) <= cur then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SET', KEYS[1], ARGV[1])
return 1`)

func scriptGood(ctx context.Context, rdb *redis.Client, lease Lease, v string) error {
	// ok: the script compares the token passed in ARGV[2]
	return fencedSet.Run(ctx, rdb, []string{"data", "data:fence"}, v, lease.Token).Err()
}

func scriptBad(ctx context.Context, rdb *redis.Client, lease Lease, v string) error {
	return rdb.Eval(ctx, "redis.call('SET', KEYS[1], ARGV[1]) return 1", []string{"data"}, v).Err() // want `the script compares no token passed in ARGV`
}

func redsyncBad(ctx context.Context, rs *redsync.Redsync, rdb *redis.Client) error {
	m := rs.NewMutex("jobs")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return rdb.HSet(ctx, "jobs:state", "a", "done").Err() // want `under the redsync mutex is not fenced: it is unconditional; the redsync mutex gives no token to fence with: mint a counter in the same atomic step as the grant \(a Lua script that takes the lock and INCRs a counter, or a lock service with a revision or zxid: etcd, ZooKeeper\) and compare it in the write; see https://github.com/fencelint/fencelint/blob/main/docs/unfencedwrite.md#no-token$`
}

func redislockBad(ctx context.Context, c *redislock.Client, rdb *redis.Client) error {
	lock, err := c.Obtain(ctx, "report", time.Minute, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return rdb.Set(ctx, "report:latest", "x", 0).Err() // want `under the redislock lock is not fenced: it is unconditional; the redislock lock gives no token to fence with: mint a counter in the same atomic step as the grant \(a Lua script that takes the lock and INCRs a counter, or a lock service with a revision or zxid: etcd, ZooKeeper\) and compare it in the write; see https://github.com/fencelint/fencelint/blob/main/docs/unfencedwrite.md#no-token$`
}

func redsyncCacheDelBad(ctx context.Context, rs *redsync.Redsync, rdb *redis.Client, id string) error {
	m := rs.NewMutex("mutex:user:" + id)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	// a Del of a data key is a write, not the release of the redsync mutex
	if err := rdb.Del(ctx, "user:"+id).Err(); err != nil { // want `Redis write via rdb.Del under the redsync mutex is not fenced`
		return err
	}
	return rdb.HSet(ctx, "user:"+id, "state", "done").Err() // want `Redis write via rdb.HSet under the redsync mutex is not fenced`
}

func redislockUnlockedGood(ctx context.Context, c *redislock.Client, rdb *redis.Client) error {
	lock, err := c.Obtain(ctx, "report", time.Minute, nil)
	if err != nil {
		return err
	}
	if err := lock.Release(ctx); err != nil {
		return err
	}
	// ok: after the release
	return rdb.Del(ctx, "report:latest").Err()
}

// Lease is an in-house lease with a token issued by a fenced counter.
type Lease struct {
	Key   string
	Token int64
}

func dedupeGood(ctx context.Context, rdb *redis.Client, db *sql.DB, eventID string) error {
	first, err := rdb.SetNX(ctx, "seen:"+eventID, 1, 24*time.Hour).Result()
	if err != nil || !first {
		return err
	}
	// ok: SET NX as an idempotency key, not a lock (no lock-like key, no release)
	_, err = db.ExecContext(context.Background(), "INSERT INTO events (id) VALUES ($1)", eventID)
	return err
}

func releasedKeyBad(ctx context.Context, rdb *redis.Client, job string) error {
	key := "job:" + job
	ok, err := rdb.SetNX(ctx, key, "me", time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	return rdb.Set(ctx, "job-state:"+job, "running", 0).Err() // want `Redis write via rdb.Set under the Redis SET NX lock is not fenced`
}

func rebuiltKeyBad(ctx context.Context, rdb *redis.Client, id string) error {
	ok, err := rdb.SetNX(ctx, "lock:"+id, "me", time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "lock:"+id) // ok: the release, with the key built again
	rdb.SAdd(ctx, "active-locks", "lock:"+id) // want `Redis write via rdb.SAdd to active-locks under the Redis SET NX lock is not fenced`
	return nil
}

func sprintfKeyGood(ctx context.Context, rdb *redis.Client, id string) error {
	ok, err := rdb.SetNX(ctx, fmt.Sprintf("lock:%s", id), "me", time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	// ok: renewing and releasing the lock's own key is bookkeeping
	rdb.Expire(ctx, fmt.Sprintf("lock:%s", id), time.Minute)
	return rdb.Del(ctx, fmt.Sprintf("lock:%s", id)).Err()
}

// wrongWaySet refuses tokens above the stored fence: it admits the stale
// holder and refuses the current one.
var wrongWaySet = redis.NewScript(`
local cur = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[2]) > cur then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SET', KEYS[1], ARGV[1])
return 1`)

func scriptWrongWayBad(ctx context.Context, rdb *redis.Client, lease Lease, v string) error {
	return wrongWaySet.Run(ctx, rdb, []string{"data", "data:fence"}, v, lease.Token).Err() // want `the script lets a stale token through`
}

// guardedSet writes only for a token above the stored fence.
var guardedSet = redis.NewScript(`
local cur = tonumber(redis.call('GET', KEYS[2]) or '0')
local tok = tonumber(ARGV[2])
if tok > cur then
  redis.call('SET', KEYS[2], ARGV[2])
  redis.call('SET', KEYS[1], ARGV[1])
  return 1
end
return 0`)

func scriptGuardedGood(ctx context.Context, rdb *redis.Client, lease Lease, v string) error {
	// ok: the write runs only when the token is above the stored fence
	return guardedSet.Run(ctx, rdb, []string{"data", "data:fence"}, v, lease.Token).Err()
}

func redislockExpireBad(ctx context.Context, c *redislock.Client, rdb *redis.Client) error {
	lock, err := c.Obtain(ctx, "report", time.Minute, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	// a data key's TTL is data too
	return rdb.Expire(ctx, "report:latest", time.Hour).Err() // want `Redis write via rdb.Expire to report:latest under the redislock lock is not fenced`
}

// hashFenced keeps the fence in a field of the same hash as the data.
var hashFenced = redis.NewScript(`
local cur = tonumber(redis.call('HGET', KEYS[1], 'fence') or '0')
if tonumber(ARGV[1]) <= cur then
  return 0
end
redis.call('HSET', KEYS[1], 'fence', ARGV[1], 'data', ARGV[2])
return 1`)

func scriptHashGood(ctx context.Context, rdb *redis.Client, lease Lease, v string) error {
	// ok: the script compares the token with the hash's fence field
	return hashFenced.Run(ctx, rdb, []string{"doc"}, lease.Token, v).Err()
}

func scriptInlineGood(ctx context.Context, rdb *redis.Client, lease Lease, key, v string) error {
	// ok: an inline script that refuses a token below the stored fence
	return rdb.Eval(ctx, `local cur = tonumber(redis.call('GET', KEYS[1]..':fence') or '0')
if tonumber(ARGV[1]) < cur then return 0 end
redis.call('SET', KEYS[1]..':fence', ARGV[1])
return redis.call('SET', KEYS[1], ARGV[2])`, []string{key}, lease.Token, v).Err()
}
