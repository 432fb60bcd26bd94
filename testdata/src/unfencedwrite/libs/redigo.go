package libs

import (
	"context"
	"errors"
	"time"

	"github.com/gomodule/redigo/redis"
)

// redigo sends every command through Conn.Do: the lock is a SET NX by
// command name, the writes are judged like go-redis's.

func redigoSetNXBad(c redis.Conn, sku string, n int) error {
	reply, err := c.Do("SET", "lock:inventory", "me", "NX", "PX", 30000)
	if err != nil || reply == nil {
		return err
	}
	defer c.Do("DEL", "lock:inventory")       // ok: the release of the lock's own key
	_, err = c.Do("SET", "inventory:"+sku, n) // want `Redis write via c.Do under the Redis SET NX lock is not fenced: it is unconditional; the Redis SET NX lock gives no token to fence with`
	return err
}

func redigoWrappedBad(pool *redis.Pool, job string) error {
	c := pool.Get()
	defer c.Close()
	if _, err := redis.String(c.Do("SET", "lock:job:"+job, "me", "NX", "EX", 60)); err != nil {
		return err
	}
	c.Do("EXPIRE", "lock:job:"+job, 60)          // ok: renewing the lock's own key is bookkeeping
	c.Do("HSET", "job:"+job, "state", "running") // want `Redis write via c.Do under the Redis SET NX lock is not fenced`
	c.Send("LPUSH", "done", job)                 // want `Redis write via c.Send to done under the Redis SET NX lock is not fenced`
	_, err := c.Do("DEL", "lock:job:"+job)
	return err
}

func redigoSetNXCommandBad(ctx context.Context, c redis.Conn, id string) error {
	ok, err := redis.Bool(c.Do("SETNX", "mutex:"+id, "me"))
	if err != nil || !ok {
		return err
	}
	defer c.Do("DEL", "mutex:"+id)
	_, err = redis.DoContext(c, ctx, "INCRBYFLOAT", "balance:"+id, 1.5) // want `Redis write via redis.DoContext under the Redis SET NX lock is not fenced`
	return err
}

func redigoAfterReleaseGood(c redis.Conn, id string) error {
	if _, err := redis.String(c.Do("SET", "lock:"+id, "me", "NX", "PX", 5000)); err != nil {
		return err
	}
	if _, err := c.Do("DEL", "lock:"+id); err != nil {
		return err
	}
	// ok: after the release
	_, err := c.Do("SET", "state:"+id, "idle")
	return err
}

func redigoReadsGood(c redis.Conn, id string) (string, error) {
	if _, err := redis.String(c.Do("SET", "lock:read:"+id, "me", "NX", "PX", 5000)); err != nil {
		return "", err
	}
	defer c.Do("DEL", "lock:read:"+id)
	c.Do("EXISTS", "doc:"+id) // ok: a read
	// ok: a read
	return redis.String(c.Do("GET", "doc:"+id))
}

func redigoDedupeGood(c redis.Conn, eventID string) error {
	reply, err := c.Do("SET", "seen:"+eventID, 1, "NX", "EX", 86400)
	if err != nil || reply == nil {
		return err
	}
	// ok: SET NX as an idempotency key, not a lock (no lock-like key, no release)
	_, err = c.Do("RPUSH", "events", eventID)
	return err
}

func redigoDynamicGood(c redis.Conn, cmd, id string) error {
	if _, err := redis.String(c.Do("SET", "lock:dyn:"+id, "me", "NX", "PX", 5000)); err != nil {
		return err
	}
	defer c.Do("DEL", "lock:dyn:"+id)
	// ok: a command name that is not a constant is not guessed at
	_, err := c.Do(cmd, "doc:"+id)
	return err
}

var redigoFencedSet = redis.NewScript(2, `
local cur = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[2]) <= cur then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SET', KEYS[1], ARGV[1])
return 1`)

