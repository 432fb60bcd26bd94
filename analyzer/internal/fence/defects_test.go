package fence_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/fencetest"
	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestTokenDefects checks the data of the engine's weak-token, app-check
// and optional-token defects, which the analyzers only format: typed
// kinds, no prose to parse.
func TestTokenDefects(t *testing.T) {
	// The packages' // want comments are the analyzers', not the engine's.
	results := analysistest.Run(ignoreWants{}, fencetest.TestData(t), fence.Analyzer, "weaktoken/basic", "appcheck/guards", "optionaltoken/branches")
	count := map[fence.DefectKind]int{}
	for _, r := range results {
		m := r.Result.(*fence.Model)
		for _, d := range m.Defects {
			count[d.Kind]++
			at := r.Pass.Fset.Position(d.Pos)
			switch d.Kind {
			case fence.DefectWeakToken:
				if d.Weak == nil || d.Weak.Weakness == rules.NotWeak || d.Detail == "" {
					t.Errorf("%v: weak token defect without a typed weakness or use: %+v", at, d)
				}
				if d.Weak != nil && d.Weak.Issuer == "etcd" && d.Category != "lease-id" {
					t.Errorf("%v: an etcd-issued weak token has category %q", at, d.Category)
				}
			case fence.DefectAppChecked:
				if d.Write == nil || d.Write.Guard == nil || d.Write.Verdict != fence.AppChecked || d.Category != string(d.Write.Guard.Kind) {
					t.Errorf("%v: app-check defect without its guarded write: %+v", at, d)
				}
			case fence.DefectZeroFallback:
				if d.Token == nil || d.Token.Shape != fence.ShapeBranch {
					t.Errorf("%v: zero fallback without its branch: %+v", at, d)
				}
				// saveBad's tok is a token parameter: its fallback write is
				// in a lock scope, unfenced, named on the defect and
				// Omitted (unfencedwrite leaves it to optionaltoken). A
				// test that only chooses the statement (chosen.go) leaves
				// one write whose SQL is chosen at run time, which the
				// engine does not read: no write on the defect.
				chosen := len(d.Related) > 0 && d.Related[len(d.Related)-1].Message == "the write that runs it"
				if d.Token != nil && d.Token.Name == "tok" && !chosen && (d.Write == nil || d.Write.Verdict != fence.Unfenced || !d.Write.Omitted) {
					t.Errorf("%v: the fallback write in the token's scope is not on the defect: %+v", at, d.Write)
				}
			}
		}
	}
	for _, k := range []fence.DefectKind{fence.DefectWeakToken, fence.DefectAppChecked, fence.DefectZeroFallback} {
		if count[k] == 0 {
			t.Errorf("no defect of kind %d in the testdata", k)
		}
	}
}

type ignoreWants struct{}

func (ignoreWants) Errorf(string, ...any) {}
