package fence

import (
	"go/token"
	"go/types"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// Releases that are not a direct call of a release (issue 18 item 6):
//
//   - through a closure: defer func() { l.Unlock() }(), or
//     release := func() { m.Unlock(ctx) }; ...; release();
//   - through the unlock func an acquire returned:
//     unlock, err := locks.Take(ctx, k); defer unlock();
//   - through another object's release: a wrapper that holds the lock
//     object (mgr := &Mgr{Client: c}; c.Lock(...); mgr.Unlock(id)), or a
//     release given the ID the acquire returned (id, _ := c.Lock(info);
//     other.Unlock(id)).
//
// Each ends the region at the call, so a function that takes a lock and
// releases it this way is not mistaken for an acquire wrapper, which
// would make every caller a lock scope.

// maxClosureDepth bounds how deep closures calling closures are followed.
const maxClosureDepth = 3

// valueMap maps a value of a closure body to the value it denotes in the
// function that calls the closure (free variables to their bindings).
type valueMap func(ssa.Value) ssa.Value

func asIs(v ssa.Value) ssa.Value { return v }

// releasesVia reports whether call cc (in a closure body when outer is not
// asIs) releases the lock of region r.
func (e *engine) releasesVia(r *region, cc *ssa.CallCommon, outer valueMap, depth int) bool {
	if fn, env := closureCalleeMapped(cc.Value, outer); fn != nil {
		return depth < maxClosureDepth && e.closureReleases(r, fn, env, depth+1)
	}
	if r.call != nil && !cc.IsInvoke() && isResultOf(outer(cc.Value), r.call) {
		return true // unlock, err := Take(ctx, k); unlock()
	}
	fn := calleeFunc(cc)
	if fn == nil {
		return false
	}
	// A create-if-absent lock's writer is no lock object: w.Close() commits
	// the lock object (GCS), it does not release it.
	if r.call != nil && !r.acq.advisory && !r.acq.ownLock && rules.IsReleaseName(fn.Name()) && e.wrapsLockOf(r, cc, outer) {
		return true
	}
	return e.isReleaseForCC(r, cc, outer)
}

// closureReleases reports whether the body of closure fn releases r's lock
// on some path, by a call or a deferred call.
func (e *engine) closureReleases(r *region, fn *ssa.Function, env valueMap, depth int) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var cc *ssa.CallCommon
			switch c := instr.(type) {
			case *ssa.Call:
				cc = c.Common()
			case *ssa.Defer:
				cc = c.Common()
			default:
				continue
			}
			if e.releasesVia(r, cc, env, depth) {
				return true
			}
		}
	}
	return false
}

// closureCalleeMapped returns the function literal a call's value denotes (a
// MakeClosure, an anonymous function without free variables, or a local
// variable holding one), and the map from its body's free variables to
// the caller's values.
func closureCalleeMapped(v ssa.Value, outer valueMap) (*ssa.Function, valueMap) {
	v = outer(v)
	for i := 0; i < 4; i++ {
		load, ok := v.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			break
		}
		a, ok := load.X.(*ssa.Alloc)
		if !ok {
			break
		}
		ss := storesTo(a)
		if len(ss) != 1 {
			return nil, nil
		}
		v = outer(ss[0])
	}
	switch x := v.(type) {
	case *ssa.MakeClosure:
		fn, ok := x.Fn.(*ssa.Function)
		if !ok || fn.Parent() == nil {
			return nil, nil
		}
		return fn, freeVarMap(fn, x.Bindings, outer)
	case *ssa.Function:
		if x.Parent() != nil {
			return x, outer
		}
	}
	return nil, nil
}

// freeVarMap maps fn's free variables (and loads of them) to the values
// bound by the MakeClosure, as the caller sees them: a captured local
// variable stored once stands for the value stored.
func freeVarMap(fn *ssa.Function, bindings []ssa.Value, outer valueMap) valueMap {
	binding := func(fv *ssa.FreeVar) ssa.Value {
		if fv.Parent() != fn {
			return nil
		}
		for i, x := range fn.FreeVars {
			if x == fv && i < len(bindings) {
				return outer(bindings[i])
			}
		}
		return nil
	}
	return func(v ssa.Value) ssa.Value {
		switch x := v.(type) {
		case *ssa.FreeVar:
			if b := binding(x); b != nil {
				return b
			}
		case *ssa.UnOp:
			if fv, ok := x.X.(*ssa.FreeVar); ok && x.Op == token.MUL {
				if b := binding(fv); b != nil {
					if a, ok := b.(*ssa.Alloc); ok {
						if ss := storesTo(a); len(ss) == 1 {
							return outer(ss[0])
						}
					}
				}
			}
		}
		return v
	}
}

