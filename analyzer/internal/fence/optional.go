package fence

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// tokenParamFacts records, in FuncFact.TokenParams, the parameters of this
// package's functions that carry a fencing token, for optionaltoken's
// cross-package call-site check. Only functions that write get them:
// token-named parameters of a token shape,
// parameters of a lease's named token type, and parameters that fence the
// function's writes (FencedBy). It then publishes the package's function
// facts (local, and imported ones of the functions called here) for the
// optional-token checks (publishedFact).
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
			if !e.writes(fn) {
				continue // a read's revision 0 means "latest", not "unfenced"
			}
			var tp []int
			if f := e.local[fn]; f != nil {
				for _, i := range f.FencedBy {
					if e.isScalarTokenParam(fn, i) {
						tp = appendUnique(tp, i)
					}
				}
			}
			params := fn.Type().(*types.Signature).Params()
			for i := 0; i < params.Len(); i++ {
				p := params.At(i)
				if (isTokenShape(p.Type(), tokenTypes) && (rules.IsTokenParamName(p.Name()) || tokenTypes[tokenElem(p.Type())])) || e.declaredTokenParam(fn, i) {
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

// writes reports whether fn writes shared storage, directly or through
// helpers. Summaries of functions that are scopes on their own token or
// lease parameter are not kept in e.local and count any SQL call as a
// write, so their calls are walked here, reading constant SQL.
func (e *engine) writes(fn *types.Func) bool {
	if f := e.local[fn]; f != nil && f.Write {
		return true
	}
	sf := e.prog.FuncValue(fn)
	if sf == nil {
		return false
	}
	if tooBig(sf) {
		return false
	}
	found := false
	e.forEachCall(sf, func(_ ssa.Instruction, cc *ssa.CallCommon) {
		if found {
			return
		}
		callee := calleeFunc(cc)
		if callee == nil {
			return
		}
		if w, ok := e.writeOf(callee); ok {
			// Have: db.QueryRowContext(ctx, "SELECT ..."): a read.
			ps := params(cc)
			if w.Kind == rules.SQLWrite && w.QueryArg >= 0 && w.QueryArg < len(ps) {
				if q, ok := e.sqlString(ps[w.QueryArg]); ok && !e.isWriteSQL(q) {
					return
				}
			}
			found = true
			return
		}
		if ff := e.calleeFact(callee); ff != nil && ff.Write {
			found = true
			return
		}
		if g, ok := cc.Value.(*ssa.Function); ok {
			if s := e.summaries[g]; s != nil && s.Write {
				found = true
			}
		}
	})
	return found
}

// isWriteSQL: some statement of q writes (or q cannot be read: assume so).
func (e *engine) isWriteSQL(q string) bool {
	stmts, err := e.sql.parse(q)
	if err != nil || len(stmts) == 0 {
		return true
	}
	for _, s := range stmts {
		if s.Verb.IsWrite() {
			return true
		}
	}
	return false
}

// isScalarTokenParam: a FencedBy parameter that a caller can pass a literal
// 0 or nil for (not a lease, lock object or struct).
func (e *engine) isScalarTokenParam(fn *types.Func, i int) bool {
	params := fn.Type().(*types.Signature).Params()
	if i < 0 || i >= params.Len() {
		return false
	}
	t := params.At(i).Type()
	if _, ok := e.leaseOf(t); ok || rules.IsLockType(t) {
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
			if info, ok := e.leaseOf(tn.Type()); ok && info.Token != nil {
				if n, ok := tokenElem(info.Token.Type()).(*types.Named); ok { // Token *Token too
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

func (e *engine) publish() {
	facts := make(map[*types.Func]*FuncFact, len(e.local))
	for fn, f := range e.local {
		facts[fn] = f
	}
	for _, call := range e.calls.nodes {
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
	e.published = facts
}

// publishedFact returns what the engine knows of fn for this package:
// local inference and directives for the package's own functions,
// imported facts for functions of other packages that it calls. Nil when
// nothing is known. It is what optionaltoken's checks used to read through
// the Model, before they moved into the engine.
func (e *engine) publishedFact(fn *types.Func) *FuncFact {
	if fn == nil {
		return nil
	}
	return e.published[fn.Origin()]
}
