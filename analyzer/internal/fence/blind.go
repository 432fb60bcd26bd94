package fence

import (
	"go/build"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// fenceMap makes the engine record what the fence map needs beyond the
// findings: writes outside any scope and the calls it could not see into.
// Off by default: only the fence map reads them, and classifying every
// write outside a lock costs a condition read each.
var fenceMap bool

func init() {
	Analyzer.Flags.BoolVar(&fenceMap, "fencemap", false,
		"record writes outside lock scopes and the calls inside them fencelint could not judge (for fencelint -fencemap and -blindspots)")
}

// UnscopedWrite is a write outside any lock scope: where, to what.
type UnscopedWrite struct {
	Pos    token.Pos
	Store  string
	Target string
}

// ProtectedWrite is a SQL write in a lock scope that runs on the
// transaction or connection holding the scope's database lock (an
// advisory or named lock): protected by that session, so never a finding,
// but part of what the lock protects in the fence map.
type ProtectedWrite struct {
	Pos    token.Pos
	Call   string
	Store  string
	Target string
	Scope  *Scope
}

// noteProtected records a write protected by its lock's session.
func (e *engine) noteProtected(pos token.Pos, s *Scope, ev *eval) {
	if !fenceMap {
		return
	}
	e.model.Protected = append(e.model.Protected, ProtectedWrite{Pos: e.exprPos(pos), Call: e.callName(pos), Store: ev.store, Target: ev.target, Scope: s})
}

// The kinds of BlindCall.
const (
	BlindInterface  = "interface"       // no visible implementation, or they disagree
	BlindUnknownLib = "unknown-library" // no rules or facts; takes the token or a context, returns an error
	BlindDynamic    = "dynamic"         // a write whose SQL or condition is not a constant
	BlindFuncValue  = "func-value"      // a call of a func value the engine cannot resolve
	// BlindLockCall is a call, in or out of any scope, through an
	// interface some of whose implementations take a lock and others do
	// not: no scope opens there, and without it the fence map would say
	// nothing at all about that lock.
	BlindLockCall = "lock-call"
)

// BlindCall is a call inside a lock scope that the engine could not judge:
// it may write, and nothing tells fencelint whether it does or how.
type BlindCall struct {
	Pos    token.Pos // the call
	Call   string    // as written: "store.Save"
	Callee string    // "(example.com/app/store.Store).Save", "dynamic SQL", "func value f"
	Kind   string    // one of the Blind* kinds
	Why    string    // one clause: what fencelint could not see
	// Directive is the exact directive that would teach fencelint, to be
	// written on the declaration at DirectiveAt (a position in this
	// package) or named by DirectiveAtName (a declaration elsewhere).
	Directive       string
	DirectiveAt     token.Pos
	DirectiveAtName string
	Scope           *Scope
}

// noteUnscoped records a known write outside every lock scope.
func (e *engine) noteUnscoped(cc *ssa.CallCommon, pos token.Pos) {
	if !fenceMap {
		return
	}
	fn := calleeFunc(cc)
	if fn == nil {
		return
	}
	w, ok := e.writeOf(fn)
	if !ok {
		return
	}
	ev := e.evalRule(cc, w)
	if !ev.isWrite {
		return
	}
	target := ev.target
	if target == "" {
		target = e.keyPattern(cc)
	}
	e.model.Unscoped = append(e.model.Unscoped, UnscopedWrite{Pos: e.exprPos(pos), Store: w.Store, Target: target})
}

// noteBlind records a call in scope s that is not a write the engine knows
// and that might be one: the fence map's blind spots.
func (e *engine) noteBlind(instr ssa.Instruction, cc *ssa.CallCommon, pos token.Pos, s *Scope, ev *eval) {
	if !fenceMap {
		return
	}
	at := e.exprPos(pos)
	name := e.callName(pos)
	if ev.isWrite {
		if ev.verdict == Unknown && ev.store == "SQL" && ev.sql == "" {
			e.model.Blind = append(e.model.Blind, BlindCall{Pos: at, Call: name, Callee: "dynamic SQL", Kind: BlindDynamic,
				Why: "its SQL is not a constant, so its condition cannot be read", Scope: s})
		}
		if ev.verdict == Unknown && ev.mongoRead != nil && ev.cond != nil && ev.cond.Partial {
			e.model.Blind = append(e.model.Blind, BlindCall{Pos: at, Call: name, Callee: "dynamic " + ev.store, Kind: BlindDynamic,
				Why: "its filter is not a document literal built in this function (or holds $expr, $where), so its condition cannot be read", Scope: s})
		}
		return
	}
	if cc.IsInvoke() {
		m := cc.Method
		if m == nil || m.Pkg() == nil || e.known(m) || !mayWrite(m.Type().(*types.Signature)) {
			return
		}
		if rules.IsLibraryPackage(m.Pkg().Path()) || isStd(m.Pkg().Path()) {
			return // a library interface: its behaviour is in rules/, or it is none
		}
		if f := e.calleeFact(m); f != nil {
			return // resolved through its implementations
		}
		bc := BlindCall{Pos: at, Call: name, Callee: m.FullName(), Kind: BlindInterface,
			Why:       "an interface method with no visible implementation, or implementations that disagree",
			Directive: "//fencelint:write" + tokenParamHint(m), Scope: s}
		e.placeDirective(&bc, m)
		e.model.Blind = append(e.model.Blind, bc)
		return
	}
	if fn := calleeFunc(cc); fn != nil {
		if w, ok := e.writeOf(fn); ok && (w.Kind == rules.SQLWrite || w.Kind == rules.RedisScript) && w.QueryArg >= 0 {
			if ps := params(cc); w.QueryArg < len(ps) {
				if _, isConst := e.sqlString(ps[w.QueryArg]); !isConst {
					e.model.Blind = append(e.model.Blind, BlindCall{Pos: at, Call: name, Callee: "dynamic " + w.Store, Kind: BlindDynamic,
						Why: "its statement is not a constant, so its condition cannot be read", Scope: s})
				}
			}
			return
		}
		if w, ok := e.writeOf(fn); ok && w.Kind == rules.CQLQuery {
			if _, read := e.cqlQueryOf(receiver(cc)); !read {
				e.model.Blind = append(e.model.Blind, BlindCall{Pos: at, Call: name, Callee: "dynamic " + w.Store, Kind: BlindDynamic,
					Why: "its query is not made here from a constant statement, so its condition cannot be read", Scope: s})
			}
			return
		}
	}
	fn := calleeFunc(cc)
	if fn == nil {
		if _, ok := cc.Value.(*ssa.Builtin); ok {
			return
		}
		sig, _ := cc.Signature(), 0
		if sig == nil || !mayWrite(sig) {
			return
		}
		e.model.Blind = append(e.model.Blind, BlindCall{Pos: at, Call: name, Callee: "func value " + exprName(cc.Value), Kind: BlindFuncValue,
			Why: "a call of a func value whose function fencelint cannot resolve", Scope: s})
		return
	}
	if fn.Pkg() == nil || fn.Pkg() == e.pass.Pkg || isStd(fn.Pkg().Path()) || rules.IsLibraryPackage(fn.Pkg().Path()) || e.known(fn) {
		return // our own functions answer through their summaries; std and known libraries through rules/
	}
	if f := e.calleeFact(fn); f != nil {
		return
	}
	sig := fn.Type().(*types.Signature)
	if !mayWrite(sig) || !e.takesTokenOrContext(cc) {
		return
	}
	bc := BlindCall{Pos: at, Call: name, Callee: fn.FullName(), Kind: BlindUnknownLib,
		Why:       "a function with no rules and no facts that takes the token or a context and returns an error",
		Directive: "//fencelint:write" + tokenParamHint(fn), Scope: s}
	e.placeDirective(&bc, fn)
	e.model.Blind = append(e.model.Blind, bc)
}

// noteUnresolvedAcquire records a call through an interface method that
// is not an acquire because its implementations disagree, when one of
// them takes a lock (a no-op locker beside the etcd one, a lock behind a
// library fencelint does not know): the fence map's lock-call blind spot,
// with the //fencelint:acquire that would declare it.
func (e *engine) noteUnresolvedAcquire(call *ssa.Call, m *types.Func) {
	if !fenceMap || !call.Common().IsInvoke() || e.noted[call.Pos()] {
		return
	}
	if !e.someImplementationAcquires(m) {
		return
	}
	if e.noted == nil {
		e.noted = map[token.Pos]bool{}
	}
	e.noted[call.Pos()] = true
	bc := BlindCall{Pos: e.exprPos(call.Pos()), Call: e.callName(call.Pos()), Callee: m.FullName(), Kind: BlindLockCall,
		Why:       "an interface method some of whose implementations take a lock and others do not, so no lock scope opens here",
		Directive: "//fencelint:acquire"}
	e.placeDirective(&bc, m)
	e.model.Blind = append(e.model.Blind, bc)
}

// someImplementationAcquires: some implementation interfaceFact asks about
// m (this package's types, and other packages' through their ImplsFacts)
// is an acquire.
func (e *engine) someImplementationAcquires(m *types.Func) bool {
	impls, ok := e.implementations(m)
	if !ok {
		return false
	}
	for _, cm := range impls {
		if !isInterfaceMethod(cm) {
			if f := e.calleeFact(cm); f != nil && f.Acquire {
				return true
			}
		}
	}
	if iface := ifaceOf(m); iface != nil {
		for _, im := range e.factImplsOf(m, iface, false) {
			if im.Fact != nil && im.Fact.Acquire {
				return true
			}
		}
	}
	return false
}

// known: rules/ knows fn in some role (then it is not blind).
func (e *engine) known(fn *types.Func) bool {
	if _, ok := e.writeOf(fn); ok {
		return true
	}
	if _, ok := rules.AcquireOf(fn); ok {
		return true
	}
	if _, ok := rules.TokenOfFunc(fn); ok {
		return true
	}
	return rules.IsRelease(fn) || rules.IsRenew(fn)
}

// placeDirective says where the directive goes: on fn's declaration when it
// is in this package, else on its declaration in the package that has it
// (named), or, for a library outside the module, on a wrapper.
func (e *engine) placeDirective(bc *BlindCall, fn *types.Func) {
	if fn.Pkg() == e.pass.Pkg {
		bc.DirectiveAt = fn.Pos()
		return
	}
	if mod := e.pass.Module; mod != nil && mod.Path != "" && !hasPrefixPath(fn.Pkg().Path(), mod.Path) {
		bc.DirectiveAtName = "a function of this module that wraps " + fn.FullName()
		return
	}
	bc.DirectiveAtName = fn.FullName()
}

func hasPrefixPath(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

// mayWrite: a call that returns an error (or a bool) may report a write's
// outcome; one returning nothing of the kind is no write worth a directive.
func mayWrite(sig *types.Signature) bool {
	res := sig.Results()
	for i := 0; i < res.Len(); i++ {
		if isError(res.At(i).Type()) {
			return true
		}
	}
	return false
}

// takesTokenOrContext: some argument carries the token, or is a context.
func (e *engine) takesTokenOrContext(cc *ssa.CallCommon) bool {
	for _, a := range cc.Args {
		if isContext(a.Type()) || e.originOf(a).isToken() {
			return true
		}
	}
	return false
}

func isContext(t types.Type) bool {
	_, isNamed := types.Unalias(t).(*types.Named)
	return isNamed && rules.HasTypeKey(t, rules.ContextType)
}

// tokenParamHint adds token=PARAM when fn has a parameter named like a
// token, so the suggested directive fences on the right argument.
func tokenParamHint(fn *types.Func) string {
	sig := fn.Type().(*types.Signature)
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		if rules.IsTokenParamName(p.Name()) {
			return " token=" + p.Name()
		}
	}
	return ""
}

// isStd: path is a standard library package. A path whose first element
// has a dot is not; otherwise the GOROOT source tree decides, since a
// GOPATH package may have no dot either (memoised: only blind-spot
// candidates ask).
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	if strings.Contains(first, ".") {
		return false
	}
	stdMu.Lock()
	defer stdMu.Unlock()
	if v, ok := stdCache[path]; ok {
		return v
	}
	fi, err := os.Stat(filepath.Join(build.Default.GOROOT, "src", filepath.FromSlash(path)))
	v := err == nil && fi.IsDir()
	stdCache[path] = v
	return v
}

