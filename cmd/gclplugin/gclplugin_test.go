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
// (YAML via viper: map[string]any, or nil when absent).
func TestSettings(t *testing.T) {
	a := testAnalyzer()
	tests := []struct {
		name    string
		conf    any
		wantErr string // substring; "" = no error
	}{
		{"absent", nil, ""},
		{"empty", map[string]any{}, ""},
		{"empty flags", map[string]any{"flags": map[string]any{}}, ""},
		{"flag", map[string]any{"flags": map[string]any{"limit": "7"}}, ""},
		{"unknown key", map[string]any{"bogus": true}, `unknown field "bogus"`},
		{"unknown key beside flags", map[string]any{"flags": map[string]any{}, "disable": []any{"x"}}, `unknown field "disable"`},
		{"unknown flag", map[string]any{"flags": map[string]any{"nosuch": "1"}}, `unknown flag "nosuch" (known: limit, mode)`},
		{"bad flag value", map[string]any{"flags": map[string]any{"limit": "many"}}, `flag "limit"`},
		{"unquoted number", map[string]any{"flags": map[string]any{"limit": 7}}, "cannot unmarshal number"},
		{"flags not a map", map[string]any{"flags": "limit=7"}, "cannot unmarshal string"},
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
			}
		})
	}
}

// TestFlagsApplied checks that flags reach Analyzer.Flags and that only the
// flags listed are touched.
func TestFlagsApplied(t *testing.T) {
	a := testAnalyzer()
	if _, err := newFor(a)(map[string]any{"flags": map[string]any{"limit": "7"}}); err != nil {
		t.Fatal(err)
	}
	if got := a.Flags.Lookup("limit").Value.String(); got != "7" {
		t.Errorf("limit = %s, want 7", got)
	}
	if got := a.Flags.Lookup("mode").Value.String(); got != "strict" {
		t.Errorf("mode = %s, want its default strict", got)
	}
}

// TestRealFlags sets every flag of every real analyzer to its current value
// through the plugin, so a flag that cannot round-trip is caught. Not
// parallel: the analyzers are global; values are restored.
func TestRealFlags(t *testing.T) {
	for _, a := range analyzer.All {
		flags := map[string]any{}
		a.Analyzer.Flags.VisitAll(func(f *flag.Flag) { flags[f.Name] = f.Value.String() })
		if len(flags) == 0 {
			continue
		}
		t.Cleanup(func() {
			for name, v := range flags {
				a.Analyzer.Flags.Set(name, v.(string))
			}
		})
		newPlugin, err := register.GetPlugin(a.Analyzer.Name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := newPlugin(map[string]any{"flags": flags}); err != nil {
			t.Errorf("%s: %v", a.Analyzer.Name, err)
		}
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

// testAnalyzer is a fresh analyzer with two flags, so flag handling is
// tested even while no real analyzer defines one.
func testAnalyzer() *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name: "testanalyzer",
		Doc:  "test analyzer",
		Run:  func(*analysis.Pass) (any, error) { return nil, nil },
	}
	a.Flags.Int("limit", 100, "a number")
	a.Flags.String("mode", "strict", "a string")
	return a
}
