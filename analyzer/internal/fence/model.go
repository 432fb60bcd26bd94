package fence

import (
	"go/token"

	"github.com/fencelint/fencelint/analyzer/internal/sqlcond"
	"golang.org/x/tools/go/ssa"
)

// Verdict is the engine's judgement of one write inside a lock scope.
type Verdict int

const (
	// Fenced: the write's own condition (or its transaction's) compares the
	// stored fence with a token-derived value in a valid direction.
	Fenced Verdict = iota
	// Unfenced: nothing in the write's condition carries the token.
	Unfenced
	// RecordedOnly: the token is stored (SET) but never compared.
	RecordedOnly
	// WrongPredicate: the token is compared, but in a way that does not
	// reject a stale holder (fencepredicate's finding).
	WrongPredicate
	// WeakToken: compared against a value that is not monotonic across
	// grants (weaktoken's finding).
	WeakToken
	// AppChecked: unfenced, but guarded by a check in Go code (appcheck's
	// finding).
	AppChecked
	// Unknown: the condition could not be read (dynamic SQL, an input
	// built elsewhere); precision first, so nobody reports it.
	Unknown
)

func (v Verdict) String() string {
	switch v {
	case Fenced:
		return "fenced"
	case Unfenced:
		return "unfenced"
	case RecordedOnly:
		return "recorded-only"
	case WrongPredicate:
		return "wrong-predicate"
	case WeakToken:
		return "weak-token"
	case AppChecked:
		return "app-checked"
	}
	return "unknown"
}

// ScopeKind says how a lock scope was opened.
type ScopeKind int

const (
	ScopeAcquire    ScopeKind = iota // after a successful acquire call
	ScopeLeaseParam                  // body of a function taking a lease or lock
	ScopeTokenParam                  // body of a function taking a token
	ScopeCallback                    // a callback run under a lock by a with-lock helper
	ScopeLeading                     // a leader-election OnStartedLeading callback
)

// Scope is one lock scope.
type Scope struct {
	Kind ScopeKind
	// Pos is where the scope opens: the acquire call, the parameter, the
	// callback registration.
	Pos token.Pos
	// Lock names the lock for messages: "etcd mutex", "lease Lease".
	Lock string
	// NoToken: the lock hands out no fencing token.
	NoToken bool
	// Token names the token where known ("lease.Token").
	Token string

	// session is the transaction or pinned connection holding a
	// PostgreSQL advisory lock: SQL written through it is protected by the
	// same transaction or session.
	session ssa.Value
}

// Write is one storage write inside a lock scope, with its verdict.
type Write struct {
	Pos, End token.Pos // the call expression
	Call     string    // the call as written: "tx.ExecContext"
	Store    string    // "SQL", "DynamoDB", "etcd", ...
	Target   string    // table, key or object where known
	Scope    *Scope
	Verdict  Verdict
	// Detail completes "is not fenced: ..." for Unfenced and RecordedOnly.
	Detail string
	// Omitted: the write is unfenced because its token was omitted (it is
	// the call given a literal 0 or nil token, or sits on the fallback
	// branch of a zero-token test). That is optionaltoken's finding, at
	// its cause; unfencedwrite and appcheck leave the write alone.
	Omitted bool
	// Guard is the Go-side check an AppChecked write sits under (nil
	// otherwise): a read-then-compare of the stored fence, or the client's
	// view of its lease (guard.go).
	Guard *Guard
	// Literal is the expression holding the write's condition: the SQL
	// argument, the ConditionExpression value. NoPos when unknown.
	Literal, LiteralEnd token.Pos
	// Instr and Func locate the write in SSA for analyzers that follow its
	// result (silentreject).
	Instr ssa.Instruction
	Func  *ssa.Function
	// Helper is set when the write happens inside a called function.
	Helper string

	// SQL is the constant SQL text of a SQL write (all statements given to
	// the call); TokenOffsets are the byte offsets in it of placeholders
	// bound to a token-derived value. The PostgreSQL proof uses them.
	SQL          string
	TokenOffsets []int
	// Compares are the comparisons of a stored column with the token in
	// the write's condition, normalised to "column Op token".
	Compares []Compare
	// Recorded are the columns or attributes the write stores the token in.
	Recorded []string
}

// Compare is one comparison of stored state with the token.
type Compare struct {
	Column   string
	Op       string
	Token    string    // the token's origin, e.g. "lease.Token"
	TokenPos token.Pos // where that value is produced
	Weak     bool
	Why      string // why a weak token is weak
}

// Origin says where a token-derived value comes from.
type Origin struct {
	Desc string    // "lease.Token", "m.Header().Revision"
	Pos  token.Pos // where the value is produced
	Weak bool      // not strictly monotonic across grants
	Why  string    // why it is weak
}

// Internal records a function the engine gave up on after a panic.
type Internal struct {
	Pos  token.Pos
	Func string
	Msg  string
}

// Model is the engine's result for one package.
type Model struct {
	// Relevant is false when the fast path skipped the package.
	Relevant bool
	// SkippedFuncs counts the function bodies of a relevant package that
	// the per-function filter found nothing lock-related in (no SSA built).
	SkippedFuncs int
	// SSAFuncs names the package-level functions and methods whose SSA
	// was built (what the filter kept), for tests of the filter.
	SSAFuncs []string
	Writes   []*Write
	// Defects is everything wrong that the engine found, in position
	// order; analyzers report the kinds they own (see DefectKind).
	Defects  []*Defect
	Internal []Internal

	// OriginOf traces a value back to its fencing token (nil: no token).
	// Nil when !Relevant.
	OriginOf func(ssa.Value) *Origin

	sql *sqlCache
}

// ParseSQL parses q with sqlcond, once per package: the engine has parsed
// most texts already. The statements are shared: callers must not modify
// them.
func (m *Model) ParseSQL(q string) ([]*sqlcond.Statement, error) {
	if m == nil || m.sql == nil {
		return sqlcond.Parse(q)
	}
	return m.sql.parse(q)
}
