package libs

import (
	"context"
	"database/sql"
	"errors"

	"github.com/zeromicro/go-zero/core/stores/redis"
	"github.com/zeromicro/go-zero/core/stores/sqlc"
	"github.com/zeromicro/go-zero/core/stores/sqlx"
)

// go-zero's RedisLock is a SET NX lock with a random value: AcquireCtx
// answers false when another holder has the key, and it hands out no
// token. Writes under it, through go-zero's sqlx and sqlc connections
// (goctl's generated models) or its Redis client, have nothing to fence
// with.

var errGzBusy = errors.New("busy")

func goZeroLockSQLBad(ctx context.Context, rds *redis.Redis, conn sqlx.SqlConn, id int64) error {
	lock := redis.NewRedisLock(rds, "order:lock")
	lock.SetExpire(10)
	ok, err := lock.AcquireCtx(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return errGzBusy
	}
	defer lock.ReleaseCtx(ctx)
	_, err = conn.ExecCtx(ctx, "UPDATE orders SET state = 'paid' WHERE id = ?", id) // want `SQL write via conn.ExecCtx to orders under the go-zero RedisLock is not fenced: its WHERE does not compare a fence column with the token; the go-zero RedisLock gives no token to fence with`
	return err
}

func goZeroNotAcquiredGood(ctx context.Context, rds *redis.Redis, conn sqlx.SqlConn, id int64) error {
	lock := redis.NewRedisLock(rds, "order:lock")
	ok, err := lock.Acquire()
	if err != nil {
		return err
	}
	if !ok {
		// ok: the lock was not taken, this is no write under it
		_, err := conn.Exec("UPDATE orders SET retries = retries + 1 WHERE id = ?", id)
		return err
	}
	defer lock.Release()
	_, err = conn.Exec("UPDATE orders SET state = 'paid' WHERE id = ?", id) // want `SQL write via conn.Exec to orders under the go-zero RedisLock is not fenced`
	return err
}

func goZeroRedisWriteBad(ctx context.Context, rds *redis.Redis, id string) error {
	lock := redis.NewRedisLock(rds, "stock:"+id)
	if ok, err := lock.AcquireCtx(ctx); err != nil || !ok {
		return errGzBusy
	}
	defer lock.ReleaseCtx(ctx)
	return rds.HsetCtx(ctx, "stock", id, "0") // want `Redis write via rds.HsetCtx to stock under the go-zero RedisLock is not fenced: it is unconditional`
}

func goZeroCachedConnBad(ctx context.Context, rds *redis.Redis, cc sqlc.CachedConn, id int64) error {
	lock := redis.NewRedisLock(rds, "order:lock")
	if ok, err := lock.AcquireCtx(ctx); err != nil || !ok {
		return errGzBusy
	}
	defer lock.ReleaseCtx(ctx)
	_, err := cc.ExecNoCacheCtx(ctx, "DELETE FROM carts WHERE order_id = ?", id) // want `SQL write via cc.ExecNoCacheCtx to carts under the go-zero RedisLock is not fenced`
	return err
}

func goZeroAfterReleaseGood(ctx context.Context, rds *redis.Redis, conn sqlx.SqlConn, id int64) error {
	lock := redis.NewRedisLock(rds, "order:lock")
	if ok, err := lock.AcquireCtx(ctx); err != nil || !ok {
		return errGzBusy
	}
	if _, err := lock.ReleaseCtx(ctx); err != nil {
		return err
	}
	// ok: released: this write claims no lock
	_, err := conn.ExecCtx(ctx, "UPDATE orders SET state = 'idle' WHERE id = ?", id)
	return err
}

// A *RedisLock parameter is a lock the caller took.
func goZeroHeldLockBad(ctx context.Context, lock *redis.RedisLock, conn sqlx.SqlConn, id int64) (sql.Result, error) {
	return conn.ExecCtx(ctx, "UPDATE orders SET state = 'shipped' WHERE id = ?", id) // want `SQL write via conn.ExecCtx to orders under the redis.RedisLock lock is not fenced: .*the redis.RedisLock lock gives no token to fence with`
}