var (
	stdMu    sync.Mutex
	stdCache = map[string]bool{}
)

func exprName(v ssa.Value) string {
	if v == nil {
		return "?"
	}
	if n := v.Name(); n != "" && !strings.HasPrefix(n, "t") {
		return n
	}
	return v.String()
}

// lockKey returns the key of the lock an acquire takes, where it is a
// constant or starts with one ("/locks/account/" + id gives
// "/locks/account/*"): the key argument of a key-value lock, or the first
// string argument of the call that made the lock object (NewMutex(s, key)).
func (e *engine) lockKey(call *ssa.Call, ai acquireInfo) string {
	cc := call.Common()
	if ai.keyArg >= 0 {
		if ps := params(cc); ai.keyArg < len(ps) {
			return constPrefix(ps[ai.keyArg], 0)
		}
		return ""
	}
	if ai.keyVal != nil {
		return constPrefix(ai.keyVal, 0)
	}
	if ai.libRule == nil || !ai.libRule.LockIsReceiver {
		return ""
	}
	recv := cc.Value
	if !cc.IsInvoke() && len(cc.Args) > 0 {
		recv = cc.Args[0]
	}
	if mk, ok := stripValue(recv).(*ssa.Call); ok {
		for _, a := range mk.Call.Args {
			if isStringType(a.Type()) {
				return constPrefix(a, 0)
			}
		}
	}
	return ""
}

