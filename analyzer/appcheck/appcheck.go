package appcheck

import (
	"fmt"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/lintutil"
	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/analysis/lint"
)

// Lint is the analyzer with its documentation.
var Lint = lintutil.Init(&lint.Analyzer{
	Analyzer: &analysis.Analyzer{
		Name:     "appcheck",
		Run:      run,
		Requires: []*analysis.Analyzer{fence.Analyzer},
	},
	Doc: &lint.RawDocumentation{
		Title: "report fence or lease checks done in Go, not in the write",
		Text: `A check in application code cannot protect a write: between the check and
the write the holder can pause, lose its lease, and be overtaken by a newer
holder, and the write then goes through anyway. Comparing the stored fence
with the token in Go after reading it (read-then-write), or asking the
client's own lease whether it is still valid (lease.Valid(), a TTL, an
expiry compared with time.Now(), an ownership flag, an etcd session's
liveness), only moves the race.

appcheck reports, at the Go-side check, every such check that guards a
write whose own condition carries no fence; the write is in Related. It is
silent when the write is fenced, when nothing is written after the check,
and inside a transaction that holds a row lock on the fence row (SELECT ...
FOR UPDATE/SHARE), where the check is a correct fence. A test of the token
against zero or nil that falls back to an unfenced write is optionaltoken's
finding, not a fence check: appcheck leaves those writes to it.`,
		Before: `
if lease.Valid() {
	db.ExecContext(ctx, "UPDATE accounts SET balance = $1 WHERE id = $2", bal, id)
}`,
		After: `
res, err := db.ExecContext(ctx,
	"UPDATE accounts SET balance = $1, fence = $3 WHERE id = $2 AND fence < $3",
	bal, id, lease.Token)`,
		Since:    "v0.1.0",
		Severity: lint.SeverityWarning,
		MergeIf:  lint.MergeIfAny,
	},
})

// Analyzer is the bare analyzer for go vet, golangci-lint and analysistest.
var Analyzer = Lint.Analyzer

func run(pass *analysis.Pass) (any, error) {
	model := pass.ResultOf[fence.Analyzer].(*fence.Model)
	if !model.Relevant {
		return nil, nil // fast path: nothing lock-related in reach
	}
	ig := model.Ignores.For() // parsed once by the engine; the used-marks are this analyzer's
	// One defect per check: the engine put every write it guards, the
	// read behind it and the lock scope in Related.
	for _, d := range model.Defects {
		if d.Kind != fence.DefectAppChecked || d.Write == nil || d.Write.Guard == nil {
			continue
		}
		related := make([]analysis.RelatedInformation, len(d.Related))
		for i, r := range d.Related {
			related[i] = analysis.RelatedInformation{Pos: r.Pos, End: r.End, Message: r.Message}
		}
		diag := analysis.Diagnostic{
			Pos:      d.Pos,
			End:      d.End,
			Category: d.Category,
			Message:  Message(d.Write),
			Related:  related,
		}
		if d.Write.Scope.NoToken && !d.Write.Scope.Withheld {
			diag.URL = lintutil.NoTokenURL
		}
		ig.Report(pass, diag)
	}
	ig.Finish(pass, lintutil.Names)
	return nil, nil
}

// Message explains, in one sentence, why the check does not fence the write.
func Message(w *fence.Write) string {
	target := w.Store + " write via " + w.Call
	if w.Target != "" {
		target += " to " + w.Target
	}
	fix := "compare the fencing token in the write's own condition"
	switch {
	case w.Scope.NoToken && w.Scope.Withheld:
		fix = w.Scope.NoTokenClause() + ": " + lintutil.WithheldTokenFix
	case w.Scope.NoToken:
		fix = w.Scope.NoTokenClause() + ": " + lintutil.NoTokenFix
		if w.Scope.Hint != "" {
			fix += "; " + w.Scope.Hint // as unfencedwrite says it
		}
		fix += "; see " + lintutil.NoTokenURL
	case w.Scope.Token != "":
		fix = "compare " + w.Scope.Token + " in the write's own condition"
	}
	g := w.Guard
	switch g.Kind {
	case fence.GuardToken:
		return fmt.Sprintf("fence check %s is done in Go before the %s: a newer holder can write between this check and the write; %s", g.Text, target, fix)
	case fence.GuardClock:
		return fmt.Sprintf("client-side expiry check %s guards the %s: a holder paused after the check writes anyway; %s", g.Text, target, fix)
	case fence.GuardFlag:
		return fmt.Sprintf("in-memory ownership flag %s guards the %s: it cannot know the lock was lost; %s", g.Text, target, fix)
	case fence.GuardSession:
		return fmt.Sprintf("session liveness check %s guards the %s: the session can expire right after it; %s", g.Text, target, fix)
	}
	return fmt.Sprintf("client-side lease check %s guards the %s: a paused holder passes it and writes anyway; %s", g.Text, target, fix)
}
