package fencepredicate

import (
	"fmt"
	"go/token"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/lintutil"
	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/analysis/lint"
)

// Lint is the analyzer with its documentation.
var Lint = lintutil.Init(&lint.Analyzer{
	Analyzer: &analysis.Analyzer{
		Name:     "fencepredicate",
		Run:      run,
		Requires: []*analysis.Analyzer{fence.Analyzer},
	},
	Doc: &lint.RawDocumentation{
		Title: "report fence conditions that compare the token the wrong way",
		Text: `A fenced write must reject a holder whose token is older than the newest
the storage has seen: the stored fence must be below the presented token
(fence < :tok, or fence <= :tok for a retry by the same holder), and the
write must record the token (SET fence = :tok) so that the storage learns
the highest one.

fencepredicate reports, at the literal holding the condition (the SQL
string, the ConditionExpression; the expression-builder call; the etcd
Compare), a fence condition that is present but wrong:

- the direction is reversed (fence > :tok, fence >= :tok) or the operator
  is <> / != (category "reversed", "inequality");
- SQL keeps the transitional "fence IS NULL OR" branch of a migration (or
  its disguise COALESCE(fence, 0)), so a row whose fence is NULL stays
  unfenced for ever ("is-null");
- an UPDATE compares the token but never records it ("not-recorded");
- the token is compared against another column than the one recording it
  ("other-column");
- a DynamoDB condition compares the fence attribute with the token, but the
  update never writes that attribute ("not-recorded").

Operand-swapped comparisons ($2 > fence), equality compare-and-set on a
generation stamped at acquire, and DynamoDB's
attribute_not_exists(fence) OR fence < :tok are valid. Where the edit is
local, a suggested fix flips the operator or adds SET fence = $n.`,
		Before: `
db.ExecContext(ctx, "UPDATE acct SET bal = $1, fence = $3 WHERE id = $2 AND fence > $3", bal, id, lease.Token)`,
		After: `
db.ExecContext(ctx, "UPDATE acct SET bal = $1, fence = $3 WHERE id = $2 AND fence < $3", bal, id, lease.Token)`,
		Since:    "v0.1.0",
		Severity: lint.SeverityWarning,
		MergeIf:  lint.MergeIfAny,
	},
})

// Analyzer is the bare analyzer for go vet, golangci-lint and analysistest.
var Analyzer = Lint.Analyzer

// run reports the engine's predicate defects: the engine reads every
// condition (SQL, gorm, DynamoDB items and builders); this analyzer only
// words them and turns their edits into a suggested fix.
func run(pass *analysis.Pass) (any, error) {
	model := pass.ResultOf[fence.Analyzer].(*fence.Model)
	if !model.Relevant {
		return nil, nil // fast path: nothing lock-related in reach
	}
	ig := model.Ignores.For() // parsed once by the engine; the used-marks are this analyzer's
	seen := map[token.Pos]bool{}
	for _, d := range model.Defects {
		msg, fixMsg := message(d)
		if msg == "" || seen[d.Pos] {
			continue // another analyzer's, or a second defect on one literal
		}
		seen[d.Pos] = true
		diag := analysis.Diagnostic{Pos: d.Pos, End: d.End, Category: d.Category, Message: msg}
		if len(d.Edits) > 0 {
			fix := analysis.SuggestedFix{Message: fixMsg}
			for _, e := range d.Edits {
				fix.TextEdits = append(fix.TextEdits, analysis.TextEdit{Pos: e.Pos, End: e.End, NewText: []byte(e.NewText)})
			}
			diag.SuggestedFixes = []analysis.SuggestedFix{fix}
		}
		ig.Report(pass, diag)
	}
	ig.Finish(pass, lintutil.Names)
	return nil, nil
}

// message words a defect this analyzer owns, and its fix; "" for the
// kinds of other analyzers.
func message(d *fence.Defect) (msg, fix string) {
	c, w := d.Compare, d.Write
	if c == nil || w == nil {
		return "", ""
	}
	edit := ""
	if len(d.Edits) > 0 {
		edit = d.Edits[0].NewText
	}
	switch d.Kind {
	case fence.DefectReversed:
		want := "<"
		if c.Op == ">=" {
			want = "<="
		}
		return fmt.Sprintf("fence condition of %s is reversed: %s %s %s lets a stale holder's older token through and rejects the current holder; use %s %s %s",
			w.Call, c.Text, c.Op, c.Token, c.Text, want, c.Token), fmt.Sprintf("replace %s with %s", c.OpText, edit)
	case fence.DefectInequality:
		return fmt.Sprintf("fence condition of %s compares %s %s %s: any other token passes, an older one included; the stored fence must be below the token (%s < %s)",
			w.Call, c.Text, c.Op, c.Token, c.Text, c.Token), fmt.Sprintf("replace %s with %s", c.OpText, edit)
	case fence.DefectNullBranch:
		if c.Text == c.Column || !strings.ContainsRune(c.Text, '(') {
			return fmt.Sprintf("fence condition of %s keeps the transitional %q branch: a row whose %s is NULL stays unfenced for ever; finish the backfill, make the column NOT NULL and remove the branch",
				w.Call, d.Detail, c.Text), ""
		}
		return fmt.Sprintf("fence condition of %s keeps the transitional %q default: a row whose %s is NULL stays unfenced for ever; finish the backfill, make the column NOT NULL and compare %s itself",
			w.Call, d.Detail, c.Column, c.Column), ""
	case fence.DefectStringOrder:
		return fmt.Sprintf("fence condition of %s compares %s %s %s as decimal strings, which order by character: once the token gains a digit \"10\" < \"9\", and a stale holder's older token passes; compare numbers (a revision, an N attribute) or pad the token to a fixed width (%%020d)",
			w.Call, c.Text, c.Op, c.Token), ""
	case fence.DefectOtherColumn:
		return fmt.Sprintf("fence condition of %s compares %s with the token but records the token in %s: the compared column never learns newer tokens; compare and record the same column",
			w.Call, c.Text, d.Detail), ""
	case fence.DefectNotRecorded:
		if d.Record == "" { // an item, not a statement: Detail says what it lacks
			return fmt.Sprintf("fence condition of %s compares %s with the token, but %s: the stored fence never learns newer tokens; set %s = %s in the same write",
				w.Call, c.Column, d.Detail, c.Text, c.Token), ""
		}
		if d.Replaces != "" {
			return fmt.Sprintf("fence condition of %s compares %s with the token but records %s, not the token: the stored fence does not learn the holder's token, so an older holder can still pass; set %s",
				w.Call, c.Text, d.Replaces, d.Detail), "record the token: SET " + d.Detail
		}
		return fmt.Sprintf("fence condition of %s compares %s with the token but never records it: the storage never learns the newest token, so an older holder still passes; add SET %s",
			w.Call, c.Text, d.Detail), "record the token: SET " + d.Detail
	}
	return "", ""
}