// constPrefix renders a string value as a key pattern: the constant, or
// its constant prefix followed by "*"; "" when it starts with no constant.
func constPrefix(v ssa.Value, depth int) string {
	if depth > 4 {
		return ""
	}
	if s, ok := constString(v); ok {
		return s
	}
	switch v := v.(type) {
	case *ssa.BinOp:
		if v.Op == token.ADD {
			if p := constPrefix(v.X, depth+1); p != "" {
				return strings.TrimSuffix(p, "*") + "*"
			}
		}
	case *ssa.Call:
		if fn := calleeFunc(v.Common()); fn != nil && rules.Key(fn) == rules.Sprintf && len(v.Call.Args) > 0 {
			if f, ok := constString(v.Call.Args[0]); ok {
				if i := strings.Index(f, "%"); i >= 0 {
					if i == 0 {
						return ""
					}
					return f[:i] + "*"
				}
				return f
			}
		}
	}
	return ""
}

// keyPattern names what a write addresses when the engine's condition
// reader left its target empty: the key argument of a key-value write, a
// Redis script's first key, an S3 input's Bucket/Key, as a constant or a
// constant prefix ("jobs/*"). The fence map uses it; messages do not.
func (e *engine) keyPattern(cc *ssa.CallCommon) string {
	fn := calleeFunc(cc)
	if fn == nil {
		return ""
	}
	w, ok := e.writeOf(fn)
	if !ok {
		return ""
	}
	ps := params(cc)
	arg := func(i int) ssa.Value {
		if i >= 0 && i < len(ps) {
			return ps[i]
		}
		return nil
	}
	switch w.Kind {
	case rules.KVBlind, rules.ZKVersioned:
		if v := arg(w.KeyArg); v != nil {
			return constPrefix(v, 0)
		}
	case rules.RedigoDo, rules.RedigoScript:
		if keys, ok := e.redigoKeys(cc); ok && len(keys) > 0 && keys[0] != nil {
			return constPrefix(keys[0], 0)
		}
	case rules.RedisScript:
		// Eval(ctx, script, keys, args...) and Script.Run(ctx, c, keys, args...):
		// the keys slice is the argument before ArgsFrom.
		if v := arg(w.ArgsFrom - 1); v != nil {
			if elems, ok := sliceElems(v); ok && len(elems) > 0 {
				return constPrefix(elems[0], 0)
			}
		}
	case rules.S3Write:
		if v := arg(w.InputArg); v != nil {
			fields, ok := fieldStores(v)
			if !ok {
				return ""
			}
			bucket, key := "", ""
			if b := fields["Bucket"]; b != nil {
				bucket = constPrefix(derefString(b), 0)
			}
			if k := fields["Key"]; k != nil {
				key = constPrefix(derefString(k), 0)
			}
			if bucket == "" && key == "" {
				return ""
			}
			if bucket == "" {
				bucket = "*"
			}
			if key == "" {
				key = "*"
			}
			return bucket + "/" + key
		}
	}
	return ""
}

// derefString follows aws.String(x) and &x to the string stored.
func derefString(v ssa.Value) ssa.Value {
	v = stripValue(v)
	if c, ok := v.(*ssa.Call); ok && len(c.Call.Args) == 1 {
		if fn := calleeFunc(c.Common()); fn != nil && fn.Name() == "String" {
			return c.Call.Args[0]
		}
	}
	return v
}
