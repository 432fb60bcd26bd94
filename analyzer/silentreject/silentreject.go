package silentreject

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
		Name:     "silentreject",
		Run:      run,
		Requires: []*analysis.Analyzer{fence.Analyzer},
	},
	Doc: &lint.RawDocumentation{
		Title: "report fenced writes whose rejection is never observed",
		Text: `A fence rejects a stale holder's write without an error: the UPDATE
matches zero rows, the RETURNING query returns no row, etcd's Txn reports
Succeeded == false. The runbook's rule is "zero rows returned = a newer
holder has already written. Abort, do not retry." A caller that does not
look at the outcome carries on as if it had written.

silentreject reports, at the write call, fenced writes (the engine found a
token in their condition) whose rejection is never observed:

- "discarded": the result of a database/sql or pgx Exec, the error of a
  QueryRow(...).Scan, of a DynamoDB, S3 or Azure Blob conditional write or
  of a versioned ZooKeeper write, an etcd TxnResponse, a fencing Redis
  script's reply, a Cassandra lightweight transaction's applied, or a
  fenced MongoDB write's result is thrown away, or a lightweight
  transaction is run by gocql's Exec or ExecuteBatch, which drop applied;
- "unchecked": RowsAffected is never called or its value never compared;
  sql.ErrNoRows / pgx.ErrNoRows of a fenced UPDATE ... RETURNING leads to
  a successful return; a DynamoDB, S3, Azure Blob or ZooKeeper error is
  only logged; etcd's TxnResponse.Succeeded is never read; the reply of a
  Redis script that answers a stale token with a number is never compared;
  a Cassandra applied is never tested; MongoDB's MatchedCount is never
  compared;
- "retried": a loop re-issues the write after the fence rejected it.

Results that escape (returned, passed to another function, stored) are
assumed handled. Retries on transient errors that stop on a rejection,
release paths, and rejection branches that end the process or goroutine
(log.Fatal, os.Exit, t.Fatal, or a wrapper of one) are not reported.`,
		Before: `
db.ExecContext(ctx, "UPDATE t SET v = $1, fence = $2 WHERE id = $3 AND fence < $2", v, tok, id)`,
		After: `
res, err := db.ExecContext(ctx, "UPDATE t SET v = $1, fence = $2 WHERE id = $3 AND fence < $2", v, tok, id)
if err != nil {
	return err
}
if n, err := res.RowsAffected(); err != nil || n == 0 {
	return ErrSuperseded // a newer holder has written: abort, do not retry
}`,
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
	// The engine follows each fenced write's outcome (fence/outcome.go);
	// this analyzer only words what it found.
	for _, d := range model.Defects {
		switch d.Kind {
		case fence.DefectDiscarded, fence.DefectUnchecked, fence.DefectRetried:
		default:
			continue
		}
		msg := message(d.Write)
		if msg == "" {
			continue // a handling this analyzer has no words for: say nothing
		}
		diag := analysis.Diagnostic{Pos: d.Pos, End: d.End, Category: d.Category, Message: msg}
		for _, r := range d.Related {
			diag.Related = append(diag.Related, analysis.RelatedInformation{Pos: r.Pos, End: r.End, Message: r.Message})
		}
		ig.Report(pass, diag)
	}
	ig.Finish(pass, lintutil.Names)
	return nil, nil
}

