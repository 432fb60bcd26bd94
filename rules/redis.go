package rules

import (
	"go/types"
	"strings"
)

const goRedis = "github.com/redis/go-redis/v9"

// goRedisV8 is go-redis v8 (github.com/go-redis/redis/v8), still imported
// by much lock code: its commands take the same arguments as v9's, so they
// share v9's rules (redisKey maps both to one key).
const goRedisV8 = "github.com/go-redis/redis/v8"

// IsGoRedisPath reports whether path is go-redis v9 or v8.
func IsGoRedisPath(path string) bool { return path == goRedis || path == goRedisV8 }

// redisCmd is the key prefix of go-redis commands. They are methods of the
// unexported func type cmdable embedded in *Client, *Tx and pipelines, and
// interface methods of Cmdable, StringCmdable, Scripter, ... when called
// through UniversalClient: one key per command name covers every receiver.
const redisCmd = goRedis + ".cmd."

// IsRedisCommand reports whether fn is a go-redis command (Del, Set, ...).
// A command that releases (Del, Unlink) releases a SET NX lock by its key
// only, never a lock of another library.
func IsRedisCommand(fn *types.Func) bool {
	_, ok := redisKey(fn)
	return ok
}

func redisKey(fn *types.Func) (funcKey, bool) {
	if fn.Pkg() == nil || !IsGoRedisPath(LibPath(fn.Pkg().Path())) {
		return funcKey{}, false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return funcKey{}, false
	}
	n := namedOf(sig.Recv().Type())
	if n == nil {
		return funcKey{}, false
	}
	name := n.Obj().Name()
	if strings.HasSuffix(name, "Cmd") || name == "Script" || strings.HasSuffix(name, "Cmder") {
		return funcKey{}, false
	}
	return funcKey{pkg: goRedis, recv: "cmd", name: fn.Name()}, true
}

// GoRedis is go-redis v9 (and v8). A hand-rolled lock is SET NX (SetNX, or SetArgs
// with Mode "NX"); it carries no token. Plain commands are blind writes;
// scripts are fenced when they compare a token passed in ARGV.
var GoRedis = Lib{
	Name:  "go-redis",
	Paths: []string{goRedis, goRedisV8},
	Acquires: []Acquire{
		{Func: redisCmd + "SetNX", Success: BoolCmdTrue, Lock: "Redis SET NX lock", NoToken: true, KeyArg: 1},
		// SetArgs is an acquire only with Mode NX; the engine checks Mode.
		{Func: redisCmd + "SetArgs", Success: StatusCmdOK, Lock: "Redis SET NX lock", NoToken: true, KeyArg: 1},
	},
	Releases: []string{redisCmd + "Del", redisCmd + "Unlink", redisCmd + "DelExArgs"},
	Renews:   []string{redisCmd + "Expire", redisCmd + "PExpire", redisCmd + "ExpireAt", redisCmd + "PExpireAt"},
	Tokens: []Token{
		{Func: redisCmd + "Incr", Desc: "a Redis INCR counter", Weak: WeakCounter, Issuer: "Redis",
			Why: "INCR is monotonic on one shard but can regress after an asynchronous failover"},
		{Func: redisCmd + "IncrBy", Desc: "a Redis INCRBY counter", Weak: WeakCounter, Issuer: "Redis",
			Why: "INCR is monotonic on one shard but can regress after an asynchronous failover"},
	},
	Writes: append(append(kvBlindWrites(redisCmd, "Redis", 1,
		"Set", "SetEx", "SetEX", "SetXX", "Append", "GetSet", "GetDel",
		"Del", "Unlink", "Rename", "HSet", "HMSet", "HDel", "HIncrBy", "HSetNX",
		"LPush", "RPush", "LPop", "RPop", "LSet", "LRem", "LTrim",
		"SAdd", "SRem", "ZAdd", "ZRem", "ZIncrBy", "IncrByFloat",
		"Expire", "PExpire",
		// ZADD NX/XX only add or only update members: neither compares a
		// token. (ZADD GT/LT, which orders the new score against the
		// stored one, is not listed.)
		"ZAddNX", "ZAddXX", "Decr", "DecrBy", "HIncrByFloat", "SetRange", "PFAdd", "GetEx",
		"LPushX", "RPushX", "ZRemRangeByScore", "ZRemRangeByRank", "ZPopMin", "ZPopMax", "SPop"),
		// MSet and MSetNX take key-value pairs, XAdd an *XAddArgs: no
		// key argument.
		Write{Func: redisCmd + "MSet", Kind: KVBlind, Store: "Redis", KeyArg: -1, Outcome: NoOutcome},
		Write{Func: redisCmd + "MSetNX", Kind: KVBlind, Store: "Redis", KeyArg: -1, Outcome: NoOutcome},
		Write{Func: redisCmd + "XAdd", Kind: KVBlind, Store: "Redis", KeyArg: -1, Outcome: NoOutcome},
		// Do sends any command by name: the engine reads it as redigo's
		// Do (SET NX takes a lock, SET and HSET are blind writes, EVAL runs
		// a script).
		Write{Func: redisCmd + "Do", Kind: RedigoDo, Store: "Redis", QueryArg: 1, ArgsFrom: 1, KeyArg: -1, Outcome: unmodelled},
		Write{Func: redisCmd + "Eval", Kind: RedisScript, Store: "Redis", QueryArg: 1, ArgsFrom: 3, KeyArg: -1, Outcome: scriptOutcome},
		Write{Func: redisCmd + "EvalSha", Kind: RedisScript, Store: "Redis", QueryArg: 1, ArgsFrom: 3, KeyArg: -1, Outcome: scriptOutcome},
		Write{Func: redisCmd + "FCall", Kind: RedisScript, Store: "Redis", QueryArg: -1, ArgsFrom: 3, KeyArg: -1, Outcome: scriptOutcome},
	),
		Write{Func: "(*" + goRedis + ".Script).Run", Kind: RedisScript, Store: "Redis", QueryArg: -1, ArgsFrom: 3, KeyArg: -1, Outcome: scriptOutcome},
		Write{Func: "(*" + goRedis + ".Script).Eval", Kind: RedisScript, Store: "Redis", QueryArg: -1, ArgsFrom: 3, KeyArg: -1, Outcome: scriptOutcome},
		Write{Func: "(*" + goRedis + ".Script).EvalSha", Kind: RedisScript, Store: "Redis", QueryArg: -1, ArgsFrom: 3, KeyArg: -1, Outcome: scriptOutcome},
		Write{Func: "(*" + goRedisV8 + ".Script).Run", Kind: RedisScript, Store: "Redis", QueryArg: -1, ArgsFrom: 3, KeyArg: -1, Outcome: scriptOutcome},
		Write{Func: "(*" + goRedisV8 + ".Script).Eval", Kind: RedisScript, Store: "Redis", QueryArg: -1, ArgsFrom: 3, KeyArg: -1, Outcome: scriptOutcome},
		Write{Func: "(*" + goRedisV8 + ".Script).EvalSha", Kind: RedisScript, Store: "Redis", QueryArg: -1, ArgsFrom: 3, KeyArg: -1, Outcome: scriptOutcome},
	),
	Reads: []string{redisCmd + "Get", redisCmd + "HGet", redisCmd + "Exists"},
}

