// Package cache keeps inventory counters in Redis, guarded by a SETNX lock
// or by a lease from the lock service.
package cache

import (
	"context"
	"errors"
	"time"

	"example.com/fencelint-example/fence"
	"github.com/redis/go-redis/v9"
)

// ErrBusy is returned when another worker holds the lock.
var ErrBusy = errors.New("cache: lock held by another worker")

// SetStock takes the classic SETNX lock and then writes with a plain SET:
// the lock carries no token, so nothing stops a stale holder's SET.
func SetStock(ctx context.Context, rdb *redis.Client, owner, sku string, n int) error {
	ok, err := rdb.SetNX(ctx, "lock:inventory", owner, 30*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	// ok: the Del releases the lock; it is not a write to fence.
	defer rdb.Del(ctx, "lock:inventory")

	return rdb.Set(ctx, "inventory:"+sku, n, 0).Err() // expect: unfencedwrite
}

// fencedSet sets KEYS[1] to ARGV[1] only if ARGV[2] is larger than the
// fence stored in KEYS[2], and records the new fence.
const fencedSet = `
local fence = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[2]) <= fence then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2])
return 1
`

// SetStockFenced writes through a script that compares the lease's token
// with the stored fence atomically.
func SetStockFenced(ctx context.Context, rdb *redis.Client, lease fence.Lease, sku string, n int) error {
	// ok: the script compares ARGV[2] = lease.Token with the stored fence.
	applied, err := rdb.Eval(ctx, fencedSet, []string{"inventory:" + sku, "fence:inventory:" + sku}, n, lease.Token).Int()
	if err != nil {
		return err
	}
	if applied == 0 {
		return ErrBusy
	}
	return nil
}

// Stock reads a counter under the lease.
func Stock(ctx context.Context, rdb *redis.Client, lease fence.Lease, sku string) (int, error) {
	// ok: GET is a read.
	return rdb.Get(ctx, "inventory:"+sku).Int()
}
