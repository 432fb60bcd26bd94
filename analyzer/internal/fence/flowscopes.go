package fence

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Scopes reached through Go's own flow (issue 13 item 4).

// evalClosureCall judges the call of a function value that is one of this
// package's anonymous functions (save := func() error { db.Exec(...) }
// defined before the lock, save() called inside it) like a helper call:
// by the closure's summary, with this call's arguments for its
// parameters. A closure created inside the scope is a scope of its own
// (propagateClosures) and is judged there, not here.
func (e *engine) evalClosureCall(cc *ssa.CallCommon, s *Scope) *eval {
	if s == nil || cc.IsInvoke() {
		return &eval{}
	}
	g := closureCallee(cc.Value)
	if g == nil || g.Pkg != e.pkg || e.bodyScope[g] != nil || !hasBody(g) {
		return &eval{}
	}
	name := e.callName(cc.Pos())
	return e.evalHelperFact(cc, e.summary(g), name, s)
}

// closureCallee returns the anonymous function a called value denotes:
// the closure itself, or the variable it was assigned to when every
// store into it is that one closure.
func closureCallee(v ssa.Value) *ssa.Function {
	switch x := stripValue(v).(type) {
	case *ssa.MakeClosure:
		if fn, ok := x.Fn.(*ssa.Function); ok && fn.Parent() != nil {
			return fn
		}
	case *ssa.Function:
		if x.Parent() != nil {
			return x
		}
	case *ssa.UnOp:
		// a captured or address-taken variable: *save
		if vals := storesTo(x.X); len(vals) == 1 {
			if _, ok := vals[0].(*ssa.UnOp); !ok {
				return closureCallee(vals[0])
			}
		}
	}
	return nil
}

// forwardCallbackParam makes f, which hands its own func parameter to a
// with-lock helper whose fact is ff (withDocLock(ctx, id, fn) calling
// withLock(ctx, "/docs/"+id, fn)), a with-lock helper in turn: the callback
// runs under the inner helper's lock with the same argument carrying the
// token. It reports whether the argument was such a parameter.
func (e *engine) forwardCallbackParam(f *ssa.Function, cb ssa.Value, ff *FuncFact) bool {
	p, ok := stripValue(cb).(*ssa.Parameter)
	if !ok || p.Parent() != f || f.Parent() != nil {
		return false
	}
	fn, ok := f.Object().(*types.Func)
	if !ok {
		return true
	}
	idx := paramIndex(f, p)
	if idx < 0 {
		return true
	}
	of := e.factFor(fn)
	if of.Callback >= 0 || of.Acquire || of.Release {
		return true
	}
	e.wrappers++
	of.Callback = idx
	of.LeaseArg = ff.LeaseArg
	of.NoToken = ff.NoToken
	if of.Lock == "" {
		of.Lock = ff.Lock
	}
	return true
}
