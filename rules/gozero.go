package rules

const (
	goZeroRedis = "github.com/zeromicro/go-zero/core/stores/redis"
	goZeroSqlx  = "github.com/zeromicro/go-zero/core/stores/sqlx"
	goZeroSqlc  = "github.com/zeromicro/go-zero/core/stores/sqlc"
)

// GoZero is go-zero's stores (github.com/zeromicro/go-zero, v1.10): its
// RedisLock, its Redis client's writes, and the sqlx and sqlc
// connections goctl's generated models write through. RedisLock is a
// SET NX lock with a random value and an expiry: AcquireCtx answers
// (false, nil) when another holder has the key, and nothing it hands out
// is ordered across grants, so a write in its scope has no token to fence
// with. The client's plain commands are blind writes; sqlx and sqlc run
// the caller's SQL, whose own WHERE is the fence.
var GoZero = Lib{
	Name:  "go-zero",
	Paths: []string{goZeroRedis, goZeroSqlx, goZeroSqlc},
	Acquires: []Acquire{
		// (bool, error): acquired when the bool is true and the error nil.
		{Func: "(*" + goZeroRedis + ".RedisLock).Acquire", Success: ErrNil, Lock: "go-zero RedisLock", NoToken: true, KeyArg: -1, LockIsReceiver: true},
		{Func: "(*" + goZeroRedis + ".RedisLock).AcquireCtx", Success: ErrNil, Lock: "go-zero RedisLock", NoToken: true, KeyArg: -1, LockIsReceiver: true},
		// The client's SET NX, the lock go-zero applications roll by hand
		// (SetnxEx(key, value, seconds), then Del(key)): an acquire only on
		// a key named like a lock or deleted in the same function, as for
		// go-redis's SetNX.
		{Func: "(*" + goZeroRedis + ".Redis).Setnx", Success: ErrNil, Lock: "Redis SET NX lock", NoToken: true, KeyArg: 0},
		{Func: "(*" + goZeroRedis + ".Redis).SetnxEx", Success: ErrNil, Lock: "Redis SET NX lock", NoToken: true, KeyArg: 0},
		{Func: "(*" + goZeroRedis + ".Redis).SetnxCtx", Success: ErrNil, Lock: "Redis SET NX lock", NoToken: true, KeyArg: 1},
		{Func: "(*" + goZeroRedis + ".Redis).SetnxExCtx", Success: ErrNil, Lock: "Redis SET NX lock", NoToken: true, KeyArg: 1},
	},
	Releases: append(methods("(*"+goZeroRedis+".RedisLock)", "Release", "ReleaseCtx"),
		methods("(*"+goZeroRedis+".Redis)", "Del", "DelCtx")...),
	Renews: methods("(*"+goZeroRedis+".Redis)", "Expire", "ExpireCtx"),
	Writes: concatWrites(
		// The key is the first argument, after the context in the Ctx forms.
		kvBlindWrites("(*"+goZeroRedis+".Redis).", "Redis", 0, "Set", "Setex", "Hset", "Del", "Incr"),
		kvBlindWrites("(*"+goZeroRedis+".Redis).", "Redis", 1, "SetCtx", "HsetCtx", "DelCtx"),
		sqlWrites("("+goZeroSqlx+".Session)", 0, "Exec"),
		sqlWrites("("+goZeroSqlx+".Session)", 1, "ExecCtx"),
		sqlWrites("("+goZeroSqlc+".CachedConn)", 0, "ExecNoCache"),
		sqlWrites("("+goZeroSqlc+".CachedConn)", 1, "ExecNoCacheCtx"),
	),
	Reads: []string{"(*" + goZeroRedis + ".Redis).Get", "(*" + goZeroRedis + ".Redis).GetCtx"},
	// A *RedisLock a function receives is a lock its caller took.
	LockTypes: []string{goZeroRedis + ".RedisLock"},
}
