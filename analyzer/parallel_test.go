package analyzer_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzer"
	"github.com/fencelint/fencelint/analyzer/internal/fencetest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// TestParallelDriver runs all six analyzers over every testdata case
// package through the x/tools checker, the driver analysistest,
// singlechecker and multichecker build on. It runs a package's analyzers
// concurrently, as go vet's unitchecker and golangci-lint do, so under
// `go test -race` this test fails on any state the analyzers share through
// the engine's Model. It also checks that two runs agree: a Model read
// concurrently must give every analyzer the same answer.
func TestParallelDriver(t *testing.T) {
	gopath := fencetest.TestData(t)
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax,
		Dir:   filepath.Join(gopath, "src"),
		Env:   append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOFLAGS=", "GOTOOLCHAIN=local"),
		Tests: false,
	}
	pkgs, err := packages.Load(cfg, casePatterns(t, gopath)...)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("testdata did not load")
	}
	first := runChecker(t, pkgs)
	if len(first) == 0 {
		t.Fatal("no diagnostics at all over testdata: the checker ran nothing")
	}
	for i := 0; i < 2; i++ {
		again := runChecker(t, pkgs)
		if strings.Join(again, "\n") != strings.Join(first, "\n") {
			t.Fatalf("run %d gave different diagnostics under the parallel driver:\n%s\nfirst run:\n%s",
				i+2, strings.Join(again, "\n"), strings.Join(first, "\n"))
		}
	}
}

func runChecker(t *testing.T, pkgs []*packages.Package) []string {
	t.Helper()
	graph, err := checker.Analyze(analyzer.Analyzers(), pkgs, &checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			t.Errorf("%s on %s: %v", act.Analyzer.Name, act.Package.PkgPath, act.Err)
			continue
		}
		for _, d := range act.Diagnostics {
			posn := act.Package.Fset.Position(d.Pos)
			rel, _ := filepath.Rel(filepath.Dir(filepath.Dir(posn.Filename)), posn.Filename)
			out = append(out, act.Analyzer.Name+" "+act.Package.PkgPath+" "+rel+":"+itoa(posn.Line)+":"+itoa(posn.Column)+" "+d.Message)
		}
	}
	sort.Strings(out)
	return out
}

// casePatterns lists the analyzer case trees of testdata/src (everything
// but the library stubs, whose paths contain a dot).
func casePatterns(t *testing.T, gopath string) []string {
	entries, err := os.ReadDir(filepath.Join(gopath, "src"))
	if err != nil {
		t.Fatal(err)
	}
	var pats []string
	for _, e := range entries {
		if e.IsDir() && !strings.Contains(e.Name(), ".") {
			pats = append(pats, e.Name()+"/...")
		}
	}
	return pats
}

func itoa(n int) string {
	const digits = "0123456789"
	if n < 10 {
		return digits[n : n+1]
	}
	return itoa(n/10) + digits[n%10:n%10+1]
}
