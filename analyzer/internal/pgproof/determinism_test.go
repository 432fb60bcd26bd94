package pgproof

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/unfencedwrite"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
)

// runOnce loads testdata/src/unfencedwrite/... afresh and runs the engine
// and unfencedwrite over it, returning unfencedwrite's diagnostics and the
// engine's verdicts as lines, in package then position order.
func runOnce(t *testing.T, opts *checker.Options) (diags, verdicts []string) {
	t.Helper()
	pkgs, err := LoadTestdata(testdataDir(t), "unfencedwrite/...")
	if err != nil {
		t.Fatal(err)
	}
	g, err := Analyze([]*analysis.Analyzer{fence.Analyzer, unfencedwrite.Analyzer}, pkgs, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range pkgs {
		for _, a := range []*analysis.Analyzer{fence.Analyzer, unfencedwrite.Analyzer} {
			for _, act := range g.Roots {
				if act.Package != pkg || act.Analyzer != a {
					continue
				}
				if act.Err != nil {
					t.Fatalf("%s: %v", act, act.Err)
				}
				for _, d := range act.Diagnostics {
					line := fmt.Sprintf("%s: [%s/%s] %s", pkg.Fset.Position(d.Pos), a.Name, d.Category, d.Message)
					if d.End.IsValid() {
						line += fmt.Sprintf(" (end %s)", pkg.Fset.Position(d.End))
					}
					for _, r := range d.Related {
						line += fmt.Sprintf(" | related %s: %s", pkg.Fset.Position(r.Pos), r.Message)
					}
					diags = append(diags, line)
				}
				if m, ok := act.Result.(*fence.Model); ok {
					for _, w := range m.Writes {
						verdicts = append(verdicts, fmt.Sprintf("%s: %s %s %q target=%q verdict=%s detail=%q tokens=%v recorded=%v",
							pkg.Fset.Position(w.Pos), w.Store, w.Call, w.SQL, w.Target, w.Verdict, w.Detail, w.TokenOffsets, w.Recorded))
					}
					for _, in := range m.Internal {
						verdicts = append(verdicts, fmt.Sprintf("%s: internal %s: %s", pkg.Fset.Position(in.Pos), in.Func, in.Msg))
					}
				}
			}
		}
	}
	return diags, verdicts
}

// TestDeterministic runs the engine and unfencedwrite three times over the
// unfencedwrite testdata (in parallel twice, then sequentially), each from
// a fresh load, and requires identical diagnostics (positions and
// messages, in order) and identical engine verdicts (in model order).
//
// Each load parses a package's files in parallel, so the files' token.Pos
// bases differ from load to load: an order that follows token.Pos across
// files is not deterministic, one that follows file name and offset is.
func TestDeterministic(t *testing.T) {
	d1, v1 := runOnce(t, nil)
	if len(d1) == 0 {
		t.Fatal("no diagnostics at all: the comparison would prove nothing")
	}
	for i, opts := range []*checker.Options{nil, {Sequential: true}} {
		d2, v2 := runOnce(t, opts)
		if !diff(fmt.Sprintf("diagnostics (run 1 vs run %d)", i+2), t, d1, d2) ||
			!diff(fmt.Sprintf("engine verdicts, in Model.Writes order (run 1 vs run %d)", i+2), t, v1, v2) {
			return
		}
	}
	t.Logf("%d diagnostics and %d verdicts identical across three runs", len(d1), len(v1))
}

func diff(what string, t *testing.T, a, b []string) bool {
	t.Helper()
	n := max(len(a), len(b))
	var out []string
	for i := 0; i < n; i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			out = append(out, fmt.Sprintf("#%d\n\trun 1: %s\n\trun 2: %s", i, x, y))
		}
	}
	if len(out) == 0 {
		return true
	}
	hint := ""
	if sa, sb := slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)); slices.Equal(sa, sb) {
		hint = "\nthe same lines in a different order: the order follows something that changes between loads, " +
			"such as token.Pos across files (sort by pass.Fset.Position: file name, then offset)"
	}
	t.Errorf("%s differ (%d vs %d lines):\n%s%s", what, len(a), len(b), strings.Join(out[:min(len(out), 8)], "\n"), hint)
	return false
}
