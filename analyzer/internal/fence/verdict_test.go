package fence_test

import (
	"flag"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/fencetest"
	"github.com/fencelint/fencelint/analyzer/internal/pgproof"
	"golang.org/x/tools/go/analysis"
)

var update = flag.Bool("update", false, "rewrite testdata/verdicts.golden from the engine's current model")

// TestVerdictGolden runs the engine alone over every testdata package and
// compares its model (one line per write, one per defect) with
// testdata/verdicts.golden. The analyzers' tests check messages; this one
// checks the judgement itself, so that a refactor that changes a verdict
// and its message together is caught. Run with -update to accept changes,
// and say why in the commit.
//
// Each line is "write POS key=value ..." or "defect POS key=value ...":
// new model fields add keys, so merges only add keys.
func TestVerdictGolden(t *testing.T) {
	td := fencetest.TestData(t)
	pkgs, err := pgproof.LoadTestdata(td, "./...")
	if err != nil {
		t.Fatal(err)
	}
	g, err := pgproof.Analyze([]*analysis.Analyzer{fence.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(td, "src") + string(filepath.Separator)
	var lines []string
	for act := range g.All() {
		m, ok := act.Result.(*fence.Model)
		if !ok || act.Analyzer != fence.Analyzer || !act.IsRoot {
			continue
		}
		fset := act.Package.Fset
		pos := func(p token.Pos) string {
			if !p.IsValid() {
				return "-"
			}
			ps := fset.Position(p)
			return fmt.Sprintf("%s:%d:%d", filepath.ToSlash(strings.TrimPrefix(ps.Filename, src)), ps.Line, ps.Column)
		}
		for _, w := range m.Writes {
			lines = append(lines, "write "+pos(w.Pos)+dumpWrite(w, pos))
		}
		for _, d := range m.Defects {
			kv := []string{"kind", kindName(d.Kind), "category", d.Category}
			if d.Write != nil {
				kv = append(kv, "write", pos(d.Write.Pos))
			}
			kv = append(kv, "detail", d.Detail)
			if len(d.Edits) > 0 {
				kv = append(kv, "edits", strconv.Itoa(len(d.Edits)))
			}
			lines = append(lines, "defect "+pos(d.Pos)+pairs(kv...))
		}
		for _, in := range m.Internal {
			lines = append(lines, "internal "+pos(in.Pos)+pairs("func", in.Func))
		}
	}
	slices.Sort(lines)
	got := strings.Join(lines, "\n") + "\n"
	golden := filepath.Join(td, "verdicts.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("engine model differs from %s (run go test -run TestVerdictGolden -update to accept):\n%s", golden, lineDiff(string(want), got))
	}
}

func dumpWrite(w *fence.Write, pos func(token.Pos) string) string {
	kv := []string{"store", w.Store, "call", w.Call, "target", w.Target, "verdict", w.Verdict.String()}
	if w.Helper != "" {
		kv = append(kv, "helper", w.Helper)
	}
	var cmps []string
	for _, c := range w.Compares {
		s := c.Column + c.Op + c.Token
		if c.Weak {
			s += "(weak)"
		}
		cmps = append(cmps, s)
	}
	kv = append(kv, "compares", strings.Join(cmps, ","), "recorded", strings.Join(w.Recorded, ","))
	if c := w.Cond; c != nil {
		// The normalised condition: "column Op token-as-written[origin]",
		// flagged when it does not count for the verdict, sits in an
		// IS NULL OR group or is weak.
		var cc []string
		for _, x := range c.Compares {
			s := x.Text + x.Op + x.Token + "[" + x.Origin + "]"
			if !x.Fencing {
				s += "!fencing"
			}
			if x.NullBranch {
				s += "+null"
			}
			if x.Weak {
				s += "(weak)"
			}
			cc = append(cc, s)
		}
		kv = append(kv, "cond", strings.Join(cc, ","), "records", strings.Join(c.Records, ","))
		for _, f := range []struct {
			key string
			on  bool
		}{{"unit", c.Unit}, {"create-only", c.CreateOnly}, {"blind", c.Blind}} {
			if f.on {
				kv = append(kv, f.key, "true")
			}
		}
	}
	if w.Guard != nil {
		kv = append(kv, "guard", string(w.Guard.Kind))
	}
	if w.Omitted {
		kv = append(kv, "omitted", "true")
	}
	if o := w.Outcome; o.Kind != fence.OutcomeNone {
		// How a rejection is observed and what the code does with it.
		kv = append(kv, "outcome", o.Kind.String()+"/"+o.Handling.String(), "rejection", o.Rejection)
	}
	kv = append(kv, "detail", w.Detail)
	return pairs(kv...)
}

// pairs renders key=value pairs, dropping empty values and quoting those
// a space would split.
func pairs(kv ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(kv); i += 2 {
		v := kv[i+1]
		if v == "" {
			continue
		}
		if strings.ContainsAny(v, " \t\n\"=") {
			v = strconv.Quote(v)
		}
		b.WriteString(" " + kv[i] + "=" + v)
	}
	return b.String()
}

var kindNames = map[fence.DefectKind]string{
	fence.DefectUnfenced: "unfenced", fence.DefectRecordedOnly: "recorded-only",
	fence.DefectReversed: "reversed", fence.DefectInequality: "inequality", fence.DefectNullBranch: "null-branch",
	fence.DefectNotRecorded: "not-recorded", fence.DefectOtherColumn: "other-column", fence.DefectStringOrder: "string-order",
	fence.DefectWeakToken: "weak-token", fence.DefectAppChecked: "app-checked",
	fence.DefectDiscarded: "discarded", fence.DefectUnchecked: "unchecked", fence.DefectRetried: "retried",
	fence.DefectOptionalToken: "optional-token", fence.DefectZeroFallback: "zero-fallback",
}

func kindName(k fence.DefectKind) string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return fmt.Sprintf("kind%d", k)
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	in := func(xs []string) map[string]int {
		m := map[string]int{}
		for _, x := range xs {
			m[x]++
		}
		return m
	}
	wm, gm := in(w), in(g)
	var b strings.Builder
	for _, x := range w {
		if gm[x] == 0 {
			b.WriteString("- " + x + "\n")
		}
	}
	for _, x := range g {
		if wm[x] == 0 {
			b.WriteString("+ " + x + "\n")
		}
	}
	return b.String()
}
