package fencepredicate

import (
	"go/constant"
	"go/types"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"golang.org/x/tools/go/ssa"
)

// The helpers below read the input struct of a DynamoDB call in SSA: the
// engine exposes no parsed condition for DynamoDB writes.

// constStr returns a constant string, looking through aws.String.
func constStr(v ssa.Value) (string, bool) {
	if v == nil {
		return "", false
	}
	v = fence.StripValue(v)
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
	m = fence.StripValue(m)
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
