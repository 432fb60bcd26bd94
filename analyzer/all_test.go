package analyzer_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzer"
	"github.com/fencelint/fencelint/analyzer/internal/lintutil"
	"golang.org/x/tools/go/analysis"
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
