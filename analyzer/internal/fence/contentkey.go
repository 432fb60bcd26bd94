package fence

import (
	"go/token"
	"go/types"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// Content-addressed writes. A key-value write whose key carries a
// cryptographic digest of the very value it writes (terraform's consul
// state chunks at path/tfstate.<md5 of the state>/<i>) cannot overwrite
// anyone's data with something else: a stale holder writing that key
// writes the same bytes. It is not a protected write. A digest of
// something else (a hashed ID in a cache key) does not count.

// contentAddressed reports whether the key-value write cc of rule w names
// its key by a digest of the value it writes.
func (e *engine) contentAddressed(cc *ssa.CallCommon, w *rules.Write) bool {
	if w.Kind != rules.KVBlind {
		return false
	}
	ps := params(cc)
	var key ssa.Value
	var values []ssa.Value
	switch {
	case w.KeyArg >= 0 && w.KeyArg < len(ps):
		key = ps[w.KeyArg]
		for i, p := range ps {
			if i != w.KeyArg {
				values = append(values, p)
			}
		}
	case len(ps) > 0:
		// consul's KV.Put(&KVPair{Key: k, Value: v}, nil)
		fs, ok := fieldStores(ps[0])
		if !ok || fs["Key"] == nil || fs["Value"] == nil {
			return false
		}
		key, values = fs["Key"], []ssa.Value{fs["Value"]}
	default:
		return false
	}
	digested := map[ssa.Value]bool{}
	for _, in := range digestInputs(key, 0, map[ssa.Value]bool{}) {
		valueRoots(in, 0, digested, map[ssa.Value]bool{})
	}
	if len(digested) == 0 {
		return false
	}
	written := map[ssa.Value]bool{}
	for _, v := range values {
		valueRoots(v, 0, written, map[ssa.Value]bool{})
	}
	for r := range written {
		if digested[r] {
			return true
		}
	}
	return false
}

// digestInputs returns the arguments of the digest calls a key value is
// built from (through concatenation, formatting and conversions).
func digestInputs(v ssa.Value, depth int, seen map[ssa.Value]bool) []ssa.Value {
	v = stripValue(v)
	if depth > 12 || v == nil || seen[v] {
		return nil
	}
	seen[v] = true
	var out []ssa.Value
	switch x := v.(type) {
	case *ssa.Call:
		if fn := calleeFunc(x.Common()); fn != nil && rules.Digests[fn.FullName()] {
			return x.Common().Args
		}
		for _, a := range x.Common().Args {
			out = append(out, digestInputs(a, depth+1, seen)...)
		}
	case *ssa.BinOp:
		out = append(out, digestInputs(x.X, depth+1, seen)...)
		out = append(out, digestInputs(x.Y, depth+1, seen)...)
	case *ssa.Slice:
		out = append(out, digestInputs(x.X, depth+1, seen)...)
	case *ssa.UnOp:
		if x.Op == token.MUL {
			for _, s := range storesTo(x.X) {
				out = append(out, digestInputs(s, depth+1, seen)...)
			}
		}
	case *ssa.Alloc:
		// a variadic slice or a local array: what was stored in it
		for _, r := range *x.Referrers() {
			if ia, ok := r.(*ssa.IndexAddr); ok {
				for _, s := range storesTo(ia) {
					out = append(out, digestInputs(s, depth+1, seen)...)
				}
			}
			if st, ok := r.(*ssa.Store); ok && st.Addr == x {
				out = append(out, digestInputs(st.Val, depth+1, seen)...)
			}
		}
	case *ssa.Phi:
		for _, ed := range x.Edges {
			out = append(out, digestInputs(ed, depth+1, seen)...)
		}
	}
	return out
}

// valueRoots adds to roots the data parameters and free variables (not
// pointers, interfaces, structs, funcs, channels or maps) a value is
// computed from.
func valueRoots(v ssa.Value, depth int, roots, seen map[ssa.Value]bool) {
	v = stripValue(v)
	if depth > 16 || v == nil || seen[v] {
		return
	}
	seen[v] = true
	switch x := v.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		// Data, not a handle: a receiver, a client or a config reaches
		// every key and value alike and says nothing about content.
		switch v.Type().Underlying().(type) {
		case *types.Pointer, *types.Interface, *types.Struct, *types.Signature, *types.Chan, *types.Map:
		default:
			roots[v] = true
		}
	case *ssa.Call:
		for _, a := range x.Common().Args {
			valueRoots(a, depth+1, roots, seen)
		}
	case *ssa.Extract:
		valueRoots(x.Tuple, depth+1, roots, seen)
	case *ssa.BinOp:
		valueRoots(x.X, depth+1, roots, seen)
		valueRoots(x.Y, depth+1, roots, seen)
	case *ssa.Slice:
		valueRoots(x.X, depth+1, roots, seen)
	case *ssa.Index:
		valueRoots(x.X, depth+1, roots, seen)
	case *ssa.IndexAddr:
		valueRoots(x.X, depth+1, roots, seen)
	case *ssa.Lookup:
		valueRoots(x.X, depth+1, roots, seen)
	case *ssa.Next:
		valueRoots(x.Iter, depth+1, roots, seen)
	case *ssa.Range:
		valueRoots(x.X, depth+1, roots, seen)
	case *ssa.UnOp:
		valueRoots(x.X, depth+1, roots, seen)
		if x.Op == token.MUL {
			for _, s := range storesTo(x.X) {
				valueRoots(s, depth+1, roots, seen)
			}
		}
	case *ssa.Alloc:
		for _, s := range storesTo(x) {
			valueRoots(s, depth+1, roots, seen)
		}
	case *ssa.Phi:
		for _, ed := range x.Edges {
			valueRoots(ed, depth+1, roots, seen)
		}
	}
}
