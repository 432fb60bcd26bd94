package gclplugin

import (
	"flag"
	"go/token"
	"slices"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzer"
	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
)

// TestRegistered checks that init registered every analyzer of analyzer.All
// as its own plugin, under its name, serving exactly that analyzer.
func TestRegistered(t *testing.T) {
	if len(analyzer.All) == 0 {
		t.Fatal("analyzer.All is empty")
	}
	for _, a := range analyzer.All {
		name := a.Analyzer.Name
		newPlugin, err := register.GetPlugin(name)
		if err != nil {
			t.Errorf("GetPlugin(%q): %v", name, err)
			continue
		}
		p, err := newPlugin(nil) // no settings: key absent from .golangci.yml
		if err != nil {
			t.Errorf("%s: new plugin without settings: %v", name, err)
			continue
		}
		as, err := p.BuildAnalyzers()
		if err != nil || len(as) != 1 || as[0].Name != name || !slices.Equal(as[0].Requires, a.Analyzer.Requires) {
			t.Errorf("%s: BuildAnalyzers() = %v, %v; want [%s] with its Requires", name, as, err, name)
		}
		if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
			t.Errorf("%s: GetLoadMode() = %q, want %q", name, got, register.LoadModeTypesInfo)
		}
	}
	if _, err := register.GetPlugin("fencelint"); err == nil {
		t.Error(`a plugin named "fencelint" is registered; want one plugin per analyzer`)
	}
}

// TestSettings decodes settings in the shape golangci-lint passes them
// (YAML via viper: map[string]any, or nil when absent). The analyzers take
// no settings: every key, flags included, fails the run.
func TestSettings(t *testing.T) {
	a := testAnalyzer()
	tests := []struct {
		name    string
		conf    any
		wantErr string // substring; "" = no error
	}{
		{"absent", nil, ""},
		{"empty", map[string]any{}, ""},
		{"unknown key", map[string]any{"bogus": true}, `unknown field "bogus"`},
		{"flags", map[string]any{"flags": map[string]any{"limit": "7"}}, `unknown field "flags"`},
		{"not a map", "x", "decoding settings"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := newFor(a)(tt.conf)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.wantErr != "" && err == nil:
				t.Fatalf("no error, want one containing %q", tt.wantErr)
			case tt.wantErr != "" && !strings.Contains(err.Error(), tt.wantErr):
				t.Fatalf("error %q does not contain %q", err, tt.wantErr)
			case err != nil && !strings.HasPrefix(err.Error(), a.Name+": "):
				t.Fatalf("error %q does not name the analyzer", err)
			case err != nil && !strings.Contains(err.Error(), "//fencelint: directives"):
				t.Fatalf("error %q does not say where configuration goes", err)
			}
		})
	}
}

// TestNoAnalyzerFlags pins what the docs say: no fencelint analyzer
// defines a flag, so there is nothing for -ANALYZER.flag or a golangci
// flags: setting to set.
func TestNoAnalyzerFlags(t *testing.T) {
	for _, a := range analyzer.All {
		a.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
			t.Errorf("%s defines flag %q: document it in README.md, docs/golangci-lint.md and cmd/fencelint/doc.go, and give the plugin settings for it", a.Analyzer.Name, f.Name)
		})
	}
}

// TestWithoutRelated checks that the analyzer golangci-lint gets reports
// the same diagnostics minus their Related locations.
func TestWithoutRelated(t *testing.T) {
	a := &analysis.Analyzer{
		Name: "relates",
		Doc:  "reports one diagnostic with a related location",
		Run: func(pass *analysis.Pass) (any, error) {
			if pass.Analyzer.Name != "relates" {
				t.Errorf("pass.Analyzer.Name = %q", pass.Analyzer.Name)
			}
			pass.Report(analysis.Diagnostic{
				Pos: 10, Message: "the finding", Category: "cat",
				Related: []analysis.RelatedInformation{{Pos: 5, Message: "the lease"}},
			})
			return "result", nil
		},
	}
	var got []analysis.Diagnostic
	w := withoutRelated(a)
	res, err := w.Run(&analysis.Pass{Analyzer: w, Report: func(d analysis.Diagnostic) { got = append(got, d) }})
	if res != "result" || err != nil {
		t.Errorf("Run = %v, %v; want the inner result", res, err)
	}
	want := analysis.Diagnostic{Pos: token.Pos(10), Message: "the finding", Category: "cat"}
	if len(got) != 1 || got[0].Pos != want.Pos || got[0].Message != want.Message || got[0].Category != want.Category || got[0].Related != nil {
		t.Errorf("reported %+v, want [%+v]", got, want)
	}
	if w.Name != a.Name || a.Run == nil || w == a {
		t.Error("withoutRelated must return a copy with the same name and leave a intact")
	}
}

// testAnalyzer is a fresh analyzer with a flag, to show that settings
// cannot reach even a flag an analyzer defines.
func testAnalyzer() *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name: "testanalyzer",
		Doc:  "test analyzer",
		Run:  func(*analysis.Pass) (any, error) { return nil, nil },
	}
	a.Flags.Int("limit", 100, "a number")
	return a
}
