package fence

import (
	"go/token"
	"sort"
)

// DefectKind names one thing wrong with a write (or with a token
// parameter or source), decided once by the engine. Each analyzer reports
// the kinds it owns and decides nothing itself: the engine is the one place
// that reads SQL, DynamoDB input, Txn compares and SSA.
type DefectKind uint8

const (
	_ DefectKind = iota

	// unfencedwrite
	DefectUnfenced     // nothing in the write's condition carries the token
	DefectRecordedOnly // the token is stored but never compared

	// fencepredicate
	DefectReversed    // the token is compared in the direction that lets a stale holder through
	DefectInequality  // "<>"/"!=" against the token: any other token passes
	DefectNullBranch  // a transitional "fence IS NULL OR ..." branch
	DefectNotRecorded // compared but never stored: the next holder compares against the old value
	DefectOtherColumn // the token is compared with a column other than the one it is recorded in
	DefectStringOrder // the token is order-compared as a decimal string: "9" > "10"

	// weaktoken
	DefectWeakToken // the compared value is not monotonic across grants

	// appcheck
	DefectAppChecked // unfenced, but guarded by a check done in Go

	// silentreject
	DefectDiscarded // the write's outcome is thrown away
	DefectUnchecked // the outcome is read but a rejection is never told apart
	DefectRetried   // a loop re-issues the write after the fence rejected it

	// optionaltoken
	DefectOptionalToken // a token parameter or field that can be left out
	DefectZeroFallback  // a branch that skips the fence when the token is zero or nil
)

// Defect is one finding-to-be: the engine's whole judgement, in data. The
// analyzer that owns Kind turns it into a diagnostic: it formats the
// message from these fields and the Write they belong to, and attaches
// Related and Edits. A Defect holds no SSA values and no closures, so the
// Model can be read by analyzers running concurrently.
type Defect struct {
	Kind DefectKind
	// Pos and End are where the diagnostic is anchored: the write call
	// (unfencedwrite, silentreject, appcheck), the literal holding the
	// predicate (fencepredicate), the token-source call (weaktoken), the
	// parameter, field or branch (optionaltoken).
	Pos, End token.Pos
	// Write is the write the defect is on; nil for defects of a token
	// parameter or field that no single write owns. For DefectZeroFallback
	// it is the unfenced fallback write when that is in a lock scope (and
	// so also an unfencedwrite finding: the same root cause).
	Write *Write
	// Category is the analyzer's stable sub-rule ("discarded",
	// "reversed", ...), empty when the analyzer has none.
	Category string
	// Detail completes the analyzer's sentence; each kind documents what
	// it holds where it is produced.
	Detail string
	// Related are the other places worth showing (the acquire, the read
	// behind an app check, the rejection branch).
	Related []Related
	// Edits is a local, mechanical fix, empty when none is safe.
	Edits []Edit
	// Compare is, for a fencepredicate defect, the comparison it is
	// about (cond.go): the column and token as written, the operator.
	Compare *CondCompare
	// Record is, for a DefectNotRecorded on a statement, the assignment
	// that would record the token ("fence = $3"); "" when the write's
	// language has no such fragment (a DynamoDB item), and Detail then
	// says what the write lacks.
	Record string
	// Replaces is, for a DefectNotRecorded whose statement assigns the
	// compared column something other than the token (SET fence =
	// fence + 1), that value as written; Edits then replace it with the
	// token's placeholder.
	Replaces string

	// Weak is, for DefectWeakToken, the weak value at its source (Pos);
	// Detail then names where it is used as a token ("the fence of SQL
	// write via db.ExecContext", "the token of lease Lease") and Category
	// is "counter", "lease-id" or "weak".
	Weak *WeakSource
	// Token is, for DefectOptionalToken and DefectZeroFallback, the token
	// parameter, field, literal or branch, in data (optdefects.go).
	Token *TokenUse
}

// Related is one secondary position of a Defect.
type Related struct {
	Pos, End token.Pos
	Message  string
}

// Edit replaces [Pos, End) with NewText; it is one analysis.TextEdit.
type Edit struct {
	Pos, End token.Pos
	NewText  string
}

// sortDefects orders defects by file name and offset, like Model.Writes.
func sortDefects(fset *token.FileSet, ds []*Defect) {
	sortByPosition(fset, ds, func(d *Defect) token.Pos { return d.Pos })
}

// sortByPosition orders xs by file name and offset, not token.Pos: drivers
// parse files in parallel, so the Pos ranges files get vary between runs.
func sortByPosition[T any](fset *token.FileSet, xs []T, pos func(T) token.Pos) {
	sort.SliceStable(xs, func(i, j int) bool {
		a, b := fset.Position(pos(xs[i])), fset.Position(pos(xs[j]))
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
}
