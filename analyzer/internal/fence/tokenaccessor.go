package fence

import (
	"go/types"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// Token accessors. An application that hides its lock behind its own
// handle exposes the token through a method of that handle:
//
//	type lease struct{ m *concurrency.Mutex }
//	func (l *lease) Token() int64 { return l.m.Header().Revision }
//
// often behind an interface (iface.Lease) whose implementation lives in
// another package. A function whose integer result is, on every return,
// a token of a lock service (what originOf calls a token, and not a weak
// one) is such an accessor: its Token fact makes a call of it, directly
// or through the interface it implements (interfaceFact), a token origin,
// whatever the handle type is called.

// inferTokenAccessors finds this package's token fields and accessors.
// Both are looked for on lock handles only (handleTypes): a response
// struct whose Revision field is filled from an etcd header is no token
// holder to judge.
func (e *engine) inferTokenAccessors() {
	handles := e.handleTypes()
	if len(handles) == 0 {
		return
	}
	type fieldStores struct {
		o      *origin // the first token stored
		broken bool    // a store of something that is not a token
	}
	stores := map[*types.Var]*fieldStores{}
	for _, f := range e.funcs {
		if tooBig(f) {
			continue
		}
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok || !handles[namedOfType(fa.X.Type())] {
					continue
				}
				sv, ok := derefStruct(fa.X.Type())
				if !ok || fa.Field >= sv.NumFields() {
					continue
				}
				v := sv.Field(fa.Field)
				if !rules.IsIntegerLike(v.Type()) || e.tokenFields[v] {
					continue
				}
				fs := stores[v]
				if fs == nil {
					fs = &fieldStores{}
					stores[v] = fs
				}
				o := e.originOf(st.Val)
				switch {
				case !o.isToken():
					fs.broken = true
				case fs.o == nil:
					fs.o = o
				}
			}
		}
	}
	found := false
	for v, fs := range stores {
		if fs.broken || fs.o == nil || e.recvTokens[v] != nil {
			continue
		}
		if e.recvTokens == nil {
			e.recvTokens = map[*types.Var]*origin{}
		}
		e.recvTokens[v] = fs.o
		if !fs.o.weak {
			e.tokenFields[v] = true // exported: h.Revision in another package is a token
		}
		found = true
	}
	if found {
		e.memo = map[ssa.Value]*origin{} // reads of those fields traced before are tokens now
	}
	for _, f := range e.funcs {
		e.guard(f, func() { e.inferTokenAccessor(f, handles) })
	}
}

// handleTypes returns this package's named types that hold a lock: one
// with a method that releases (a Release fact), or returned by an acquire.
func (e *engine) handleTypes() map[*types.Named]bool {
	var out map[*types.Named]bool
	add := func(t types.Type) {
		if n := namedOfType(t); n != nil && n.Obj().Pkg() == e.pass.Pkg {
			if out == nil {
				out = map[*types.Named]bool{}
			}
			out[n] = true
		}
	}
	for fn, ff := range e.local {
		if ff == nil {
			continue
		}
		sig := fn.Type().(*types.Signature)
		if ff.Release && sig.Recv() != nil {
			add(sig.Recv().Type())
		}
		if ff.Acquire {
			for i := 0; i < sig.Results().Len(); i++ {
				add(sig.Results().At(i).Type())
			}
		}
	}
	return out
}

// inferTokenAccessor marks f, a method of a lock handle or one named like
// a token (Token, Fence, Revision), as a token accessor.
func (e *engine) inferTokenAccessor(f *ssa.Function, handles map[*types.Named]bool) {
	fn, ok := f.Object().(*types.Func)
	if !ok || f.Parent() != nil || f.Blocks == nil || f.Signature.Recv() == nil {
		return
	}
	if !handles[namedOfType(f.Signature.Recv().Type())] && !rules.IsTokenFieldName(fn.Name()) {
		return
	}
	res := f.Signature.Results()
	switch {
	case res.Len() == 1:
	case res.Len() == 2 && isError(res.At(1).Type()):
	default:
		return
	}
	if !rules.IsIntegerLike(res.At(0).Type()) {
		return
	}
	if ff := e.local[fn]; ff != nil && (ff.Token || ff.Acquire) {
		return // declared, or an acquire whose token result says more
	}
	o := e.tokenReturns(f, func(ret *ssa.Return) bool {
		return res.Len() == 2 && !isNilConst(ret.Results[1]) // an error return: its integer is not the token
	})
	if o != nil && !o.weak {
		e.factFor(fn).Token = true
	}
}
