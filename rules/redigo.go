package rules

import (
	"go/types"
	"strings"
)

const redigo = "github.com/gomodule/redigo/redis"

// Redigo is github.com/gomodule/redigo. Every command goes through one
// method, Conn.Do (or DoContext, DoWithTimeout, Send), with the command
// name as a string: the engine reads the constant name and its
// arguments. `Do("SET", key, val, "NX", ...)` on a lock-named key (or one
// the function deletes) is a Redis SET NX lock with no token, exactly
// like go-redis's SetNX; the write commands of RedigoWriteCommands are
// blind writes; EVAL, EVALSHA and (*Script).Do run Lua scripts, fenced
// when the script compares a token passed in ARGV (NewScript's keyCount
// says where KEYS end and ARGV begin).
var Redigo = Lib{
	Name:  "redigo",
	Paths: []string{redigo},
	Writes: []Write{
		{Func: "(" + redigo + ".Conn).Do", Kind: RedigoDo, Store: "Redis", QueryArg: 0, ArgsFrom: 1, KeyArg: -1, Outcome: unmodelled},
		{Func: "(" + redigo + ".Conn).Send", Kind: RedigoDo, Store: "Redis", QueryArg: 0, ArgsFrom: 1, KeyArg: -1, Outcome: unmodelled},
		{Func: "(" + redigo + ".ConnWithContext).DoContext", Kind: RedigoDo, Store: "Redis", QueryArg: 1, ArgsFrom: 2, KeyArg: -1, Outcome: unmodelled},
		{Func: "(" + redigo + ".ConnWithTimeout).DoWithTimeout", Kind: RedigoDo, Store: "Redis", QueryArg: 1, ArgsFrom: 2, KeyArg: -1, Outcome: unmodelled},
		{Func: redigo + ".DoContext", Kind: RedigoDo, Store: "Redis", QueryArg: 2, ArgsFrom: 3, KeyArg: -1, Outcome: unmodelled},
		{Func: redigo + ".DoWithTimeout", Kind: RedigoDo, Store: "Redis", QueryArg: 2, ArgsFrom: 3, KeyArg: -1, Outcome: unmodelled},
		{Func: "(*" + redigo + ".Script).Do", Kind: RedigoScript, Store: "Redis", QueryArg: -1, ArgsFrom: 1, KeyArg: -1, Outcome: unmodelled},
		{Func: "(*" + redigo + ".Script).DoContext", Kind: RedigoScript, Store: "Redis", QueryArg: -1, ArgsFrom: 2, KeyArg: -1, Outcome: unmodelled},
		{Func: "(*" + redigo + ".Script).Send", Kind: RedigoScript, Store: "Redis", QueryArg: -1, ArgsFrom: 1, KeyArg: -1, Outcome: unmodelled},
		{Func: "(*" + redigo + ".Script).SendHash", Kind: RedigoScript, Store: "Redis", QueryArg: -1, ArgsFrom: 1, KeyArg: -1, Outcome: unmodelled},
	},
}

// RedigoLock is the lock name of a SET NX taken through redigo: the
// same lock as go-redis's, so messages and the fence map agree.
const RedigoLock = "Redis SET NX lock"

// RedigoWriteCommands are the Redis commands (upper case) that change
// data and compare nothing a token could order: blind writes. INCR and
// INCRBY are left out as go-redis's Incr is: they mint counters.
var RedigoWriteCommands = map[string]bool{}

// RedigoReleaseCommands delete their keys: DEL of a SET NX lock's key
// releases it.
var RedigoReleaseCommands = map[string]bool{"DEL": true, "UNLINK": true}

func init() {
	for _, c := range strings.Fields(`SET SETEX PSETEX SETRANGE SETBIT APPEND GETSET GETDEL GETEX
		MSET MSETNX DEL UNLINK RENAME RENAMENX COPY DECR DECRBY INCRBYFLOAT
		HSET HMSET HSETNX HDEL HINCRBY HINCRBYFLOAT
		LPUSH RPUSH LPUSHX RPUSHX LPOP RPOP LSET LREM LTRIM LINSERT LMOVE RPOPLPUSH
		SADD SREM SPOP SMOVE
		ZADD ZREM ZINCRBY ZREMRANGEBYSCORE ZREMRANGEBYRANK ZPOPMIN ZPOPMAX
		XADD XDEL XTRIM PFADD
		EXPIRE PEXPIRE EXPIREAT PEXPIREAT PERSIST`) {
		RedigoWriteCommands[c] = true
	}
}

// IsRedigo reports whether fn is declared in redigo's redis package.
func IsRedigo(fn *types.Func) bool {
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == redigo
}