// Every write of go-zero's Redis client is blind, and sqlc's uncached
// Exec runs the SQL as given.
func goZeroClientWritesBad(rds *redis.Redis, cc sqlc.CachedConn, id string) error {
	lock := redis.NewRedisLock(rds, "cart:"+id)
	if ok, err := lock.Acquire(); err != nil || !ok {
		return errGzBusy
	}
	defer lock.Release()
	ctx := context.Background()
	if err := rds.Set("cart:"+id, "open"); err != nil { // want `Redis write via rds.Set under the go-zero RedisLock is not fenced`
		return err
	}
	if err := rds.Setex("cart:ttl:"+id, "1", 60); err != nil { // want `Redis write via rds.Setex under the go-zero RedisLock is not fenced`
		return err
	}
	if err := rds.Hset("carts", id, "open"); err != nil { // want `Redis write via rds.Hset to carts under the go-zero RedisLock is not fenced`
		return err
	}
	if _, err := rds.Incr("carts:opened"); err != nil { // want `Redis write via rds.Incr to carts:opened under the go-zero RedisLock is not fenced`
		return err
	}
	if err := rds.SetCtx(ctx, "cart:state:"+id, "x"); err != nil { // want `Redis write via rds.SetCtx under the go-zero RedisLock is not fenced`
		return err
	}
	if _, err := rds.Del("cart:old:" + id); err != nil { // want `Redis write via rds.Del under the go-zero RedisLock is not fenced`
		return err
	}
	if _, err := rds.DelCtx(ctx, "cart:tmp:"+id); err != nil { // want `Redis write via rds.DelCtx under the go-zero RedisLock is not fenced`
		return err
	}
	_, err := cc.ExecNoCache("UPDATE carts SET state = 'open' WHERE id = ?", id) // want `SQL write via cc.ExecNoCache to carts under the go-zero RedisLock is not fenced`
	return err
}

// The lock go-zero applications roll by hand: SetnxEx on a key, Del it
// when done. It hands out no token, like go-redis's SetNX.

func goZeroSetnxLockBad(rds *redis.Redis, conn sqlx.SqlConn, id int64) error {
	key := "order:pay:lock"
	ok, err := rds.SetnxEx(key, "1", 10)
	if err != nil || !ok {
		return errGzBusy
	}
	defer rds.Del(key)
	if err := rds.Expire(key, 20); err != nil { // ok: extends the lock's own key
		return err
	}
	_, err = conn.Exec("UPDATE orders SET state = 'paid' WHERE id = ?", id) // want `SQL write via conn.Exec to orders under the Redis SET NX lock is not fenced`
	return err
}

func goZeroSetnxCtxLockBad(ctx context.Context, rds *redis.Redis, id string) error {
	ok, err := rds.SetnxExCtx(ctx, "stock:"+id, "1", 10)
	if err != nil {
		return err
	}
	if !ok {
		return errGzBusy // ok: not acquired
	}
	defer rds.DelCtx(ctx, "stock:"+id)
	if err := rds.ExpireCtx(ctx, "stock:"+id, 20); err != nil { // ok: extends the lock's own key
		return err
	}
	return rds.HsetCtx(ctx, "stock", id, "0") // want `Redis write via rds.HsetCtx to stock under the Redis SET NX lock is not fenced`
}

func goZeroSetnxPlainLockBad(ctx context.Context, rds *redis.Redis, conn sqlx.SqlConn, id int64) error {
	if ok, err := rds.Setnx("lock:job", "1"); err != nil || !ok {
		return errGzBusy
	}
	_, err := conn.ExecCtx(ctx, "DELETE FROM jobs WHERE id = ?", id) // want `SQL write via conn.ExecCtx to jobs under the Redis SET NX lock is not fenced`
	if err != nil {
		return err
	}
	_, err = rds.Del("lock:job")
	return err
}

func goZeroSetnxCtxUnlockedGood(ctx context.Context, rds *redis.Redis, conn sqlx.SqlConn, id int64) error {
	ok, err := rds.SetnxCtx(ctx, "lock:sweep", "1")
	if err != nil || !ok {
		return errGzBusy
	}
	if _, err := rds.DelCtx(ctx, "lock:sweep"); err != nil {
		return err
	}
	// ok: the lock was released above
	_, err = conn.ExecCtx(ctx, "DELETE FROM sweeps WHERE id = ?", id)
	return err
}

func goZeroSetnxDedupGood(ctx context.Context, rds *redis.Redis, conn sqlx.SqlConn, id string) error {
	// A SET NX on a request-id key, never deleted here: deduplication, not a lock.
	ok, err := rds.SetnxExCtx(ctx, "req:"+id, "1", 3600)
	if err != nil || !ok {
		return err
	}
	// ok: no lock is held
	_, err = conn.ExecCtx(ctx, "INSERT INTO requests (id) VALUES (?)", id)
	return err
}
