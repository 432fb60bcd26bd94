package fence

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// SQL held in a package-level variable:
//
//	var updateDoc = `UPDATE docs SET body = $1 WHERE id = $2 AND fence < $3`
//
// is read like a constant when nothing can change the variable: it is
// unexported (an importer cannot assign it), declared in this package
// with a constant initializer, and no statement of the package assigns
// it, increments it or takes its address. That is decided from the
// syntax of every file, not from SSA: the engine builds SSA only for the
// functions that may matter (selectDecls), and a function left out could
// still assign the variable.

// globalSQL returns the text of v when it loads such a variable.
func (e *engine) globalSQL(v ssa.Value) (string, bool) {
	load, ok := stripValue(v).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return "", false
	}
	g, ok := load.X.(*ssa.Global)
	if !ok {
		return "", false
	}
	obj, ok := g.Object().(*types.Var)
	if !ok || obj.Pkg() != e.pass.Pkg {
		return "", false
	}
	if e.fixedStrings == nil {
		e.fixedStrings = fixedStringVars(e.pass.Files, e.pass.TypesInfo)
	}
	s, ok := e.fixedStrings[obj]
	return s, ok
}

// fixedStringVars finds the unexported package-level string variables of
// files whose constant initializer is their only value.
func fixedStringVars(files []*ast.File, info *types.Info) map[*types.Var]string {
	out := map[*types.Var]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if len(vs.Values) != len(vs.Names) {
					continue // var a, b = f() or no initializer
				}
				for i, name := range vs.Names {
					obj, ok := info.Defs[name].(*types.Var)
					if !ok || obj.Exported() {
						continue
					}
					tv, ok := info.Types[vs.Values[i]]
					if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
						continue
					}
					out[obj] = constant.StringVal(tv.Value)
				}
			}
		}
	}
	if len(out) == 0 {
		return out
	}
	// Drop every variable a statement can change.
	changed := func(x ast.Expr) {
		if id, ok := ast.Unparen(x).(*ast.Ident); ok {
			if obj, ok := info.Uses[id].(*types.Var); ok {
				delete(out, obj)
			}
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					changed(l)
				}
			case *ast.IncDecStmt:
				changed(n.X)
			case *ast.RangeStmt:
				if n.Tok == token.ASSIGN {
					changed(n.Key)
					changed(n.Value)
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					changed(n.X)
				}
			}
			return true
		})
	}
	return out
}
