package fence

import (
	"go/ast"
	"go/types"
	"runtime"
	"slices"
	"sync"
	"weak"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/types/typeutil"
)

// tokenParamFacts records, in FuncFact.TokenParams, the parameters of this
// package's functions that carry a fencing token, for optionaltoken's
// cross-package call-site check: token-named parameters of a token shape,
// parameters of a lease's named token type, and parameters that fence the
// function's writes (FencedBy). It then publishes the package's function
// facts (local, and imported ones of the functions called here) for
// [FactOf]: rule analyzers declare no fact types, so they cannot import
// the engine's facts themselves.
func (e *engine) tokenParamFacts() {
	tokenTypes := e.leaseTokenTypes()
	for _, file := range e.pass.Files {
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			fn, _ := e.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			var tp []int
			if f := e.local[fn]; f != nil {
				for _, i := range f.FencedBy {
					if isScalarTokenParam(fn, i) {
						tp = appendUnique(tp, i)
					}
				}
			}
			params := fn.Type().(*types.Signature).Params()
			for i := 0; i < params.Len(); i++ {
				p := params.At(i)
				if isTokenShape(p.Type(), tokenTypes) && (rules.IsTokenParamName(p.Name()) || tokenTypes[tokenElem(p.Type())]) {
					tp = appendUnique(tp, i)
				}
			}
			if len(tp) > 0 {
				slices.Sort(tp)
				e.factFor(fn).TokenParams = tp
			}
		}
	}
	e.publish()
}

// isScalarTokenParam: a FencedBy parameter that a caller can pass a literal
// 0 or nil for (not a lease, lock object or struct).
func isScalarTokenParam(fn *types.Func, i int) bool {
	params := fn.Type().(*types.Signature).Params()
	if i < 0 || i >= params.Len() {
		return false
	}
	t := params.At(i).Type()
	if _, ok := rules.LeaseOf(t); ok || rules.IsLockType(t) {
		return false
	}
	return rules.IsIntegerLike(t)
}

// leaseTokenTypes are the named types of lease token fields declared in or
// visible from this package (type Token uint64; Lease{Token Token}).
func (e *engine) leaseTokenTypes() map[types.Type]bool {
	out := map[types.Type]bool{}
	add := func(pkg *types.Package) {
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			if info, ok := rules.LeaseOf(tn.Type()); ok && info.Token != nil {
				if n, ok := types.Unalias(info.Token.Type()).(*types.Named); ok {
					out[n] = true
				}
			}
		}
	}
	add(e.pass.Pkg)
	for _, imp := range e.pass.Pkg.Imports() {
		if !rules.IsLibraryPackage(imp.Path()) {
			add(imp)
		}
	}
	return out
}

// isTokenShape reports whether a caller can pass a literal 0 or nil for t
// as a fencing token: an integer (or a pointer to one), a lease token type,
// or any.
func isTokenShape(t types.Type, tokenTypes map[types.Type]bool) bool {
	if rules.IsIntegerLike(t) || tokenTypes[tokenElem(t)] {
		return true
	}
	u, ok := types.Unalias(t).(*types.Interface)
	return ok && u.Empty()
}

// tokenElem strips one pointer.
func tokenElem(t types.Type) types.Type {
	if u, ok := types.Unalias(t).(*types.Pointer); ok {
		return types.Unalias(u.Elem())
	}
	return types.Unalias(t)
}

// views maps a package's *Model to the facts of the functions it declares
// or calls. Entries go when the model is collected.
var views sync.Map // weak.Pointer[Model] -> map[*types.Func]*FuncFact

func (e *engine) publish() {
	facts := make(map[*types.Func]*FuncFact, len(e.local))
	for fn, f := range e.local {
		facts[fn] = f
	}
	for _, call := range e.calls {
		fn, _ := typeutil.Callee(e.pass.TypesInfo, call).(*types.Func)
		if fn == nil {
			continue
		}
		fn = fn.Origin()
		if _, ok := facts[fn]; ok {
			continue
		}
		if f := e.calleeFact(fn); f != nil {
			facts[fn] = f
		}
	}
	wp := weak.Make(e.model)
	views.Store(wp, facts)
	runtime.AddCleanup(e.model, func(wp weak.Pointer[Model]) { views.Delete(wp) }, wp)
}

// FactOf returns what the engine knows of fn for the package m was built
// for: local inference and directives for the package's own functions,
// imported facts for functions of other packages that it calls. Nil when
// nothing is known.
func FactOf(m *Model, fn *types.Func) *FuncFact {
	if m == nil || fn == nil {
		return nil
	}
	v, ok := views.Load(weak.Make(m))
	if !ok {
		return nil
	}
	return v.(map[*types.Func]*FuncFact)[fn.Origin()]
}
