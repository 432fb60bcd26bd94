package libs

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Every go-redis command rules/ lists as a write, under a SET NX lock:
// each one is unconditional, and the lock gives no token to fence with.

func redisCommandsBad(ctx context.Context, rdb *redis.Client, id string, members []redis.Z) error {
	ok, err := rdb.SetNX(ctx, "lock:cmds:"+id, "me", time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	rdb.SetEx(ctx, "k:"+id, "v", time.Minute)                                          // want `Redis write via rdb.SetEx under the Redis SET NX lock is not fenced: it is unconditional`
	rdb.SetXX(ctx, "k:"+id, "v", time.Minute)                                          // want `Redis write via rdb.SetXX under the Redis SET NX lock is not fenced`
	rdb.MSet(ctx, "a:"+id, 1, "b:"+id, 2)                                              // want `Redis write via rdb.MSet under the Redis SET NX lock is not fenced`
	rdb.MSetNX(ctx, "a:"+id, 1, "b:"+id, 2)                                            // want `Redis write via rdb.MSetNX under the Redis SET NX lock is not fenced`
	rdb.Append(ctx, "log:"+id, "x")                                                    // want `Redis write via rdb.Append under the Redis SET NX lock is not fenced`
	rdb.GetSet(ctx, "k:"+id, "v")                                                      // want `Redis write via rdb.GetSet under the Redis SET NX lock is not fenced`
	rdb.GetDel(ctx, "k:"+id)                                                           // want `Redis write via rdb.GetDel under the Redis SET NX lock is not fenced`
	rdb.Unlink(ctx, "old:"+id)                                                         // want `Redis write via rdb.Unlink under the Redis SET NX lock is not fenced`
	rdb.Rename(ctx, "k:"+id, "k2:"+id)                                                 // want `Redis write via rdb.Rename under the Redis SET NX lock is not fenced`
	rdb.HMSet(ctx, "h:"+id, "f", 1)                                                    // want `Redis write via rdb.HMSet under the Redis SET NX lock is not fenced`
	rdb.HDel(ctx, "h:"+id, "f")                                                        // want `Redis write via rdb.HDel under the Redis SET NX lock is not fenced`
	rdb.HIncrBy(ctx, "h:"+id, "n", 1)                                                  // want `Redis write via rdb.HIncrBy under the Redis SET NX lock is not fenced`
	rdb.HSetNX(ctx, "h:"+id, "f", 1)                                                   // want `Redis write via rdb.HSetNX under the Redis SET NX lock is not fenced`
	rdb.LPush(ctx, "l:"+id, "x")                                                       // want `Redis write via rdb.LPush under the Redis SET NX lock is not fenced`
	rdb.RPush(ctx, "l:"+id, "x")                                                       // want `Redis write via rdb.RPush under the Redis SET NX lock is not fenced`
	rdb.LPop(ctx, "l:"+id)                                                             // want `Redis write via rdb.LPop under the Redis SET NX lock is not fenced`
	rdb.RPop(ctx, "l:"+id)                                                             // want `Redis write via rdb.RPop under the Redis SET NX lock is not fenced`
	rdb.LSet(ctx, "l:"+id, 0, "x")                                                     // want `Redis write via rdb.LSet under the Redis SET NX lock is not fenced`
	rdb.LRem(ctx, "l:"+id, 0, "x")                                                     // want `Redis write via rdb.LRem under the Redis SET NX lock is not fenced`
	rdb.LTrim(ctx, "l:"+id, 0, 99)                                                     // want `Redis write via rdb.LTrim under the Redis SET NX lock is not fenced`
	rdb.SRem(ctx, "s:"+id, "x")                                                        // want `Redis write via rdb.SRem under the Redis SET NX lock is not fenced`
	rdb.ZAdd(ctx, "z:"+id, redis.Z{Score: 1, Member: "x"})                             // want `Redis write via rdb.ZAdd under the Redis SET NX lock is not fenced`
	rdb.ZRem(ctx, "z:"+id, "x")                                                        // want `Redis write via rdb.ZRem under the Redis SET NX lock is not fenced`
	rdb.ZIncrBy(ctx, "z:"+id, 1, "x")                                                  // want `Redis write via rdb.ZIncrBy under the Redis SET NX lock is not fenced`
	rdb.IncrByFloat(ctx, "f:"+id, 0.5)                                                 // want `Redis write via rdb.IncrByFloat under the Redis SET NX lock is not fenced`
	rdb.XAdd(ctx, &redis.XAddArgs{Stream: "events", Values: map[string]any{"id": id}}) // want `Redis write via rdb.XAdd under the Redis SET NX lock is not fenced`
	rdb.PExpire(ctx, "k:"+id, time.Second)                                             // want `Redis write via rdb.PExpire under the Redis SET NX lock is not fenced`
	rdb.ZAddNX(ctx, "z:"+id, redis.Z{Score: 1, Member: "x"})                           // want `Redis write via rdb.ZAddNX under the Redis SET NX lock is not fenced`
	rdb.ZAddXX(ctx, "z:"+id, members...)                                               // want `Redis write via rdb.ZAddXX under the Redis SET NX lock is not fenced`
	rdb.ZRemRangeByScore(ctx, "z:"+id, "0", "10")                                      // want `Redis write via rdb.ZRemRangeByScore under the Redis SET NX lock is not fenced`
	rdb.ZRemRangeByRank(ctx, "z:"+id, 0, -1)                                           // want `Redis write via rdb.ZRemRangeByRank under the Redis SET NX lock is not fenced`
	rdb.ZPopMin(ctx, "z:"+id)                                                          // want `Redis write via rdb.ZPopMin under the Redis SET NX lock is not fenced`
	rdb.ZPopMax(ctx, "z:"+id)                                                          // want `Redis write via rdb.ZPopMax under the Redis SET NX lock is not fenced`
	rdb.SPop(ctx, "s:"+id)                                                             // want `Redis write via rdb.SPop under the Redis SET NX lock is not fenced`
	rdb.Decr(ctx, "n:"+id)                                                             // want `Redis write via rdb.Decr under the Redis SET NX lock is not fenced`
	rdb.DecrBy(ctx, "n:"+id, 2)                                                        // want `Redis write via rdb.DecrBy under the Redis SET NX lock is not fenced`
	rdb.HIncrByFloat(ctx, "h:"+id, "f", 0.5)                                           // want `Redis write via rdb.HIncrByFloat under the Redis SET NX lock is not fenced`
	rdb.SetRange(ctx, "k:"+id, 0, "v")                                                 // want `Redis write via rdb.SetRange under the Redis SET NX lock is not fenced`
	rdb.PFAdd(ctx, "seen:"+id, "x")                                                    // want `Redis write via rdb.PFAdd under the Redis SET NX lock is not fenced`
	rdb.GetEx(ctx, "k:"+id, time.Minute)                                               // want `Redis write via rdb.GetEx under the Redis SET NX lock is not fenced`
	rdb.LPushX(ctx, "l:"+id, "x")                                                      // want `Redis write via rdb.LPushX under the Redis SET NX lock is not fenced`
	rdb.RPushX(ctx, "l:"+id, "x")                                                      // want `Redis write via rdb.RPushX under the Redis SET NX lock is not fenced`
	// ok: the lock's own key is renewed and released: bookkeeping
	rdb.PExpire(ctx, "lock:cmds:"+id, time.Minute)
	rdb.ExpireAt(ctx, "lock:cmds:"+id, time.Now().Add(time.Minute))
	rdb.PExpireAt(ctx, "lock:cmds:"+id, time.Now().Add(time.Minute))
	return rdb.Unlink(ctx, "lock:cmds:"+id).Err()
}

func redisSetArgsBad(ctx context.Context, rdb *redis.Client, id string) error {
	if err := rdb.SetArgs(ctx, "lock:job:"+id, "me", redis.SetArgs{Mode: "NX", TTL: time.Minute}).Err(); err != nil {
		return err
	}
	defer rdb.DelExArgs(ctx, "lock:job:"+id, redis.DelExArgs{}) // ok: the release of the lock's own key
	return rdb.Set(ctx, "job:"+id, "done", 0).Err()             // want `Redis write via rdb.Set under the Redis SET NX lock is not fenced`
}

func redisScriptByNameGood(ctx context.Context, rdb *redis.Client, sha string, v string) error {
	ok, err := rdb.SetNX(ctx, "lock:sha", "me", time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "lock:sha")
	// ok: a function or a script called by its SHA is loaded elsewhere:
	// its source cannot be judged here, so it is not reported
	rdb.FCall(ctx, "set_data", []string{"data"}, v)
	// ok: as above
	return rdb.EvalSha(ctx, sha, []string{"data"}, v).Err()
}

func redisScriptMethodsGood(ctx context.Context, rdb *redis.Client, lease Lease, v string) error {
	// ok: the script compares the token passed in ARGV[2]
	if err := fencedSet.Eval(ctx, rdb, []string{"data", "data:fence"}, v, lease.Token).Err(); err != nil {
		return err
	}
	// ok: the same script by its SHA
	return fencedSet.EvalSha(ctx, rdb, []string{"data", "data:fence"}, v, lease.Token).Err()
}
