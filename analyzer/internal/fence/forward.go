package fence

import (
	"fmt"
	"go/types"
	"sort"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// Write helpers whose SQL, script or arguments are parameters (issue 13
// item 3): exec(ctx, q string, args ...any) { db.ExecContext(ctx, q,
// args...) }. Inside the helper the statement cannot be read, so its own
// body is never judged; instead the helper records which of its
// parameters feed the statement (a Forward, exported with its FuncFact),
// and every call site is judged as if it ran the statement itself, with
// its own constants and arguments: the token spread through args... is
// the caller's. A helper that calls such a helper with its own parameters
// forwards in turn (two levels, or across packages through facts).
// PostgreSQL advisory locks taken or released through such a helper are
// acquires and releases at the call site.

// Forward is a write inside a function whose statement, script or
// arguments come from the function's parameters.
type Forward struct {
	// Kind is "sql" or "script"; Store and Func name the sink for
	// messages and shapes ("SQL", "ExecContext").
	Kind  string
	Store string
	Func  string
	// Query is the parameter holding the SQL text or the Lua source, or
	// with Script the *redis.Script; -1 when the text is the constant Text.
	Query  int
	Script bool
	Text   string
	// Args are the statement's arguments (a script's ARGV) one by one:
	// a parameter index, or -1 for a constant of the function. Spread >= 0
	// instead: they are parameter Spread's slice, forwarded whole (args...).
	Args   []int
	Spread int
	// Session is the parameter the statement runs on (a transaction or
	// connection), Keys the parameter holding a script's KEYS; -1 if none.
	Session int
	Keys    int
}

func (fw Forward) String() string {
	q := "const"
	if fw.Query >= 0 {
		q = fmt.Sprint(fw.Query)
	}
	return fmt.Sprintf("forward(%s,query=%s,args=%v,spread=%d)", fw.Kind, q, fw.Args, fw.Spread)
}

// forwardsOf returns the forwarded writes of f (memoised; a call cycle
// sees none).
func (e *engine) forwardsOf(f *ssa.Function) []Forward {
	if fw, ok := e.forwards[f]; ok {
		return fw
	}
	if e.forwards == nil {
		e.forwards = map[*ssa.Function][]Forward{}
	}
	e.forwards[f] = nil
	if tooBig(f) {
		return nil
	}
	var out []Forward
	e.forEachCall(f, func(_ ssa.Instruction, cc *ssa.CallCommon) {
		out = append(out, e.forwardsAt(f, cc)...)
	})
	e.forwards[f] = out
	return out
}

// calleeForwards returns the forwarded writes of the function cc calls:
// from its fact, or for a static call inside the package from its body.
func (e *engine) calleeForwards(cc *ssa.CallCommon) []Forward {
	fn := calleeFunc(cc)
	if fn == nil {
		return nil
	}
	if callee, ok := cc.Value.(*ssa.Function); ok && !cc.IsInvoke() && callee.Pkg == e.pkg && hasBody(callee) {
		return e.forwardsOf(callee)
	}
	if fn.Pkg() != nil && fn.Pkg() != e.pass.Pkg {
		if ff := e.calleeFact(fn); ff != nil {
			return ff.Forwards
		}
	}
	return nil
}

// paramIdx returns the index (receiver excluded) of the parameter of f
// that v is, -1 if none.
func paramIdx(f *ssa.Function, v ssa.Value) int {
	if v == nil {
		return -1
	}
	p, ok := stripValue(v).(*ssa.Parameter)
	if !ok || p.Parent() != f {
		return -1
	}
	return paramIndex(f, p)
}

// forwardsAt returns the forwarded writes of one call in f: a SQL or
// script call whose text or argument slice is a parameter of f, or a call
// of a function with forwarded writes whose text and arguments come from
// f's parameters and constants.
func (e *engine) forwardsAt(f *ssa.Function, cc *ssa.CallCommon) []Forward {
	fn := calleeFunc(cc)
	if fn == nil {
		return nil
	}
	ps := params(cc)
	// arg maps a value f passes on: a parameter, or -1 for a constant;
	// ok is false for anything else (it might carry a token).
	arg := func(v ssa.Value) (int, bool) {
		if i := paramIdx(f, v); i >= 0 {
			return i, true
		}
		if v == nil {
			return -1, true
		}
		if _, ok := stripValue(v).(*ssa.Const); ok {
			return -1, true
		}
		return -1, false
	}
	if w, ok := e.writeOf(fn); ok {
		fw := Forward{Store: w.Store, Func: fn.Name(), Query: -1, Spread: -1, Session: -1, Keys: -1}
		switch w.Kind {
		case rules.SQLWrite:
			fw.Kind = "sql"
		case rules.RedisScript:
			fw.Kind = "script"
		default:
			return nil
		}
		switch {
		case w.QueryArg >= 0 && w.QueryArg < len(ps):
			if s, ok := e.sqlString(ps[w.QueryArg]); ok && fw.Kind == "sql" {
				fw.Text = s
			} else if s, ok := constString(ps[w.QueryArg]); ok {
				fw.Text = s
			} else if fw.Query = paramIdx(f, ps[w.QueryArg]); fw.Query < 0 {
				return nil
			}
		case w.QueryArg < 0 && fw.Kind == "script" && receiver(cc) != nil:
			if s, ok := e.scriptSource(receiver(cc)); ok {
				fw.Text = s
			} else if fw.Query = paramIdx(f, receiver(cc)); fw.Query < 0 {
				return nil
			}
			fw.Script = fw.Query >= 0
		default:
			return nil
		}
		if w.ArgsFrom < len(ps) {
			if fn.Type().(*types.Signature).Variadic() && w.ArgsFrom == len(ps)-1 {
				a := ps[w.ArgsFrom]
				if i := paramIdx(f, a); i >= 0 {
					fw.Spread = i
				} else if vals, ok := unpackVariadic(a); ok {
					for _, v := range vals {
						i, ok := arg(v)
						if !ok {
							return nil
						}
						fw.Args = append(fw.Args, i)
					}
				} else {
					return nil
				}
			} else {
				for _, v := range ps[w.ArgsFrom:] {
					i, ok := arg(v)
					if !ok {
						return nil
					}
					fw.Args = append(fw.Args, i)
				}
			}
		}
		if fw.Query < 0 && fw.Spread < 0 {
			return nil // constant text, arguments in place: judged where it is (FencedBy)
		}
		if fw.Kind == "sql" {
			fw.Session = paramIdx(f, receiver(cc))
		} else if k := w.ArgsFrom - 1; k >= 0 && k < len(ps) {
			fw.Keys = paramIdx(f, ps[k])
		}
		return []Forward{fw}
	}
	var out []Forward
	for _, cf := range e.calleeForwards(cc) {
		nf := Forward{Kind: cf.Kind, Store: cf.Store, Func: cf.Func, Text: cf.Text, Query: -1, Spread: -1, Session: -1, Keys: -1}
		if cf.Query >= 0 {
			if cf.Query >= len(ps) {
				continue
			}
			q := ps[cf.Query]
			if s, ok := e.forwardText(cf, q); ok {
				nf.Text = s
			} else if nf.Query = paramIdx(f, q); nf.Query >= 0 {
				nf.Script = cf.Script
			} else {
				continue
			}
		}
		ok := true
		for _, a := range cf.Args {
			i := -1
			if a >= 0 && a < len(ps) {
				i, ok = arg(ps[a])
			}
			if !ok {
				break
			}
			nf.Args = append(nf.Args, i)
		}
		if cf.Spread >= 0 && ok {
			if cf.Spread >= len(ps) {
				ok = false
			} else if i := paramIdx(f, ps[cf.Spread]); i >= 0 && len(nf.Args) == 0 {
				nf.Spread = i
			} else if vals, isLit := unpackVariadic(ps[cf.Spread]); isLit {
				for _, v := range vals {
					i, isArg := arg(v)
					if !isArg {
						ok = false
						break
					}
					nf.Args = append(nf.Args, i)
				}
			} else {
				ok = false
			}
		}
		if !ok || (nf.Query < 0 && nf.Spread < 0) {
			continue // judged where it is, or not readable here
		}
		if cf.Session >= 0 && cf.Session < len(ps) {
			nf.Session = paramIdx(f, ps[cf.Session])
		}
		if cf.Keys >= 0 && cf.Keys < len(ps) {
			nf.Keys = paramIdx(f, ps[cf.Keys])
		}
		out = append(out, nf)
	}
	return out
}

// forwardText reads the statement text a caller passes for fw's Query.
func (e *engine) forwardText(fw Forward, v ssa.Value) (string, bool) {
	if fw.Script {
		return e.scriptSource(v)
	}
	return e.sqlString(v)
}

// forwardEval judges one forwarded write at a call site cc in f: nil when
// the call does not supply a readable statement.
func (e *engine) forwardEval(cc *ssa.CallCommon, fw Forward) *eval {
	ps := params(cc)
	text := fw.Text
	if fw.Query >= 0 {
		if fw.Query >= len(ps) {
			return nil
		}
		s, ok := e.forwardText(fw, ps[fw.Query])
		if !ok {
			return nil
		}
		text = s
	}
	var args []ssa.Value
	argsOK := true
	for _, a := range fw.Args {
		if a >= 0 && a < len(ps) {
			args = append(args, ps[a])
		} else {
			args = append(args, nil)
		}
	}
	if fw.Spread >= 0 {
		if fw.Spread >= len(ps) {
			return nil
		}
		vals, ok := unpackVariadic(ps[fw.Spread])
		args, argsOK = append(args, vals...), ok
	}
	switch fw.Kind {
	case "sql":
		var unit ssa.Value
		if fw.Session >= 0 && fw.Session < len(ps) && rules.IsTxType(ps[fw.Session].Type()) {
			unit = ps[fw.Session]
		}
		return e.evalSQLText(text, args, argsOK, unit)
	case "script":
		return e.evalScriptText(text, args, func(compared map[int]bool) *RedisShape {
			sh := &RedisShape{Command: fw.Func, Script: text, Variadic: -1, KeysUnread: true, ScriptArgsUnread: !argsOK}
			if fw.Keys >= 0 && fw.Keys < len(ps) {
				sh.Keys, sh.KeysUnread = e.argsOf(stripValue(ps[fw.Keys]))
				sh.KeysUnread = !sh.KeysUnread
			}
			if argsOK {
				for _, a := range args {
					sh.ScriptArgs = append(sh.ScriptArgs, e.argOf(a))
				}
			}
			for n := range compared {
				sh.Compared = append(sh.Compared, n)
			}
			sort.Ints(sh.Compared)
			return sh
		})
	}
	return nil
}

// evalForwarded judges the forwarded writes of the helper cc calls: the
// first write that is not fenced, else the first write; nil when it has
// none this call can read.
func (e *engine) evalForwarded(cc *ssa.CallCommon, fn *types.Func) *eval {
	var first *eval
	for _, fw := range e.calleeForwards(cc) {
		ev := e.forwardEval(cc, fw)
		if ev == nil || !ev.isWrite {
			continue
		}
		ev.helper = fn.Name()
		ev.resources = addResources(nil, &eval{store: ev.store, target: ev.target})
		if first == nil || (first.verdict != Unfenced && first.verdict != RecordedOnly && (ev.verdict == Unfenced || ev.verdict == RecordedOnly)) {
			first = ev
		}
	}
	return first
}

// forwardedAdvisory reads a call of a helper that forwards SQL as
// PostgreSQL advisory-lock SQL, with the session it runs on.
func (e *engine) forwardedAdvisory(cc *ssa.CallCommon) (l rules.SQLLock, session ssa.Value) {
	ps := params(cc)
	for _, fw := range e.calleeForwards(cc) {
		if fw.Kind != "sql" {
			continue
		}
		text := fw.Text
		if fw.Query >= 0 {
			if fw.Query >= len(ps) {
				continue
			}
			s, ok := e.lockSQLString(ps[fw.Query])
			if !ok {
				continue
			}
			text = s
		}
		l := rules.AdvisoryLock(text)
		if !l.Acquire && !l.Release {
			continue
		}
		if fw.Session >= 0 && fw.Session < len(ps) && rules.IsSessionType(ps[fw.Session].Type()) {
			session = stripValue(ps[fw.Session])
		}
		return l, session
	}
	return rules.SQLLock{}, nil
}

// sessionOf is sqlSession, or for a helper that forwards its SQL the
// transaction or connection its caller hands it.
func (e *engine) sessionOf(cc *ssa.CallCommon) ssa.Value {
	if s := sqlSession(cc); s != nil {
		return s
	}
	ps := params(cc)
	for _, fw := range e.calleeForwards(cc) {
		if fw.Kind == "sql" && fw.Session >= 0 && fw.Session < len(ps) && rules.IsSessionType(ps[fw.Session].Type()) {
			return stripValue(ps[fw.Session])
		}
	}
	return nil
}
