package unfencedwrite

import (
	"fmt"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/lintutil"
	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/analysis/lint"
)

// Lint is the analyzer with its documentation.
var Lint = lintutil.Init(&lint.Analyzer{
	Analyzer: &analysis.Analyzer{
		Name:     "unfencedwrite",
		Run:      run,
		Requires: []*analysis.Analyzer{fence.Analyzer},
	},
	Doc: &lint.RawDocumentation{
		Title: "report writes under a lock that carry no fencing token",
		Text: `A lease says "you hold this lock for 30 s"; it cannot say "you will still
be running in 30 s". A holder that pauses past its lease wakes up, still
believes it holds the lock, and overwrites the newer holder's write. The fix
is a fencing token: a number that grows with every grant, passed into every
write and compared by the storage in the write's own condition.

unfencedwrite reports, at the write call, each write to shared storage made
inside a lock scope (after a successful acquire, in a function taking a
lease or token, in a callback run under a lock) whose own condition - or
its transaction's - does not compare the stored fence with a value derived
from the token. A token that is only recorded (SET) and never compared is
unfenced. Writes whose condition compares the token the wrong way belong to
fencepredicate; writes guarded by a check in Go code belong to appcheck;
writes unfenced because a literal 0 or nil was passed for the token, or
that a zero-token test sends down an unfenced fallback, belong to
optionaltoken.`,
		Before: `
m.Lock(ctx)
defer m.Unlock(ctx)
pool.Exec(ctx, "UPDATE accounts SET balance = $1 WHERE id = $2", bal, id)`,
		After: `
m.Lock(ctx)
defer m.Unlock(ctx)
tok := m.Header().Revision
pool.Exec(ctx, "UPDATE accounts SET balance = $1, fence = $3 WHERE id = $2 AND fence < $3", bal, id, tok)`,
		Since:    "v0.1.0",
		Severity: lint.SeverityWarning,
		MergeIf:  lint.MergeIfAny,
	},
})

// Analyzer is the bare analyzer for go vet, golangci-lint and analysistest.
var Analyzer = Lint.Analyzer

func run(pass *analysis.Pass) (any, error) {
	model := pass.ResultOf[fence.Analyzer].(*fence.Model)
	for _, p := range model.DirectiveProblems {
		pass.Report(analysis.Diagnostic{Pos: p.Pos, End: p.End, Category: "directive", Message: p.Message})
	}
	if !model.Relevant {
		return nil, nil // fast path: nothing lock-related in reach
	}
	ig := model.Ignores.For() // parsed once by the engine; the used-marks are this analyzer's
	// The engine's own failures are reported here, once: unfencedwrite is
	// the analyzer every configuration runs (docs/unfencedwrite.md).
	for _, in := range model.Internal {
		ig.Report(pass, analysis.Diagnostic{
			Pos: in.Pos, Category: "internal",
			Message: fmt.Sprintf("internal error: fencelint skipped %s: %s", in.Func, firstLine(in.Msg)),
		})
	}
	for _, d := range model.Defects {
		if d.Kind != fence.DefectUnfenced && d.Kind != fence.DefectRecordedOnly {
			continue
		}
		w := d.Write
		if w.Omitted {
			continue // optionaltoken reports it at the omitted token: one root cause
		}
		var related []analysis.RelatedInformation
		for _, r := range d.Related {
			related = append(related, analysis.RelatedInformation{Pos: r.Pos, End: r.End, Message: r.Message})
		}
		diag := analysis.Diagnostic{
			Pos: d.Pos, End: d.End,
			Category: d.Category,
			Message:  Message(w),
			Related:  related,
		}
		if noToken(w) && !w.Scope.Withheld {
			diag.URL = lintutil.NoTokenURL
		}
		ig.Report(pass, diag)
	}
	ig.Finish(pass, lintutil.Names)
	return nil, nil
}

// Message says, in one sentence, which write is unfenced and what is
// missing.
func Message(w *fence.Write) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s write via %s", w.Store, w.Call)
	if w.Target != "" {
		fmt.Fprintf(&b, " to %s", w.Target)
	}
	b.WriteString(" under the " + w.Scope.Lock + " is not fenced")
	if w.Detail != "" {
		b.WriteString(": " + w.Detail)
	}
	if noToken(w) {
		// The engine's detail usually says so already; say it once.
		if says := w.Scope.NoTokenClause(); !strings.Contains(w.Detail, says) {
			if w.Detail == "" {
				b.WriteString(": " + says)
			} else {
				b.WriteString("; " + says)
			}
		}
		if w.Scope.Withheld {
			b.WriteString(": " + lintutil.WithheldTokenFix)
			return b.String()
		}
		b.WriteString(": " + lintutil.NoTokenFix)
		if w.Scope.Hint != "" {
			b.WriteString("; " + w.Scope.Hint)
		}
		b.WriteString("; see " + lintutil.NoTokenURL)
		return b.String()
	}
	if w.Scope.Token != "" && w.Scope.Token != "_" && !strings.HasPrefix(w.Scope.Token, "_.") && w.Verdict != fence.RecordedOnly {
		// (a blank parameter's token cannot be named in a suggestion)
		fmt.Fprintf(&b, "; compare the stored fence with %s in the write itself", w.Scope.Token)
	}
	return b.String()
}

// noToken: the write is unfenced because its lock hands out no token, so
// the fix starts at the grant, not at the write.
func noToken(w *fence.Write) bool {
	return w.Scope.NoToken && w.Verdict == fence.Unfenced
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
