package fence

import (
	"strings"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// redigo (github.com/gomodule/redigo) sends every command through one
// method, Conn.Do(name, args...); go-redis's Do(ctx, name, args...) does
// the same for any command. The command name is read as a constant; a
// name that is not one is not guessed at.

// redigoCommand reads a redigo call's command name (upper case) and its
// arguments; ok is false when the name is not a constant or the
// arguments were built where they cannot be read.
func redigoCommand(cc *ssa.CallCommon, w *rules.Write) (cmd string, args []ssa.Value, ok bool) {
	ps := params(cc)
	if w.QueryArg < 0 || w.QueryArg >= len(ps) || w.ArgsFrom >= len(ps) {
		return "", nil, false
	}
	if w.QueryArg == w.ArgsFrom {
		// go-redis Do(ctx, "SET", key, ...): the name leads the variadic.
		all, ok := unpackVariadic(ps[w.ArgsFrom])
		if !ok || len(all) == 0 || all[0] == nil {
			return "", nil, false
		}
		name, ok := constString(all[0])
		return strings.ToUpper(name), all[1:], ok
	}
	name, ok := constString(ps[w.QueryArg])
	if !ok {
		return "", nil, false
	}
	args, ok = unpackVariadic(ps[w.ArgsFrom])
	return strings.ToUpper(name), args, ok
}

// redigoRule returns the rule of a command sent by name (redigo, or
// go-redis's Do), if the call is one.
func redigoRule(cc *ssa.CallCommon) (*rules.Write, bool) {
	fn := calleeFunc(cc)
	if !rules.IsRedigo(fn) && !(fn != nil && fn.Name() == "Do" && rules.IsRedisCommand(fn)) {
		return nil, false
	}
	w, ok := rules.WriteOf(fn)
	if !ok || (w.Kind != rules.RedigoDo && w.Kind != rules.RedigoScript) {
		return nil, false
	}
	return w, true
}

// hasConstArg reports whether one of args is the constant word (any case).
func hasConstArg(args []ssa.Value, words ...string) bool {
	for _, a := range args {
		if a == nil {
			continue
		}
		if s, ok := constString(a); ok {
			for _, w := range words {
				if strings.EqualFold(s, w) {
					return true
				}
			}
		}
	}
	return false
}

// redigoSetNX: Do("SET", key, val, "NX", ...) or Do("SETNX", key, val)
// takes a Redis SET NX lock on key (when the key is a lock's, see
// isLockKeyVal). Send only queues the command: it is never an acquire.
func (e *engine) redigoSetNX(call *ssa.Call) (ssa.Value, bool) {
	cc := call.Common()
	w, ok := redigoRule(cc)
	if !ok || w.Kind != rules.RedigoDo || calleeFunc(cc).Name() == "Send" {
		return nil, false
	}
	cmd, args, ok := redigoCommand(cc, w)
	if !ok || len(args) < 2 || args[0] == nil {
		return nil, false
	}
	switch {
	case cmd == "SETNX":
	case cmd == "SET" && hasConstArg(args[2:], "NX"):
	default:
		return nil, false
	}
	return args[0], true
}

// redigoKeys returns the keys a redigo call addresses: every argument of
// DEL and UNLINK, the first of other commands, the KEYS of a script.
func (e *engine) redigoKeys(cc *ssa.CallCommon) ([]ssa.Value, bool) {
	w, ok := redigoRule(cc)
	if !ok {
		return nil, false
	}
	if w.Kind == rules.RedigoScript {
		n, _, ok := e.redigoScriptSource(receiver(cc), 0)
		if !ok {
			return nil, false
		}
		ps := params(cc)
		if w.ArgsFrom >= len(ps) {
			return nil, false
		}
		ka, ok := unpackVariadic(ps[w.ArgsFrom])
		if !ok || n > len(ka) {
			return nil, false
		}
		return ka[:n], true
	}
	cmd, args, ok := redigoCommand(cc, w)
	if !ok || len(args) == 0 {
		return nil, false
	}
	switch cmd {
	case "DEL", "UNLINK":
		return args, true
	case "EVAL", "EVALSHA":
		if len(args) < 2 {
			return nil, false
		}
		n, ok := constInt(args[1])
		if !ok || n < 0 || int(n) > len(args)-2 {
			return nil, false
		}
		return args[2 : 2+n], true
	}
	return args[:1], true
}

// isRedigoRelease: DEL or UNLINK through redigo.
func isRedigoRelease(cc *ssa.CallCommon) bool {
	w, ok := redigoRule(cc)
	if !ok || w.Kind != rules.RedigoDo {
		return false
	}
	cmd, _, ok := redigoCommand(cc, w)
	return ok && rules.RedigoReleaseCommands[cmd]
}

// evalRedigoDo judges one redigo command: a blind write, a script run by
// EVAL or EVALSHA, or not a write (reads, SET NX, names not constant).
func (e *engine) evalRedigoDo(cc *ssa.CallCommon, w *rules.Write) *eval {
	cmd, args, ok := redigoCommand(cc, w)
	if !ok {
		return &eval{}
	}
	switch cmd {
	case "EVAL":
		if len(args) < 2 {
			return &eval{}
		}
		script, ok := constString(args[0])
		if !ok {
			return &eval{}
		}
		n, ok := constInt(args[1])
		if !ok || n < 0 || int(n) > len(args)-2 {
			return &eval{}
		}
		return e.judgeRedigoScript(script, args[2+n:])
	case "SETNX":
		return &eval{} // a lock (or a deduplication key): creates only
	case "SET":
		if hasConstArg(args[min(2, len(args)):], "NX") {
			return &eval{}
		}
	case "ZADD":
		if hasConstArg(args, "GT", "LT") {
			// ZADD GT/LT orders the new score against the stored one.
			return &eval{isWrite: true, verdict: Unknown, store: "Redis"}
		}
	}
	if !rules.RedigoWriteCommands[cmd] {
		return &eval{} // a read, or a command not modelled
	}
	ev := &eval{isWrite: true, verdict: Unfenced, blind: true, detail: "it is unconditional"}
	if len(args) > 0 && args[0] != nil {
		if s, ok := constString(args[0]); ok {
			ev.target = s
		}
	}
	return ev
}

// evalRedigoScript judges (*Script).Do(c, keysAndArgs...): the script
// comes from redis.NewScript(keyCount, src), ARGV follows the keyCount
// keys.
func (e *engine) evalRedigoScript(cc *ssa.CallCommon, w *rules.Write) *eval {
	n, script, ok := e.redigoScriptSource(receiver(cc), 0)
	if !ok {
		return &eval{}
	}
	ps := params(cc)
	var argv []ssa.Value
	if w.ArgsFrom < len(ps) {
		if ka, ok := unpackVariadic(ps[w.ArgsFrom]); ok && n <= len(ka) {
			argv = ka[n:]
		}
	}
	return e.judgeRedigoScript(script, argv)
}

func (e *engine) judgeRedigoScript(script string, argv []ssa.Value) *eval {
	if !luaWrites.MatchString(script) {
		return &eval{} // a read-only script
	}
	ev := &eval{isWrite: true, store: "Redis"}
	return e.judgeScript(ev, script, comparedArgv(script), argv)
}

// redigoScriptSource follows a *redis.Script to
// redis.NewScript(keyCount, "..."), directly or through a package
// variable set in init. A key count of -1 (keys passed with the
// arguments) is not read.
func (e *engine) redigoScriptSource(v ssa.Value, depth int) (int, string, bool) {
	if v == nil || depth > 4 {
		return 0, "", false
	}
	switch x := stripValue(v).(type) {
	case *ssa.Call:
		fn := calleeFunc(x.Common())
		if !rules.IsRedigo(fn) || fn.Name() != "NewScript" || len(x.Common().Args) != 2 {
			return 0, "", false
		}
		n, ok := constInt(x.Common().Args[0])
		if !ok || n < 0 {
			return 0, "", false
		}
		src, ok := constString(x.Common().Args[1])
		return int(n), src, ok
	case *ssa.UnOp:
		g, ok := x.X.(*ssa.Global)
		if !ok || g.Pkg != e.pkg {
			return 0, "", false
		}
		init := e.pkg.Func("init")
		if init == nil {
			return 0, "", false
		}
		for _, b := range init.Blocks {
			for _, instr := range b.Instrs {
				if s, ok := instr.(*ssa.Store); ok && s.Addr == g {
					return e.redigoScriptSource(s.Val, depth+1)
				}
			}
		}
	}
	return 0, "", false
}