func redigoScriptGood(c redis.Conn, lease Lease, v string) error {
	// ok: the script compares the token passed in ARGV[2]
	n, err := redis.Int(redigoFencedSet.Do(c, "data", "data:fence", v, lease.Token))
	if err == nil && n == 0 {
		return errRedigoSuperseded
	}
	return err
}

var errRedigoSuperseded = errors.New("superseded by a newer holder")

func redigoScriptPipelinedGood(c redis.Conn, lease Lease, v string) error {
	// ok: queued, the script still compares the token passed in ARGV[2]
	if err := redigoFencedSet.SendHash(c, "data", "data:fence", v, lease.Token); err != nil {
		return err
	}
	// ok: the same script queued by its source
	if err := redigoFencedSet.Send(c, "data", "data:fence", v, lease.Token); err != nil {
		return err
	}
	return c.Flush()
}

func redigoContextConnBad(ctx context.Context, c redis.ConnWithContext, lease Lease, id string) error {
	_, err := c.DoContext(ctx, "HSET", "doc:"+id, "state", "done") // want `Redis write via c.DoContext under the Lease held in parameter lease is not fenced: it is unconditional`
	return err
}

func redigoTimeoutConnBad(c redis.ConnWithTimeout, lease Lease, id string) error {
	_, err := c.DoWithTimeout(time.Second, "DEL", "doc:"+id) // want `Redis write via c.DoWithTimeout under the Lease held in parameter lease is not fenced: it is unconditional`
	return err
}

func redigoScriptContextGood(ctx context.Context, c redis.Conn, lease Lease, v string) error {
	s := redis.NewScript(1, `local cur = tonumber(redis.call('HGET', KEYS[1], 'fence') or '0')
if tonumber(ARGV[1]) <= cur then return 0 end
redis.call('HSET', KEYS[1], 'fence', ARGV[1], 'data', ARGV[2])
return 1`)
	// ok: the script compares the token with the hash's fence field
	n, err := redis.Int(s.DoContext(ctx, c, "doc", lease.Token, v))
	if err == nil && n == 0 {
		return errRedigoSuperseded
	}
	return err
}

func redigoEvalBad(c redis.Conn, lease Lease, v string) error {
	_, err := c.Do("EVAL", "redis.call('SET', KEYS[1], ARGV[1]) return 1", 1, "data", v) // want `the script compares no token passed in ARGV`
	return err
}

func redigoEvalGood(c redis.Conn, lease Lease, v string) error {
	// ok: an inline script that refuses a token below the stored fence
	n, err := redis.Int(c.Do("EVAL", `local cur = tonumber(redis.call('GET', KEYS[1]..':fence') or '0')
if tonumber(ARGV[1]) < cur then return 0 end
redis.call('SET', KEYS[1]..':fence', ARGV[1])
return redis.call('SET', KEYS[1], ARGV[2])`, 1, "doc", lease.Token, v))
	if err == nil && n == 0 {
		return errRedigoSuperseded
	}
	return err
}

var redigoWrongWay = redis.NewScript(2, `
local cur = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[2]) > cur then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SET', KEYS[1], ARGV[1])
return 1`)

func redigoScriptWrongWayBad(c redis.Conn, lease Lease, v string) error {
	_, err := redigoWrongWay.Do(c, "data", "data:fence", v, lease.Token) // want `the script lets a stale token through`
	return err
}

func redigoTimeoutBad(c redis.Conn, lease Lease, id string) error {
	_, err := redis.DoWithTimeout(c, time.Second, "ZADD", "scores", 1, id) // want `Redis write via redis.DoWithTimeout to scores under the Lease held in parameter lease is not fenced: it is unconditional`
	return err
}

func redigoZAddGTGood(c redis.Conn, lease Lease, id string) error {
	// ok: ZADD GT orders the new score against the stored one: not judged
	_, err := c.Do("ZADD", "scores", "GT", lease.Token, id)
	return err
}
