package fence

import (
	"go/ast"
	"go/types"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// noReturns answers "can a call of fn return?" for the SSA builder, which
// ends a block after a call that cannot (see ssa.Program.SetNoReturn):
// without it, a retry loop whose rejection branch calls log.Fatalf still
// has its back edge, and silentreject would call it a retry.
//
// The answer is rules.NoReturn's list, this package's wrappers of those
// (inferred from syntax before SSA is built), and other packages'
// wrappers, which arrive as FuncFact.NoReturn.
type noReturns struct {
	pass     *analysis.Pass
	local    map[*types.Func]bool
	imported map[*types.Func]bool // memo: ImportObjectFact copies the fact at every call
}

func newNoReturns(pass *analysis.Pass) *noReturns {
	n := &noReturns{pass: pass, imported: map[*types.Func]bool{}}
	n.local = n.infer()
	return n
}

// is reports whether a call of fn never returns.
func (n *noReturns) is(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	fn = fn.Origin()
	if rules.IsNoReturn(fn) || n.local[fn] {
		return true
	}
	if fn.Pkg() == nil || fn.Pkg() == n.pass.Pkg {
		return false
	}
	if v, ok := n.imported[fn]; ok {
		return v
	}
	f := new(FuncFact)
	v := n.pass.ImportObjectFact(fn, f) && f.NoReturn
	n.imported[fn] = v
	return v
}

// infer finds this package's functions that never return: the last
// statement of the body is a call that cannot return (or a panic), and
// nothing lets control leave earlier. Any return does; so does a defer,
// whose recover could resume the caller after a panic. A loop or goto
// cannot skip the last statement: it reaches it or never ends. Calls to
// other wrappers of this package are resolved by iterating to a fixpoint.
//
// It reads only each body's last statement, and the whole body only for
// the few that end in such a call, so it is cheap enough to run on every
// package of a go vet run (wrappers in a package with nothing lock-related
// still reach the packages that have).
func (n *noReturns) infer() map[*types.Func]bool {
	type cand struct {
		fn   *types.Func
		last *ast.CallExpr
		body *ast.BlockStmt
	}
	var cands []cand
	info := n.pass.TypesInfo
	for _, file := range n.pass.Files {
		for _, d := range file.Decls {
			fd, call := lastCall(d)
			if call == nil {
				continue
			}
			fn, _ := info.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			cands = append(cands, cand{fn, call, fd.Body})
		}
	}
	var local map[*types.Func]bool
	n.local = local // read by is during the fixpoint below
	for changed := true; changed; {
		changed = false
		for i, c := range cands {
			if c.fn == nil || !n.endsPath(c.last) {
				continue
			}
			cands[i].fn = nil // decided
			if leavesEarly(c.body) {
				continue
			}
			if local == nil {
				local = map[*types.Func]bool{}
				n.local = local
			}
			local[c.fn] = true
			changed = true
		}
	}
	return local
}

// endsPath reports whether a call statement never returns: panic, a call
// of a function that cannot return, or of an interface method rules/
// lists (tb.Fatal through testing.TB).
func (n *noReturns) endsPath(call *ast.CallExpr) bool {
	switch obj := typeutil.Callee(n.pass.TypesInfo, call).(type) {
	case *types.Builtin:
		return obj.Name() == "panic"
	case *types.Func:
		return n.is(obj)
	}
	return false
}

// lastCall returns d and the call its body ends in, when d is a function
// declaration whose last statement is a call statement (nil otherwise):
// the only functions that can be no-return wrappers (infer, and
// mayDeclareNoReturn's syntactic twin).
func lastCall(d ast.Decl) (*ast.FuncDecl, *ast.CallExpr) {
	fd, ok := d.(*ast.FuncDecl)
	if !ok || fd.Body == nil || len(fd.Body.List) == 0 {
		return nil, nil
	}
	es, ok := fd.Body.List[len(fd.Body.List)-1].(*ast.ExprStmt)
	if !ok {
		return nil, nil
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	return fd, call
}

// leavesEarly reports whether a body has a return or a defer of its own
// (function literals inside run on their own).
func leavesEarly(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(nd ast.Node) bool {
		switch nd.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt, *ast.DeferStmt:
			found = true
		}
		return !found
	})
	return found
}

// export exports FuncFact{NoReturn} for this package's inferred
// wrappers that carry no other fact (exportFacts merges the bit into the
// others). A NoReturn fact alone does not make importers relevant: no
// PackageFact is exported for it.
func (n *noReturns) export(local map[*types.Func]*FuncFact) {
	for fn := range n.local {
		if _, ok := local[fn]; ok || fn.Pkg() != n.pass.Pkg || !exportable(fn) {
			continue
		}
		f := newFuncFact()
		f.NoReturn = true
		n.pass.ExportObjectFact(fn, f)
	}
}

// exportNoReturns is the whole run on a package the fast path skips:
// only its no-return wrappers are exported. Library packages are left
// alone, as everywhere: their behaviour comes from rules/.
func exportNoReturns(pass *analysis.Pass) {
	if rules.IsLibraryPackage(pass.Pkg.Path()) || isStd(pass.Pkg.Path()) {
		// The standard library's own never-returning calls are in
		// rules.NoReturn; inferring more there would cost a pass over std
		// in every go vet run, and the go vet driver skips std unparsed.
		return
	}
	newNoReturns(pass).export(nil)
}
