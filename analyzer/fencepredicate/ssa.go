package fencepredicate

import (
	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// The helpers below read the input struct of a DynamoDB call in SSA: the
// engine exposes no parsed condition for DynamoDB writes.

// strip looks through conversions that do not change a value.
func strip(v ssa.Value) ssa.Value {
	for range 8 {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.Convert:
			v = x.X
		default:
			return v
		}
	}
	return v
}

// fieldValues returns, for &T{...} (or a load of it), the last value stored
// in each named field.
func fieldValues(v ssa.Value) (map[string]ssa.Value, bool) {
	v = strip(v)
	base := v
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		base = load.X
	}
	switch base.(type) {
	case *ssa.Alloc, *ssa.IndexAddr:
	default:
		return nil, false
	}
	ptr, ok := base.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil, false
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok || base.Referrers() == nil {
		return nil, false
	}
	out := map[string]ssa.Value{}
	for _, r := range *base.Referrers() {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.X != base {
			continue
		}
		for _, s := range fence.StoresTo(fa) {
			out[st.Field(fa.Field).Name()] = s
		}
	}
	return out, true
}

// constStr returns a constant string, looking through aws.String.
func constStr(v ssa.Value) (string, bool) {
	if v == nil {
		return "", false
	}
	v = strip(v)
	switch x := v.(type) {
	case *ssa.Const:
		if x.Value != nil && x.Value.Kind() == constant.String {
			return constant.StringVal(x.Value), true
		}
	case *ssa.Call:
		cc := x.Common()
		if fn, ok := cc.Value.(*ssa.Function); ok && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "github.com/aws/aws-sdk-go-v2/aws" && len(cc.Args) == 1 {
			return constStr(cc.Args[0])
		}
	case *ssa.Alloc:
		if ss := fence.StoresTo(x); len(ss) == 1 {
			return constStr(ss[0])
		}
	}
	return "", false
}

// mapLiteral returns the constant-keyed entries of a map literal.
func mapLiteral(m ssa.Value) (map[string]ssa.Value, bool) {
	if m == nil {
		return nil, false
	}
	m = strip(m)
	mm, ok := m.(*ssa.MakeMap)
	if !ok {
		return nil, false
	}
	out := map[string]ssa.Value{}
	for _, r := range *mm.Referrers() {
		if u, ok := r.(*ssa.MapUpdate); ok && u.Map == mm {
			if k, ok := constStr(u.Key); ok {
				out[k] = u.Value
			}
		}
	}
	return out, true
}

// callee returns the function a call resolves to statically.
func callee(cc *ssa.CallCommon) *types.Func {
	if cc.IsInvoke() {
		return cc.Method
	}
	if f, ok := cc.Value.(*ssa.Function); ok {
		if obj, ok := f.Object().(*types.Func); ok {
			return obj
		}
		if f.Origin() != nil {
			if obj, ok := f.Origin().Object().(*types.Func); ok {
				return obj
			}
		}
	}
	return nil
}
