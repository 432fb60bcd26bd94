package unfencedwrite

import (
	"fmt"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/directive"
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
fencepredicate; writes guarded by a check in Go code belong to appcheck.`,
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
	if !model.Relevant {
		return nil, nil // fast path: nothing lock-related in reach
	}
	ig := directive.CollectIgnores(pass)
	for _, in := range model.Internal {
		ig.Report(pass, analysis.Diagnostic{
			Pos: in.Pos, Category: "internal",
			Message: fmt.Sprintf("internal error: fencelint skipped %s: %s", in.Func, firstLine(in.Msg)),
		})
	}
	for _, w := range model.Writes {
		if w.Verdict != fence.Unfenced && w.Verdict != fence.RecordedOnly {
			continue
		}
		if w.Omitted {
			continue // optionaltoken reports it at the omitted token: one root cause
		}
		ig.Report(pass, analysis.Diagnostic{
			Pos: w.Pos, End: w.End,
			Category: category(w),
			Message:  Message(w),
			Related:  []analysis.RelatedInformation{{Pos: w.Scope.Pos, Message: scopeNote(w.Scope)}},
		})
	}
	ig.Finish(pass, lintutil.Names)
	return nil, nil
}

func category(w *fence.Write) string {
	switch {
	case w.Verdict == fence.RecordedOnly:
		return "recorded-only"
	case w.Scope.NoToken:
		return "no-token"
	case w.Helper != "":
		return "helper"
	}
	return "unfenced"
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
	if !w.Scope.NoToken && w.Scope.Token != "" && w.Verdict != fence.RecordedOnly {
		fmt.Fprintf(&b, "; compare the stored fence with %s in the write itself", w.Scope.Token)
	}
	return b.String()
}

func scopeNote(s *fence.Scope) string {
	switch s.Kind {
	case fence.ScopeAcquire:
		return "lock acquired here"
	case fence.ScopeLeaseParam:
		return "the lease this function holds"
	case fence.ScopeTokenParam:
		return "the token this function receives"
	case fence.ScopeCallback:
		return "callback run under the lock here"
	case fence.ScopeLeading:
		return "leader-election callback registered here"
	}
	return "lock scope"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