// scriptOutcome: a fencing script's reply says whether it wrote; Err()
// sees only a rejection raised as an error or a nil reply.
var scriptOutcome = Outcome{Kind: RejectReply, Name: "a rejecting reply", Method: "Err", Values: []string{"Int", "Int64", "Uint64"}}

// Redsync is Redlock. Its Value() is 16 random bytes and Until() a local
// clock reading: the lock opens a scope but offers no token.
var Redsync = Lib{
	Name:  "redsync",
	Paths: []string{"github.com/go-redsync/redsync/v4"},
	Acquires: []Acquire{
		{Func: "(*github.com/go-redsync/redsync/v4.Mutex).Lock", Success: ErrNil, Lock: "redsync mutex", NoToken: true, KeyArg: -1, LockIsReceiver: true},
		{Func: "(*github.com/go-redsync/redsync/v4.Mutex).LockContext", Success: ErrNil, Lock: "redsync mutex", NoToken: true, KeyArg: -1, LockIsReceiver: true},
		{Func: "(*github.com/go-redsync/redsync/v4.Mutex).TryLock", Success: ErrNil, Lock: "redsync mutex", NoToken: true, KeyArg: -1, LockIsReceiver: true},
		{Func: "(*github.com/go-redsync/redsync/v4.Mutex).TryLockContext", Success: ErrNil, Lock: "redsync mutex", NoToken: true, KeyArg: -1, LockIsReceiver: true},
	},
	Releases: methods("(*github.com/go-redsync/redsync/v4.Mutex)", "Unlock", "UnlockContext"),
	Renews:   methods("(*github.com/go-redsync/redsync/v4.Mutex)", "Extend", "ExtendContext"),
	Tokens: []Token{
		{Func: "(*github.com/go-redsync/redsync/v4.Mutex).Value", Desc: "the redsync mutex's Value()", Weak: WeakRandom, Issuer: "Redis",
			Why: "redsync's Value() is 16 random bytes, not ordered across grants"},
	},
	LockTypes: []string{"github.com/go-redsync/redsync/v4.Mutex"},
}

// RedisLock is bsm/redislock: its Token() is random.
var RedisLock = Lib{
	Name:  "redislock",
	Paths: []string{"github.com/bsm/redislock"},
	Acquires: []Acquire{
		{Func: "github.com/bsm/redislock.Obtain", Success: ErrNil, Lock: "redislock lock", NoToken: true, KeyArg: -1, StoreKeyArg: 2, LockResult: true},
		{Func: "(*github.com/bsm/redislock.Client).Obtain", Success: ErrNil, Lock: "redislock lock", NoToken: true, KeyArg: -1, StoreKeyArg: 1, LockResult: true},
	},
	Releases: []string{"(*github.com/bsm/redislock.Lock).Release"},
	Renews:   []string{"(*github.com/bsm/redislock.Lock).Refresh"},
	Tokens: []Token{
		{Func: "(*github.com/bsm/redislock.Lock).Token", Desc: "the redislock Token()", Weak: WeakRandom, Issuer: "Redis",
			Why: "redislock's Token() is 16 random bytes, not ordered across grants"},
	},
	LockTypes: []string{"github.com/bsm/redislock.Lock"},
}
