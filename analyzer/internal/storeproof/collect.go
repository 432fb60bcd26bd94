package storeproof

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/fencetest"
	"github.com/fencelint/fencelint/analyzer/internal/pgproof"
	"golang.org/x/tools/go/analysis"
)

// Found is one write of the engine's model with its position.
type Found struct {
	Pos   string // file:line:col, relative to testdata/src
	Write *fence.Write
}

// Dir is the testdata/src directory the write is in ("unfencedwrite").
func (f Found) Dir() string { return strings.SplitN(f.Pos, "/", 2)[0] }

// Collect runs the engine over every analysistest case directory of
// testdata/src and returns, in a stable order, the writes in a lock scope
// for which keep returns true.
func Collect(t testing.TB, keep func(*fence.Write) bool) []Found {
	t.Helper()
	td := fencetest.TestData(t)
	patterns, err := pgproof.CaseDirs(td)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(patterns, "unfencedwrite/...") {
		t.Fatalf("no testdata/src/unfencedwrite in %s", td)
	}
	pkgs, err := pgproof.LoadTestdata(td, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	g, err := pgproof.Analyze([]*analysis.Analyzer{fence.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []Found
	for _, pkg := range pkgs { // sorted by path
		for _, act := range g.Roots {
			if act.Package != pkg || act.Analyzer != fence.Analyzer {
				continue
			}
			if act.Err != nil {
				t.Fatalf("%s: %v", act, act.Err)
			}
			model := act.Result.(*fence.Model)
			for _, w := range model.Writes {
				if !keep(w) {
					continue
				}
				p := pkg.Fset.Position(w.Pos)
				if rel, err := filepath.Rel(filepath.Join(td, "src"), p.Filename); err == nil {
					p.Filename = rel
				}
				out = append(out, Found{Pos: p.String(), Write: w})
			}
		}
	}
	return out
}

// Judged reports whether the frozen-worker scenario judges v, as pgproof
// does: fenced (the stale write must not land), and unfenced,
// recorded-only and wrong-predicate (it must). Weak-token and app-checked
// writes are other analyzers' findings that one stale holder cannot show,
// and unknown is no judgement.
func Judged(v fence.Verdict) bool {
	switch v {
	case fence.Fenced, fence.Unfenced, fence.RecordedOnly, fence.WrongPredicate:
		return true
	}
	return false
}

// Require reports whether a missing server must fail the test
// (FENCELINT_INTEGRATION=require, or CI set) instead of skipping it.
func Require() bool {
	return os.Getenv("FENCELINT_INTEGRATION") == "require" || os.Getenv("CI") != ""
}

// Tally counts checked and skipped writes per testdata directory. It is
// safe for parallel subtests.
type Tally struct {
	Store   string // "etcdproof", "redisproof": the prefix of the lines
	mu      sync.Mutex
	checked map[string]int
	skipped map[string]int
	Skips   map[string]string // "pos verdict call" -> why
}

// Checked counts one write the scenario replayed and compared.
func (c *Tally) Checked(f Found) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.checked == nil {
		c.checked = map[string]int{}
	}
	c.checked[f.Dir()]++
}

// Skip counts one write not replayed, with the reason.
func (c *Tally) Skip(f Found, why string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.skipped == nil {
		c.skipped, c.Skips = map[string]int{}, map[string]string{}
	}
	c.skipped[f.Dir()]++
	c.Skips[fmt.Sprintf("%s %s %s", f.Pos, f.Write.Verdict, f.Write.Call)] = why
}

// Report logs the skips and the counts, prints the summary line
// ("etcdproof: N writes checked, M skipped") on stdout for .ci/test.sh,
// and fails the test when nothing was checked.
func (c *Tally) Report(t *testing.T, what string) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range slices.Sorted(maps.Keys(c.Skips)) {
		t.Logf("skipped %s: %s", k, c.Skips[k])
	}
	dirs := map[string]bool{}
	for d := range c.checked {
		dirs[d] = true
	}
	for d := range c.skipped {
		dirs[d] = true
	}
	total, skipped := 0, 0
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		t.Logf("%s: testdata/src/%s: %d replayed, %d skipped", c.Store, d, c.checked[d], c.skipped[d])
		total += c.checked[d]
		skipped += c.skipped[d]
	}
	summary := fmt.Sprintf("%s: %d %s checked, %d skipped", c.Store, total, what, skipped)
	t.Log(summary)
	fmt.Println(summary)
	if total == 0 {
		t.Errorf("%s: nothing checked: the proof proves nothing", c.Store)
	}
}
