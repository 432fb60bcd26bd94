package dirwrite

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// completeLua compares only command replies: the expiry stamp it passes to
// ZADD is data, not a fence.
var completeLua = redis.NewScript(`
if redis.call("ZREM", KEYS[1], ARGV[1]) == 0 then
  return redis.error_reply("NOT FOUND")
end
if redis.call("ZADD", KEYS[2], ARGV[2], ARGV[1]) ~= 1 then
  return redis.error_reply("INTERNAL")
end
local old = redis.call("ZRANGE", KEYS[2], "-inf", ARGV[2], "BYSCORE")
if #old > 0 then
  redis.call("ZREM", KEYS[2], unpack(old))
end
return 1
`)

// stampLua orders the stamp against the stored one: the stamp is the fence.
var stampLua = redis.NewScript(`
if tonumber(ARGV[2]) <= tonumber(redis.call("GET", KEYS[1]) or "0") then
  return 0
end
redis.call("SET", KEYS[1], ARGV[2])
return 1
`)

// ok: no weak token; the expiry only reaches a command whose reply is
// compared (unfencedwrite's finding: the script compares no token)
func CompleteUnderLock(ctx context.Context, s *Svc, rdb *redis.Client) error {
	if _, err := s.Acquire(ctx, "a"); err != nil {
		return err
	}
	defer s.Release(ctx, "a")
	return completeLua.Run(ctx, rdb, []string{"active", "done"}, "job1", time.Now().Add(time.Hour).Unix()).Err()
}

func StampUnderLock(ctx context.Context, s *Svc, rdb *redis.Client) error {
	if _, err := s.Acquire(ctx, "a"); err != nil {
		return err
	}
	defer s.Release(ctx, "a")
	return stampLua.Run(ctx, rdb, []string{"fence"}, "job1", time.Now().UnixNano()).Err() // want `time.Now\(\).UnixNano\(\) is not a monotonic fencing token`
}
