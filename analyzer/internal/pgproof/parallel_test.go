package pgproof

import (
	"testing"

	"github.com/fencelint/fencelint/analyzer"
)

// TestParallelReaders runs all six analyzers at once through the x/tools
// checker, which runs a package's analyzers concurrently, over testdata
// with defects of every kind. The analyzers only read the engine's Model;
// under go test -race any write to it after the engine's Run (a memo, a
// lazily filled field) is a reported race.
func TestParallelReaders(t *testing.T) {
	pkgs, err := LoadTestdata(testdataDir(t), "appcheck/...", "optionaltoken/...", "weaktoken/...", "fencepredicate/...", "silentreject/...")
	if err != nil {
		t.Fatal(err)
	}
	g, err := Analyze(analyzer.Analyzers(), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, act := range g.Roots {
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
		}
		n += len(act.Diagnostics)
	}
	if n < 50 {
		t.Fatalf("only %d diagnostics: testdata did not load?", n)
	}
}
