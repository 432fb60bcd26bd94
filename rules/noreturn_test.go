package rules

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// TestNoReturn resolves the standard library's entries against the real
// packages, through the objects a call site sees (t.Fatalf is promoted
// from testing.common), and checks that look-alikes are not matched.
func TestNoReturn(t *testing.T) {
	const src = `package p

import (
	"log"
	"os"
	"runtime"
	"testing"
)

func f(t *testing.T, b *testing.B, tb testing.TB, l *log.Logger) {
	os.Exit(1)
	runtime.Goexit()
	log.Fatalf("x")
	l.Fatal("x")
	t.Fatalf("x")
	t.FailNow()
	b.Fatal("x")
	tb.Skipf("x")
	tb.Logf("x")     // returns
	log.Printf("x")  // returns
	t.Errorf("x")    // returns
	l.Println("x")   // returns
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.Default()}
	if _, err := conf.Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Skipf("type-checking against the installed standard library: %v", err)
	}
	want := map[string]bool{
		"Exit": true, "Goexit": true, "Fatalf": true, "Fatal": true, "FailNow": true,
		"Skipf": true, "Printf": false, "Errorf": false, "Println": false, "Logf": false,
	}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		fn, ok := info.Uses[sel.Sel].(*types.Func)
		if !ok {
			return true
		}
		if w, ok := want[fn.Name()]; ok && IsNoReturn(fn) != w {
			t.Errorf("IsNoReturn(%s) = %v, want %v", fn.FullName(), !w, w)
		}
		return true
	})
}
