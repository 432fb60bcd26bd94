package silentreject

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// extract returns the Extract of result i of a tuple-valued call, or nil
// when that result is not used.
func extract(call ssa.Value, i int) ssa.Value {
	refs := call.Referrers()
	if refs == nil {
		return nil
	}
	for _, r := range *refs {
		if e, ok := r.(*ssa.Extract); ok && e.Index == i {
			if e.Referrers() != nil && len(*e.Referrers()) > 0 {
				return e
			}
		}
	}
	return nil
}

// flowUses returns the instructions using v, looking through value-
// preserving conversions, phis and locals (&v stored and loaded).
func flowUses(v ssa.Value, depth int) []ssa.Instruction {
	if depth > 6 {
		return nil
	}
	refs := v.Referrers()
	if refs == nil {
		return nil
	}
	var out []ssa.Instruction
	for _, r := range *refs {
		switch x := r.(type) {
		case *ssa.ChangeType:
			out = append(out, flowUses(x, depth+1)...)
		case *ssa.MakeInterface:
			out = append(out, flowUses(x, depth+1)...)
		case *ssa.ChangeInterface:
			out = append(out, flowUses(x, depth+1)...)
		case *ssa.Phi:
			out = append(out, flowUses(x, depth+1)...)
		case *ssa.DebugRef:
		case *ssa.Store:
			if a, ok := x.Addr.(*ssa.Alloc); ok && !a.Heap && x.Val == v {
				for _, ar := range *a.Referrers() {
					if l, ok := ar.(*ssa.UnOp); ok && l.Op == token.MUL {
						out = append(out, flowUses(l, depth+1)...)
					}
				}
				continue
			}
			if calls, ok := variadicCalls(x); ok {
				out = append(out, calls...) // f(..., v, ...): the call uses v
				continue
			}
			out = append(out, r)
		default:
			out = append(out, r)
		}
	}
	return out
}

// isSame reports whether a is b up to value-preserving conversions.
func isSame(a, b ssa.Value) bool {
	return a != nil && b != nil && strip(a) == strip(b)
}

func strip(v ssa.Value) ssa.Value {
	for range 8 {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		default:
			return v
		}
	}
	return v
}

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

func isCompare(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

func intConst(v ssa.Value) (int64, bool) {
	k, ok := strip(v).(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(k.Value)
}

// isLogCall: logging and printing only records a value, it does not act
// on it: log, log/slog, fmt.Print*, zap, logrus.
func isLogCall(cc *ssa.CallCommon) bool {
	fn := callee(cc)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch p := fn.Pkg().Path(); {
	case p == "log", p == "log/slog", p == "go.uber.org/zap", p == "github.com/sirupsen/logrus":
		return true
	case p == "fmt":
		return strings.HasPrefix(fn.Name(), "Print") || strings.HasPrefix(fn.Name(), "Fprint")
	}
	return false
}

// variadicCalls: a store of v into the backing array of a variadic
// argument (log.Printf("%d", n)) is a use by the calls taking the slice.
func variadicCalls(s *ssa.Store) ([]ssa.Instruction, bool) {
	ia, ok := s.Addr.(*ssa.IndexAddr)
	if !ok {
		return nil, false
	}
	a, ok := ia.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	var out []ssa.Instruction
	for _, r := range *a.Referrers() {
		switch x := r.(type) {
		case *ssa.IndexAddr:
		case *ssa.Slice:
			for _, sr := range *x.Referrers() {
				c, ok := sr.(*ssa.Call)
				if !ok {
					return nil, false
				}
				out = append(out, c)
			}
		default:
			return nil, false
		}
	}
	return out, len(out) > 0
}