// isResultOf: v is call's result, or an element of its result tuple.
func isResultOf(v ssa.Value, call *ssa.Call) bool {
	v = stripValue(v)
	if v == ssa.Value(call) {
		return true
	}
	x, ok := v.(*ssa.Extract)
	return ok && x.Tuple == ssa.Value(call)
}

// wrapsLockOf reports whether release-named call cc releases r's lock
// through another object: its receiver was built holding the acquire's
// receiver (a wrapper whose Unlock calls the lock's Unlock), or it is
// given the ID or handle the acquire returned.
func (e *engine) wrapsLockOf(r *region, cc *ssa.CallCommon, outer valueMap) bool {
	for _, a := range params(cc) {
		if isResultOf(outer(a), r.call) && !isError(a.Type()) {
			return true // id, _ := c.Lock(info); mgr.Unlock(id)
		}
	}
	rel := receiver(cc)
	lock := receiver(r.call.Common())
	if rel == nil || lock == nil {
		return false
	}
	return holds(outer(rel), stripValue(lock), 0)
}

// holds reports whether holder is an allocation or constructor call that
// was given obj: &Mgr{Client: c}, NewMgr(c).
func holds(holder, obj ssa.Value, depth int) bool {
	if depth > 3 {
		return false
	}
	holder = stripValue(holder)
	if load, ok := holder.(*ssa.UnOp); ok && load.Op == token.MUL {
		if a, ok := load.X.(*ssa.Alloc); ok {
			if ss := storesTo(a); len(ss) == 1 {
				return holds(ss[0], obj, depth+1)
			}
		}
	}
	switch h := holder.(type) {
	case *ssa.Alloc:
		for _, s := range allStores(h) {
			if stripValue(s) == obj {
				return true
			}
		}
	case *ssa.Call:
		if _, ok := h.Type().Underlying().(*types.Tuple); ok {
			return false
		}
		for _, a := range h.Common().Args {
			if stripValue(a) == obj {
				return true
			}
		}
	case *ssa.Extract:
		if c, ok := h.Tuple.(*ssa.Call); ok {
			for _, a := range c.Common().Args {
				if stripValue(a) == obj {
					return true
				}
			}
		}
	}
	return false
}

// deferredReleaseShape reports whether a deferred call releases a lock
// through a closure or an unlock func an acquire returned: then the
// function releases what it took and is no acquire wrapper.
func (e *engine) deferredReleaseShape(d *ssa.Defer) bool {
	if fn, env := closureCalleeMapped(d.Common().Value, asIs); fn != nil {
		return e.closureReleasesAny(fn, env, 1)
	}
	if call := callResult(stripValue(d.Common().Value)); call != nil && !d.Common().IsInvoke() {
		if _, ok := e.acquireOf(call); ok {
			return true // unlock, err := Take(ctx, k); defer unlock()
		}
	}
	return false
}

// closureReleasesAny: the closure body releases some lock.
func (e *engine) closureReleasesAny(fn *ssa.Function, env valueMap, depth int) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			cc, _ := callOf(instr)
			if cc == nil {
				continue
			}
			if inner, ienv := closureCalleeMapped(cc.Value, env); inner != nil {
				if depth < maxClosureDepth && e.closureReleasesAny(inner, ienv, depth+1) {
					return true
				}
				continue
			}
			if e.isReleaseCall(cc) {
				return true
			}
			if call := callResult(stripValue(env(cc.Value))); call != nil && !cc.IsInvoke() {
				if _, ok := e.acquireOf(call); ok {
					return true // defer func() { err = errors.Join(err, unlock()) }(), unlock from an acquire
				}
			}
			if callee := calleeFunc(cc); callee != nil && rules.IsReleaseName(callee.Name()) {
				return true
			}
		}
	}
	return false
}
