package lintutil

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

func TestExprAt(t *testing.T) {
	const src = `package p

func f() {
	g("UPDATE t SET v = 1", h(2), (x))
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	base := fset.File(f.Pos()).Base()
	at := func(s string) (token.Pos, token.Pos) {
		i := strings.Index(src, s)
		return token.Pos(base + i), token.Pos(base + i + len(s))
	}
	files := []*ast.File{f}
	for _, c := range []struct {
		text string
		want string // node type, "" for none
	}{
		{`"UPDATE t SET v = 1"`, "*ast.BasicLit"},
		{`h(2)`, "*ast.CallExpr"},
		{`(x)`, "*ast.ParenExpr"},
		{`x`, "*ast.Ident"},
		{`g("UPDATE t SET v = 1", h(2), (x))`, "*ast.CallExpr"},
		{`"UPDATE t SET v = 1", h(2)`, ""},                   // spans two arguments: no single node
		{"{\n\tg(\"UPDATE t SET v = 1\", h(2), (x))\n}", ""}, // a block: not an expression
	} {
		pos, end := at(c.text)
		got := ""
		if e := ExprAt(files, pos, end); e != nil {
			got = typeName(e)
			if fset.Position(e.Pos()).Offset != fset.Position(pos).Offset || e.End() != end {
				t.Errorf("%s: node %s spans a different range", c.text, got)
			}
		}
		if got != c.want {
			t.Errorf("ExprAt(%q) = %s, want %s", c.text, got, c.want)
		}
	}
	if e := ExprAt(files, token.NoPos, token.NoPos); e != nil {
		t.Errorf("ExprAt(NoPos) = %T, want nil", e)
	}
	if e := ExprAt(files, token.Pos(base+len(src)+100), token.Pos(base+len(src)+101)); e != nil {
		t.Errorf("ExprAt(outside every file) = %T, want nil", e)
	}
}

func typeName(n ast.Node) string {
	switch n.(type) {
	case *ast.BasicLit:
		return "*ast.BasicLit"
	case *ast.CallExpr:
		return "*ast.CallExpr"
	case *ast.ParenExpr:
		return "*ast.ParenExpr"
	case *ast.Ident:
		return "*ast.Ident"
	}
	return "other"
}