// message words a write's mishandled outcome in the store's own terms:
// what a rejection looks like there and what to do instead.
func message(w *fence.Write) string {
	o := w.Outcome
	call, rej := w.Call, o.Rejection
	// acc is the declared accessor of the rejection (RowsAffected for
	// database/sql and pgx); the messages name it as the library does.
	acc := o.Accessor
	if acc == "" {
		acc = "RowsAffected"
	}
	// lib is the library as messages name it: the first word of the
	// store ("consul" for "consul KV"), and result the response type.
	lib, result := w.Store, o.Result
	if i := strings.IndexByte(lib, ' '); i > 0 {
		lib = lib[:i]
	}
	if result == "" {
		result = "response"
	}
	if w.Claim {
		return claimMessage(w, acc)
	}
	switch o.Handling {
	case fence.Discarded:
		switch o.Kind {
		case fence.OutcomeRows:
			return fmt.Sprintf("the result of fenced write via %s is discarded: a write the fence rejected (%s) looks like success; check %s() and abort when it is 0", call, rej, acc)
		case fence.OutcomeRowsField:
			return fmt.Sprintf("the result of fenced write via %s is discarded: %s reports a write the fence rejected as %s == 0, not as an error; check it and abort", call, lib, acc)
		case fence.OutcomeOK:
			return fmt.Sprintf("the ok result of fenced write via %s is discarded: %s reports a write its check rejected as %s with a nil error; abort when it is false", call, lib, rej)
		case fence.OutcomeSucceeded:
			return fmt.Sprintf("the %s of fenced write via %s is discarded: a failed condition is not an error, only %s says the write was rejected", result, call, rej)
		case fence.OutcomeError:
			return fmt.Sprintf("the error of fenced write via %s is discarded: a failed condition (%s) is how the fence rejects a stale holder; return it or tell it apart with errors.As", call, rej)
		case fence.OutcomeNoRow, fence.OutcomeCloseError:
			return fmt.Sprintf("the error of fenced write via %s is discarded: %s is how the fence rejects a stale holder; return it or abort on it", call, rej)
		case fence.OutcomeReply:
			return fmt.Sprintf("the reply of fenced write via %s is discarded: the script's reply is how the fence rejects a stale holder; check it and abort when it reports a stale token", call)
		case fence.OutcomeDropped:
			return fmt.Sprintf("fenced write via %s throws its outcome away: %s answers a write its condition rejected with %s and no error, which this call drops; run it with %s and abort when it was not applied", call, lib, rej, acc)
		}
	case fence.DiscardedByDefer:
		return fmt.Sprintf("the error of fenced write via %s is discarded: a deferred Close drops %s, which is how the fence rejects a stale holder; check Close's error and abort on it", call, rej)
	case fence.NeverRead:
		switch o.Kind {
		case fence.OutcomeRows:
			return fmt.Sprintf("fenced write via %s never compares %s(): a write the fence rejected (%s) looks like success; abort when it is 0", call, acc, rej)
		case fence.OutcomeRowsField:
			return fmt.Sprintf("fenced write via %s never compares %s: %s reports a write the fence rejected as %s, not as an error; abort when it is 0", call, acc, lib, rej)
		case fence.OutcomeOK:
			return fmt.Sprintf("fenced write via %s never tests its ok result: %s reports a write its check rejected as %s with a nil error; abort when it is false", call, lib, rej)
		case fence.OutcomeSucceeded:
			return fmt.Sprintf("fenced write via %s never reads %s.%s: a failed condition is not an error; abort when %s is false", call, result, acc, acc)
		case fence.OutcomeReply:
			return fmt.Sprintf("fenced write via %s never compares the script's reply: the script answers a stale token with a number, not an error; check the reply and abort when it reports a stale token", call)
		}
	case fence.Logged:
		switch o.Kind {
		case fence.OutcomeRows:
			return fmt.Sprintf("fenced write via %s only logs a rejection (%s) and carries on as if it had written: a newer holder has written; abort when %s() is 0", call, rej, acc)
		case fence.OutcomeSucceeded:
			return fmt.Sprintf("fenced write via %s only logs %s.%s: a failed condition is not an error, and logging it is not acting on it; abort when %s is false", call, result, acc, acc)
		}
		return fmt.Sprintf("the error of fenced write via %s is only logged: %s means a newer holder has written; abort instead of carrying on", call, rej)
	case fence.AsSuccess:
		if o.Kind == fence.OutcomeNoRow && !strings.HasSuffix(rej, "ErrNoRows") {
			return fmt.Sprintf("fenced write via %s treats %s as success: no document returned means a newer holder has already written; abort, do not carry on", call, rej)
		}
		if o.Kind == fence.OutcomeNoRow {
			return fmt.Sprintf("fenced write via %s treats ErrNoRows as success: no row returned means a newer holder has already written; abort, do not carry on", call)
		}
		return fmt.Sprintf("fenced write via %s treats %s as success: the fence rejected a stale holder; abort, do not carry on", call, rej)
	case fence.Retried:
		return fmt.Sprintf("fenced write via %s is re-issued after the fence rejected it (%s): a newer holder has written; abort, do not retry", call, rej)
	}
	return ""
}

// claimMessage words a SQL lease-table claim whose refusal is never looked
// at: the code goes on whether or not it took the lock.
func claimMessage(w *fence.Write, acc string) string {
	o := w.Outcome
	switch {
	case o.Handling == fence.Discarded && o.Kind == fence.OutcomeRows:
		return fmt.Sprintf("the result of lease-table claim via %s on %s is discarded: a claim that finds the lock held changes 0 rows and returns no error; check %s() and go on only when it is 1", w.Call, w.Target, acc)
	case o.Handling == fence.NeverRead && o.Kind == fence.OutcomeRows:
		return fmt.Sprintf("lease-table claim via %s on %s never compares %s(): a claim that finds the lock held changes 0 rows and returns no error; go on only when it is 1", w.Call, w.Target, acc)
	case o.Handling == fence.Discarded && o.Kind == fence.OutcomeNoRow:
		return fmt.Sprintf("the error of lease-table claim via %s on %s is discarded: %s is how the claim says the lock is held; go on only when the RETURNING row is scanned", w.Call, w.Target, o.Rejection)
	}
	return ""
}
