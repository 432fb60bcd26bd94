package standalone

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"honnef.co/go/tools/analysis/lint"
)

// TestWithLintComment: the files passed to lint.ParseDirectives are those
// with a //lint: comment, and the directives found are the same as from
// every file.
func TestWithLintComment(t *testing.T) {
	srcs := map[string]string{
		"a.go": "package p\n\n// A plain comment; lint: is not at the start.\nfunc A() {}\n",
		"b.go": "package p\n\nfunc B() {\n\t//lint:ignore unfencedwrite the row is ours\n\tB()\n}\n",
		"c.go": "//lint:file-ignore weaktoken generated tokens\n\npackage p\n",
		"d.go": "package p\n\n/* //lint:ignore in a block comment is no directive */\nfunc D() {}\n",
	}
	fset := token.NewFileSet()
	var all []*ast.File
	for _, name := range []string{"a.go", "b.go", "c.go", "d.go"} {
		f, err := parser.ParseFile(fset, name, srcs[name], parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, f)
	}
	kept := withLintComment(all)
	var names []string
	for _, f := range kept {
		names = append(names, fset.File(f.Pos()).Name())
	}
	if got, want := fmt.Sprint(names), "[b.go c.go]"; got != want {
		t.Errorf("files with a //lint: comment = %s, want %s", got, want)
	}
	if got, want := len(lint.ParseDirectives(kept, fset)), len(lint.ParseDirectives(all, fset)); got != want || got != 2 {
		t.Errorf("directives from the kept files: %d, from all files: %d, want 2 both", got, want)
	}
}
