package analyzer_test

import (
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzer"
	"github.com/fencelint/fencelint/analyzer/internal/lintutil"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

func TestAnalyzersValidate(t *testing.T) {
	if err := analysis.Validate(analyzer.Analyzers()); err != nil {
		t.Fatal(err)
	}
}

// TestContract checks the names, order, docs and URLs every driver shows.
func TestContract(t *testing.T) {
	if len(analyzer.All) != len(lintutil.Names) {
		t.Fatalf("%d analyzers, contract names %d", len(analyzer.All), len(lintutil.Names))
	}
	for i, a := range analyzer.All {
		name := a.Analyzer.Name
		if name != lintutil.Names[i] {
			t.Errorf("analyzer %d is %q, contract order wants %q", i, name, lintutil.Names[i])
		}
		if fi, err := os.Stat(name); err != nil || !fi.IsDir() {
			t.Errorf("analyzer %s: no package directory analyzer/%s", name, name)
		}
		title := a.Doc.Title
		if title == "" || len(title) > 60 || strings.HasSuffix(title, ".") || strings.ToLower(title[:1]) != title[:1] {
			t.Errorf("analyzer %s: title %q must be lowercase, at most 60 characters, no period", name, title)
		}
		if a.Doc.Text == "" || a.Doc.Before == "" || a.Doc.After == "" {
			t.Errorf("analyzer %s: documentation needs Text, Before and After", name)
		}
		if !strings.HasSuffix(a.Analyzer.URL, "docs/"+name+".md") {
			t.Errorf("analyzer %s: URL %q does not point at docs/%s.md", name, a.Analyzer.URL, name)
		}
		if _, err := os.Stat(filepath.Join("..", "docs", name+".md")); err != nil {
			t.Errorf("analyzer %s: docs/%s.md is missing", name, name)
		}
		if len(a.Analyzer.FactTypes) != 0 {
			t.Errorf("analyzer %s declares facts; only the engine may", name)
		}
	}
}

// TestDocsURLs: the pages and anchors diagnostics link to exist in docs/
// (an anchor is an explicit <a id="..."> in the page).
func TestDocsURLs(t *testing.T) {
	for _, url := range []string{lintutil.NoTokenURL, lintutil.IgnoreURL, lintutil.DirectivesURL} {
		rest, ok := strings.CutPrefix(url, lintutil.ReadmeURL)
		if !ok {
			t.Errorf("%s is not under %s", url, lintutil.ReadmeURL)
			continue
		}
		page, anchor, _ := strings.Cut(rest, "#")
		data, err := os.ReadFile(filepath.Join("..", "docs", page))
		if err != nil {
			t.Errorf("%s: %v", url, err)
			continue
		}
		if anchor != "" && !strings.Contains(string(data), `<a id="`+anchor+`"></a>`) {
			t.Errorf("%s: docs/%s has no <a id=%q></a>", url, page, anchor)
		}
	}
}

// TestNogoShape checks what Bazel's nogo needs of every analyzer package:
// an exported `var Analyzer *analysis.Analyzer` (its generated main lists
// pkg.Analyzer for each dependency), unique names, and configuration only
// through Analyzer.Flags.
func TestNogoShape(t *testing.T) {
	names := map[string]bool{}
	for _, a := range analyzer.All {
		path := "github.com/fencelint/fencelint/analyzer/" + a.Analyzer.Name
		pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedTypes | packages.NeedName}, path)
		if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
			t.Fatalf("loading %s: %v %v", path, err, pkgs)
		}
		obj, ok := pkgs[0].Types.Scope().Lookup("Analyzer").(*types.Var)
		if !ok {
			t.Errorf("%s: no package-level var Analyzer", path)
			continue
		}
		if got := obj.Type().String(); got != "*golang.org/x/tools/go/analysis.Analyzer" {
			t.Errorf("%s.Analyzer has type %s", path, got)
		}
		if names[a.Analyzer.Name] {
			t.Errorf("duplicate analyzer name %s", a.Analyzer.Name)
		}
		names[a.Analyzer.Name] = true
	}
}
