package fence

import (
	"go/token"

	"github.com/fencelint/fencelint/analyzer/internal/directive"
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
	ScopeAcquire     ScopeKind = iota // after a successful acquire call
	ScopeLeaseParam                   // body of a function taking a lease or lock
	ScopeTokenParam                   // body of a function taking a token
	ScopeCallback                     // a callback run under a lock by a with-lock helper
	ScopeLeading                      // a leader-election OnStartedLeading callback
	ScopeHeld                         // a body declared to run under a lock its caller holds (//fencelint:holds, //fencelint:token ID)
	ScopeLeaderCheck                  // code that runs only where "am I the leader?" said yes (leadercheck.go)
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
	// Hint, for a lock without a token that a directive declared, says
	// how to tell fencelint about a token it may carry after all.
	Hint string
	// Withheld, with NoToken, for a callback run by a with-lock helper:
	// the helper's lock has a token, but the helper does not pass it to
	// the callback, so the fix is in the helper, not at the grant.
	Withheld bool
	// Key is the lock's key where it is a constant or has a constant
	// prefix ("/locks/account/*"); empty otherwise (the fence map).
	Key string
	// Source says what made this a lock scope, for the fence map:
	// "library: (*concurrency.Mutex).Lock", "acquire wrapper locks.Take",
	// "heuristic: lease-shaped type Lease", ...
	Source string

	// outer is the scope of the lock that was held when this one was
	// taken (nested locks): a write is cited under the innermost scope,
	// and outer keeps what the enclosing locks protect (an advisory
	// lock's session).
	outer *Scope
}

// NoTokenClause says, for a scope with NoToken, why no token is there to
// fence with: "the etcd mutex gives no token to fence with", or, for a
// callback whose helper withholds its lock's token, "the lock held by
// s.withMutex has a token, but the helper does not pass it to the
// callback".
func (s *Scope) NoTokenClause() string {
	if s.Withheld {
		return "the " + s.Lock + " has a token, but the helper does not pass it to the callback"
	}
	return "the " + s.Lock + " gives no token to fence with"
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
	// Helper is set when the write happens inside a called function;
	// Resources are then what the helper writes ("store\ttarget").
	Helper    string
	Resources []string
	// HelperScope: the helper is itself a scope on the lease or lock it is
	// passed, so its writes are also listed where they happen.
	HelperScope bool
	// KeyPattern is, when Target is empty, the key or object the write
	// addresses as a constant or constant prefix ("jobs/*"), recorded only
	// with -fencelint_fence.fencemap.
	KeyPattern string

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

	// Etcd and Redis are the concrete shape of an etcd or Redis write as
	// read (shape.go), for the store proofs; nil for other stores.
	Etcd  *EtcdShape
	Redis *RedisShape
	// Outcome is how a rejection by the fence reaches the caller and what
	// the caller does with it (OutcomeNone when not judged; outcome.go).
	Outcome Outcome
	// Cond is the write's own condition as the engine read it (cond.go);
	// never nil.
	Cond *Condition
	// Claim: the write is a SQL lease-table claim, the acquire of a lock
	// (leasetable.go). It is not in Model.Writes; it appears only as the
	// Write of a defect on its outcome: a claim whose refusal (0 rows,
	// ErrNoRows) is never looked at.
	Claim bool
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

// Claim is one SQL statement that claims a row of a lease table.
type Claim struct {
	Pos, End token.Pos // the call expression
	SQL      string
	Table    string
	// Holder is the holder column the claim sets; Minted the column it
	// mints its token in and RETURNs ("" when it hands out none).
	Holder, Minted string
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
	// DirectiveProblems are the //fencelint: directives that do nothing
	// where they stand; set even when the package is not Relevant.
	DirectiveProblems []DirectiveProblem
	// Unscoped are the writes outside any lock scope (store and target
	// only), recorded only with -fencelint_fence.fencemap: the fence map
	// calls out resources written both under a lock and outside one.
	Unscoped []UnscopedWrite
	// Blind are the calls inside lock scopes the engine could not judge
	// (see BlindCall), recorded only with -fencelint_fence.fencemap.
	Blind []BlindCall
	// Protected are the SQL writes inside lock scopes that run on the
	// session holding the scope's database lock (ProtectedWrite),
	// recorded only with -fencelint_fence.fencemap.
	Protected []ProtectedWrite
	// Claims are the SQL lease-table claims the engine took for acquires
	// (leasetable.go), with their constant SQL: the PostgreSQL proof plays
	// each as a lock. Claims run through a forwarding helper are left out.
	Claims []Claim
	// Ignores are the package's //fencelint:ignore directives, parsed
	// once for every analyzer: each takes its own view with For(), which
	// keeps that analyzer's used-marks. Nil when !Relevant.
	Ignores *directive.IgnoreSet
}
