package standalone_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fencelint/fencelint/analyzer"
	"honnef.co/go/tools/lintcmd/cache"
)

// TestRelevanceChangesNothing runs the driver in-process (so that go test
// -race sees its workers, the shared per-unit analysis and the fact
// decoding) over packages of testdata/src: with the relevance test, and
// with every package loaded and analysed. Every package's outcome must be
// the same, and the fast run must have left packages unloaded. A second
// run on the same cache replays everything with the same outcome. With
// -short (the CI's race step) it lints one analyzer's testdata instead of
// three.
func TestRelevanceChangesNothing(t *testing.T) {
	patterns := []string{"./unfencedwrite/...", "./fencepredicate/...", "./silentreject/..."}
	minLines := 100
	if testing.Short() {
		patterns, minLines = []string{"./fencepredicate/..."}, 30
	}
	root, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GO111MODULE", "off")
	t.Setenv("GOPATH", root)
	t.Setenv("GOFLAGS", "")
	c, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts := analyzer.LintOptions{
		Dir:       filepath.Join(root, "src"),
		Patterns:  patterns,
		Tests:     true,
		GoVersion: "module",
		Checks:    []string{"inherit"},
		Analyzers: analyzer.Analyzers(),
	}
	outcome := func(full bool, c cache.Cache) ([]string, analyzer.LintStats) {
		t.Helper()
		o := opts
		o.Cache = c
		results, stats, err := analyzer.Lint(o, full)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		found := 0
		for _, r := range results {
			out = append(out, fmt.Sprintf("%s initial=%t failed=%t skipped=%t errors=%v", r.Package.ID, r.Initial, r.Failed, r.Skipped, r.Errors))
			diags, dirs, err := r.Load()
			if err != nil {
				t.Fatal(err)
			}
			found += len(diags)
			for _, d := range diags {
				out = append(out, fmt.Sprintf("%s: %s: %s: %s (%d fixes, %d related)", r.Package.ID, d.Position, d.Category, d.Message, len(d.SuggestedFixes), len(d.Related)))
			}
			for _, d := range dirs {
				out = append(out, fmt.Sprintf("%s: directive %s %v at %s", r.Package.ID, d.Command, d.Arguments, d.NodePosition))
			}
		}
		// Findings counts the diagnostics of what was analysed, not of
		// what was replayed from the cache.
		switch {
		case stats.Cached == 0 && (stats.Findings != found || found == 0):
			t.Errorf("full=%t: Stats.Findings = %d, want the %d diagnostics loaded (and some)", full, stats.Findings, found)
		case stats.Cached == stats.Packages && stats.Findings != 0:
			t.Errorf("full=%t, all replayed: Stats.Findings = %d, want 0", full, stats.Findings)
		}
		slices.Sort(out)
		return out, stats
	}
	want, fullStats := outcome(true, nil)
	got, fastStats := outcome(false, c)
	t.Logf("all loaded: %+v; fast: %+v", fullStats, fastStats)
	if fastStats.Irrelevant == 0 || fastStats.Analysed == 0 {
		t.Errorf("fast run %+v: want some packages analysed and some never loaded", fastStats)
	}
	if len(want) < minLines {
		t.Fatalf("only %d outcome lines: the comparison would be vacuous", len(want))
	}
	check := func(name string, got []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			for i := 0; i < max(len(got), len(want)); i++ {
				var g, w string
				if i < len(got) {
					g = got[i]
				}
				if i < len(want) {
					w = want[i]
				}
				if g != w {
					t.Fatalf("%s: line %d of %d/%d:\n got: %s\nwant: %s", name, i, len(got), len(want), g, w)
				}
			}
		}
	}
	check("fast", got)
	warm, warmStats := outcome(false, c)
	if warmStats.Cached != warmStats.Packages {
		t.Errorf("warm run %+v: want every package replayed", warmStats)
	}
	check("warm", warm)
}
