package fence

import (
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzer/internal/fencetest"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/ssa"
)

// TestPanicContained makes the engine panic on one function and checks
// that the panic becomes one Internal record naming it while the rest of
// the package is still analysed.
func TestPanicContained(t *testing.T) {
	testHook = func(f *ssa.Function) {
		if f.Name() == "boom" {
			panic("injected")
		}
	}
	defer func() { testHook = nil }()
	results := analysistest.Run(t, fencetest.TestData(t), Analyzer, "fence/panicky")
	if len(results) != 1 {
		t.Fatalf("%d results", len(results))
	}
	m := results[0].Result.(*Model)
	var boom int
	for _, in := range m.Internal {
		if strings.Contains(in.Func, "boom") && strings.Contains(in.Msg, "injected") {
			boom++
		}
	}
	if boom == 0 {
		t.Fatalf("no internal record for boom: %+v", m.Internal)
	}
	var fine bool
	for _, w := range m.Writes {
		if w.Verdict == Unfenced && strings.Contains(w.SQL, "v = 2") {
			fine = true
		}
	}
	if !fine {
		t.Errorf("fine's unfenced write was not analysed after boom panicked; writes: %d", len(m.Writes))
	}
}
