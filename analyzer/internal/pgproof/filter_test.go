package pgproof

import (
	"fmt"
	"slices"
	"testing"

	"github.com/fencelint/fencelint/analyzer"
	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"golang.org/x/tools/go/analysis"
)

// TestFunctionFilterChangesNothing runs every analyzer over every testdata
// package twice, with the engine's per-function SSA filter and with
// -fencelint_fence.allfuncs (SSA for every function), and requires the
// same diagnostics, the same engine verdicts and the same exported facts.
// It also requires that the filter skipped functions at all, so that the
// comparison proves something.
func TestFunctionFilterChangesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("loads all testdata twice")
	}
	run := func(all bool) (lines []string, skipped int) {
		t.Helper()
		flag := fence.Analyzer.Flags.Lookup("allfuncs")
		if err := flag.Value.Set(fmt.Sprint(all)); err != nil {
			t.Fatal(err)
		}
		defer flag.Value.Set("false")
		pkgs, err := LoadTestdata(testdataDir(t), "./...")
		if err != nil {
			t.Fatal(err)
		}
		as := append([]*analysis.Analyzer{fence.Analyzer}, analyzer.Analyzers()...)
		g, err := Analyze(as, pkgs, nil)
		if err != nil {
			t.Fatal(err)
		}
		for act := range g.All() {
			pkg := act.Package
			for _, d := range act.Diagnostics {
				lines = append(lines, fmt.Sprintf("%s: [%s] %s", pkg.Fset.Position(d.Pos), act.Analyzer.Name, d.Message))
			}
			if m, ok := act.Result.(*fence.Model); ok && act.Analyzer == fence.Analyzer {
				skipped += m.SkippedFuncs
				for _, w := range m.Writes {
					lines = append(lines, fmt.Sprintf("%s: verdict %s %s %q %s %q", pkg.Fset.Position(w.Pos), w.Store, w.Call, w.SQL, w.Verdict, w.Detail))
				}
				for _, in := range m.Internal {
					lines = append(lines, fmt.Sprintf("%s: internal %s", pkg.Fset.Position(in.Pos), in.Msg))
				}
				for _, f := range act.AllObjectFacts() {
					lines = append(lines, fmt.Sprintf("fact %s.%s: %v", f.Object.Pkg().Path(), f.Object.Name(), f.Fact))
				}
			}
		}
		slices.Sort(lines)
		return lines, skipped
	}
	filtered, skipped := run(false)
	all, none := run(true)
	if none != 0 {
		t.Fatalf("allfuncs still skipped %d functions", none)
	}
	if skipped < 12 { // 16 when written: unfencedwrite/filter has 8
		t.Fatalf("the filter skipped only %d functions over all testdata: the comparison proves little", skipped)
	}
	if len(filtered) < 500 {
		t.Fatalf("only %d lines: testdata did not load?", len(filtered))
	}
	if diff("diagnostics, verdicts and facts (filtered vs all functions)", t, filtered, all) {
		t.Logf("%d lines identical; the filter skipped %d function bodies", len(filtered), skipped)
	}
}

// TestFunctionFilterSelects pins which functions of a service package get
// SSA: those touching a lock, lease, token or storage API, and their
// callers; not the lock-free helpers, generic utilities and accessors.
func TestFunctionFilterSelects(t *testing.T) {
	pkgs, err := LoadTestdata(testdataDir(t), "unfencedwrite/filter")
	if err != nil {
		t.Fatal(err)
	}
	g, err := Analyze([]*analysis.Analyzer{fence.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	skipped := -1
	for act := range g.All() {
		if m, ok := act.Result.(*fence.Model); ok && act.Package.PkgPath == "unfencedwrite/filter" {
			skipped = m.SkippedFuncs
			got = append(got, m.SSAFuncs...)
		}
	}
	slices.Sort(got)
	want := []string{"Run", "RunArchive", "RunFenced", "archive", "fencedSave", "save", "saveAll", "withMutex"}
	if !slices.Equal(got, want) {
		t.Errorf("functions with SSA = %v, want %v", got, want)
	}
	// normalize, lockKey, Config.String, validate, retry, Service.Name,
	// mapSlice, keys
	if skipped != 8 {
		t.Errorf("skipped %d function bodies, want 8", skipped)
	}
}
