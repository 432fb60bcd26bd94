// Package luaconst: an ARGV bound to a compile-time constant (a counter's
// wrap-around limit, asynq's shape) is compared in the script but fences
// nothing, so a script whose only comparison is against it is unfenced;
// a comparison against a value the engine cannot trace stays unknown.
package luaconst

import (
	"context"
	"math"

	"github.com/redis/go-redis/v9"
)

type Lease struct {
	Token int64
}

const wrapScript = `
redis.call("HSET", KEYS[1], "state", ARGV[1])
local total = redis.call("GET", KEYS[2])
if tonumber(total) == tonumber(ARGV[2]) then
  redis.call("SET", KEYS[2], 1)
else
  redis.call("INCR", KEYS[2])
end
return 1`

// run forwards its script and arguments, as asynq's runScript does.
func run(ctx context.Context, rdb *redis.Client, script string, keys []string, args ...interface{}) error {
	return rdb.Eval(ctx, script, keys, args...).Err()
}

func archiveBad(ctx context.Context, rdb *redis.Client, lease Lease, state string) error {
	args := []interface{}{state, int64(math.MaxInt64)}
	return run(ctx, rdb, wrapScript, []string{"task", "total"}, args...) // want `Redis write via run under the Lease held in parameter lease is not fenced: the script compares no token passed in ARGV`
}

func archiveDirectBad(ctx context.Context, rdb *redis.Client, lease Lease, state string) error {
	return rdb.Eval(ctx, wrapScript, []string{"task", "total"}, state, math.MaxInt64).Err() // want `Redis write via rdb.Eval under the Lease held in parameter lease is not fenced: the script compares no token passed in ARGV`
}

// workerID is this process's name, set at start-up.
var workerID string

// archiveOwnerUnknown compares an ARGV bound to a value that is no
// constant and no token (the worker's id): not guessed.
func archiveOwnerUnknown(ctx context.Context, rdb *redis.Client, lease Lease, state string) error {
	// ok: unknown
	return rdb.Eval(ctx, wrapScript, []string{"task", "total"}, state, workerID).Err()
}

const fencedScript = `
local cur = redis.call("GET", KEYS[2])
if tonumber(ARGV[2]) <= tonumber(cur or "0") then return 0 end
redis.call("HSET", KEYS[1], "state", ARGV[1])
redis.call("SET", KEYS[2], ARGV[2])
return 1`

func archiveGood(ctx context.Context, rdb *redis.Client, lease Lease, state string) error {
	// ok: the script compares the lease's token
	return run(ctx, rdb, fencedScript, []string{"task", "task:fence"}, state, lease.Token)
}
