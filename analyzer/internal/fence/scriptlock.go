package fence

import (
	"strconv"
	"strings"

	"github.com/fencelint/fencelint/internal/lazyregexp"
	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// Redis locks taken by a Lua script: the script form of SET NX that
// libraries and applications use to set a lock and do something else in
// the same step (or just to keep the lock's code in one place):
//
//	var acquire = redis.NewScript(`return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`)
//	if err := acquire.Run(ctx, rdb, []string{"lock:report"}, id, ttl).Err(); err != nil { ... }
//
// A script that calls SET with NX (or SETNX) on one of its KEYS takes a
// SET NX lock on that key when the key is a lock's (isLockKeyVal, as for
// SetNX): held where the script's error is nil (a refused SET NX replies
// nil, which go-redis reports as redis.Nil), until a Del of the key. It
// hands out no token unless the script also INCRs a counter, whose reply
// is the (weak, single-shard) token the docs describe.

var luaSetNXRe = lazyregexp.New(`(?is)redis\.p?call\(\s*['"](set|setnx)['"]\s*,\s*KEYS\[(\d+)\]([^)]*)\)`)

var luaNXRe = lazyregexp.New(`(?i)['"]nx['"]`)

// luaLockKey returns the KEYS index (0-based) a script takes a SET NX lock
// on, and whether it also increments a counter.
func luaLockKey(script string) (key int, counter, ok bool) {
	for _, m := range luaSetNXRe.FindAllStringSubmatch(script, -1) {
		if strings.EqualFold(m[1], "set") && !luaNXRe.MatchString(m[3]) {
			continue
		}
		n, err := strconv.Atoi(m[2])
		if err != nil || n < 1 {
			continue
		}
		lower := strings.ToLower(script)
		counter := strings.Contains(lower, "'incr'") || strings.Contains(lower, `"incr"`)
		return n - 1, counter, true
	}
	return 0, false, false
}

// scriptLock reads call, a Redis script write of rule w, as a SET NX lock
// and returns the lock key's value.
func (e *engine) scriptLock(call *ssa.Call, w *rules.Write) (ssa.Value, bool, bool) {
	cc := call.Common()
	script, ok := e.scriptText(cc, w)
	if !ok {
		return nil, false, false
	}
	idx, counter, ok := luaLockKey(script)
	if !ok {
		return nil, false, false
	}
	key := scriptKeyArg(cc, w, idx)
	return key, counter, key != nil
}

// scriptKeyArg returns KEYS[idx+1] of a script call of rule w, the idx'th
// element of its keys slice (Eval(ctx, src, keys, args...), Run(ctx, c,
// keys, args...)), nil when it cannot be read.
func scriptKeyArg(cc *ssa.CallCommon, w *rules.Write, idx int) ssa.Value {
	ps := params(cc)
	if w.ArgsFrom < 1 || w.ArgsFrom-1 >= len(ps) {
		return nil
	}
	keys, ok := unpackVariadic(ps[w.ArgsFrom-1])
	if !ok || idx >= len(keys) {
		return nil
	}
	return keys[idx]
}

// A lock's own bookkeeping done by a script: the compare-and-delete
// release every Redis lock guide gives, and its compare-and-expire renew:
//
//	if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end
//	if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end
//
// Such a script writes the lock's key and nothing else: it releases (or
// renews) the SET NX lock on that key, and is no protected write.

var luaCallRe = lazyregexp.New(`(?is)redis\.p?call\(\s*['"](\w+)['"]\s*(?:,\s*([^,)]*))?`)

var luaKeyRe = lazyregexp.New(`^KEYS\[(\d+)\]$`)

// luaBookkeepingKey returns the KEYS index (0-based) of the one key a
// script deletes or expires, whether it deletes it (a release, not a
// renew), and false when the script calls any other write command, on
// any other key.
func luaBookkeepingKey(script string) (key int, release, ok bool) {
	key = -1
	for _, m := range luaCallRe.FindAllStringSubmatch(script, -1) {
		switch strings.ToLower(m[1]) {
		case "get", "ttl", "pttl", "exists", "type":
			continue // reads
		case "del", "unlink":
			release = true
		case "expire", "pexpire":
		default:
			return 0, false, false
		}
		km := luaKeyRe.FindStringSubmatch(strings.TrimSpace(m[2]))
		if km == nil {
			return 0, false, false
		}
		n, err := strconv.Atoi(km[1])
		if err != nil || n < 1 || (key >= 0 && key != n-1) {
			return 0, false, false
		}
		key = n - 1
	}
	return key, release, key >= 0
}

// scriptBookkeepingKey reads a go-redis script call (Script.Run, Eval,
// ...) as a lock's release or renew and returns the lock key's value.
func (e *engine) scriptBookkeepingKey(cc *ssa.CallCommon) (key ssa.Value, release, ok bool) {
	fn := calleeFunc(cc)
	if fn == nil {
		return nil, false, false
	}
	w, ok := e.writeOf(fn)
	if !ok || w.Kind != rules.RedisScript {
		return nil, false, false
	}
	script, ok := e.scriptText(cc, w)
	if !ok {
		return nil, false, false
	}
	idx, release, ok := luaBookkeepingKey(script)
	if !ok {
		return nil, false, false
	}
	key = scriptKeyArg(cc, w, idx)
	return key, release, key != nil
}
