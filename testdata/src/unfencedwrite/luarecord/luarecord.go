// Package luarecord: a Lua script that orders the token against a stored
// fence it never writes does not fence (the Redis proof: the stale
// holder's write lands), and its twin that records the token does.
package luarecord

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Lease struct {
	Token int64
}

func unrecordedBad(ctx context.Context, rdb *redis.Client, lease Lease, v string) error {
	return rdb.Eval(ctx, "if tonumber(ARGV[2]) <= tonumber(redis.call('GET', KEYS[2]) or '0') then return 0 end redis.call('SET', KEYS[1], ARGV[1]) return 1", []string{"data", "data:fence"}, v, lease.Token).Err() // want `the script compares the token with KEYS\[2\] but never writes that key, so the fence never moves`
}

func recordedGood(ctx context.Context, rdb *redis.Client, lease Lease, v string) (int64, error) {
	// ok: compares the stored fence and records the token
	return rdb.Eval(ctx, "if tonumber(ARGV[2]) <= tonumber(redis.call('GET', KEYS[2]) or '0') then return 0 end redis.call('SET', KEYS[1], ARGV[1]) redis.call('SET', KEYS[2], ARGV[2]) return 1", []string{"data", "data:fence"}, v, lease.Token).Int64()
}
