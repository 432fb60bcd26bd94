package directive_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzer/internal/directive"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// known stands in for the contract list of analyzer names; only its first
// element reports unknown names and malformed directives.
var known = []string{"unfencedwrite", "silentreject"}

// callAnalyzer returns a test analyzer called name that reports every call
// to the function fn with msg, routing all findings through Ignores the way
// real fencelint analyzers must.
func callAnalyzer(name, fn, msg string) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name: name,
		Doc:  "test analyzer reporting calls to " + fn,
		Run: func(pass *analysis.Pass) (any, error) {
			ig := directive.CollectIgnores(pass)
			for _, f := range pass.Files {
				ast.Inspect(f, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					if id, ok := call.Fun.(*ast.Ident); ok && id.Name == fn {
						ig.Report(pass, analysis.Diagnostic{Pos: call.Pos(), End: call.End(), Message: msg})
					}
					return true
				})
			}
			ig.Finish(pass, known)
			return nil, nil
		},
	}
}

func TestIgnoresFirstAnalyzer(t *testing.T) {
	a := callAnalyzer("unfencedwrite", "write", "call to write is not fenced")
	results := analysistest.Run(t, analysistest.TestData(), a, "ignores/basic")
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if d.Message != "call to write is not fenced" && d.Category != directive.Category {
				t.Errorf("%v: %q has category %q, want %q", d.Pos, d.Message, d.Category, directive.Category)
			}
		}
	}
}

func TestIgnoresOtherAnalyzer(t *testing.T) {
	a := callAnalyzer("silentreject", "discard", "result of discard is dropped")
	analysistest.Run(t, analysistest.TestData(), a, "ignores/other")
}

// TestIgnoreSetViews: views of one parsed set keep their own used-marks,
// so analyzers sharing the engine's set do not see each other's matches.
func TestIgnoreSetViews(t *testing.T) {
	const src = `package p

func f() {
	//fencelint:ignore silentreject,appcheck a reason
	g()
}

func g() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	set := directive.ParseIgnores(fset, []*ast.File{f})
	var call token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			call = c.Pos()
		}
		return true
	})
	run := func(name string, report bool) []string {
		var got []string
		pass := &analysis.Pass{
			Analyzer: &analysis.Analyzer{Name: name},
			Fset:     fset,
			Report:   func(d analysis.Diagnostic) { got = append(got, d.Message) },
		}
		ig := set.For()
		if report {
			ig.Report(pass, analysis.Diagnostic{Pos: call, Message: "finding"})
		}
		ig.Finish(pass, []string{"unfencedwrite", "silentreject", "appcheck"})
		return got
	}
	if got := run("silentreject", true); len(got) != 0 {
		t.Errorf("silentreject: the ignore should suppress its finding and count as used; got %q", got)
	}
	if got := run("appcheck", false); len(got) != 1 || !strings.Contains(got[0], "matched no appcheck finding") {
		t.Errorf("appcheck: silentreject's use of the shared set leaked into appcheck's view; got %q", got)
	}
}
