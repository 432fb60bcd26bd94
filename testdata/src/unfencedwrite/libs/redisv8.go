package libs

import (
	"context"
	"time"

	redisv8 "github.com/go-redis/redis/v8"
)

// go-redis v8 (github.com/go-redis/redis/v8): the same commands as v9.

func v8SetNXBad(ctx context.Context, rdb *redisv8.Client, sku string, n int) error {
	ok, err := rdb.SetNX(ctx, "lock:inventory", "me", 30*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "lock:inventory") // ok: the release of the lock's own key
	return rdb.HSet(ctx, "inventory", sku, n).Err() // want `Redis write via rdb.HSet to inventory under the Redis SET NX lock is not fenced: it is unconditional; the Redis SET NX lock gives no token to fence with: mint a counter in the same atomic step as the grant \(a Lua script that takes the lock and INCRs a counter, or a lock service with a revision or zxid: etcd, ZooKeeper\) and compare it in the write; see https://github.com/fencelint/fencelint/blob/main/docs/unfencedwrite.md#no-token$`
}

func v8SetNXNotAcquiredGood(ctx context.Context, rdb *redisv8.Client, sku string) error {
	if !rdb.SetNX(ctx, "lock:inventory", "me", 30*time.Second).Val() {
		// ok: the lock was not taken here
		return rdb.SetEX(ctx, "inventory:miss", 1, time.Minute).Err()
	}
	return nil
}

var v8FencedSet = redisv8.NewScript(`
local cur = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[2]) <= cur then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SET', KEYS[1], ARGV[1])
return 1`)

func v8ScriptGood(ctx context.Context, rdb *redisv8.Client, lease Lease, v string) error {
	// ok: the script compares the token passed in ARGV[2]
	return v8FencedSet.Run(ctx, rdb, []string{"data", "data:fence"}, v, lease.Token).Err()
}

func v8LeaseBad(ctx context.Context, rdb *redisv8.Client, lease Lease, v string) error {
	return rdb.SetEX(ctx, "data", v, time.Minute).Err() // want `Redis write via rdb.SetEX to data under the Lease held in parameter lease is not fenced: it is unconditional`
}
