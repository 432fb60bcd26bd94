package fence

import (
	"fmt"
	"go/token"
	"strings"

	"github.com/fencelint/fencelint/rules"
)

// FuncFact summarises what a function does for its callers in other
// packages. It is the only fact type on functions, so that one lookup
// answers every question about a callee.
type FuncFact struct {
	// Acquire: calling the function takes a lock; it is released by a
	// Release function or at the caller's scope end.
	Acquire bool
	// NoToken: the lock taken gives no fencing token.
	NoToken bool
	// Lock names the lock for messages ("etcd mutex via locks.Acquire").
	Lock string
	// TokenResult is the index of the result carrying the token, or -1.
	TokenResult int
	// Release: calling the function releases a lock.
	Release bool
	// Callback >= 0: the function runs its Callback'th parameter (a func)
	// while holding a lock, passing the lease or token as that func's
	// LeaseArg'th argument (-1: nothing to fence with is passed).
	Callback int
	LeaseArg int
	// Write: the function writes shared storage. FencedBy lists the
	// parameters whose token-derived value fences every write inside;
	// Unfenced, when set, describes a write inside that no parameter
	// fences. Directive marks a //fencelint:write without token=.
	Write     bool
	FencedBy  []int
	Unfenced  string
	Directive bool
	// KeyFencedBy are the FencedBy parameters that fence only by naming
	// the object written (an S3 key built from them): a random value
	// there (a UUID temp name) makes each write a new object.
	KeyFencedBy []int
	// Weak: a write inside is "fenced" only by a value the function
	// mints itself that is not monotonic across grants (a wall-clock
	// reading, a random number); no parameter fences it. Weak is that
	// value as written, WeakWhy why it is weak, WeakKind and WeakIssuer
	// its rules.Weakness and issuing store. Callers in a lock scope are
	// told weaktoken, not nothing (issue 18).
	Weak       string
	WeakWhy    string
	WeakKind   rules.Weakness
	WeakIssuer string
	// port, for a write inferred from an application interface's method
	// whose implementation is not visible (portWrite), is the
	// interface's name; never exported (such a fact is made per call).
	port string
	// weakPos is where Weak is produced, known only for this package's
	// functions (unexported: not part of the exported fact).
	weakPos, weakEnd token.Pos
	// CreateOnly: every unfenced write inside only creates what does not
	// exist yet (ZooKeeper Create, plain SQL INSERT), so it cannot
	// overwrite a newer holder's data (optionaltoken's create-if-absent
	// branches).
	CreateOnly bool
	// Token: the function (a method) returns the fencing token.
	Token bool
	// TokenParams lists parameters that carry a fencing token (token-named,
	// or bound to a fence in a write), so callers in other packages that
	// pass a literal 0 or nil can be told (optionaltoken).
	TokenParams []int
	// Resources are the resources the function writes, directly or
	// through helpers, as "store\ttarget" (target empty when unknown),
	// sorted: the fence map lists a helper's tables under its caller's
	// lock.
	Resources []string
	// RowsResult, NoRowsResult (index + 1; 0: none): the result of a
	// write helper fenced by a parameter that carries its store's
	// rejection, a RowsAffected() count (sqlc's :execrows) or the Scan
	// error of an UPDATE ... RETURNING (sqlc's :one); its callers' handling
	// of it is judged (helperoutcome.go).
	RowsResult, NoRowsResult int
	// NoReturn: the function never returns (it ends in os.Exit, log.Fatal,
	// t.Fatal, a panic, or another such wrapper). Other packages' SSA ends
	// a path at its calls. It is exported even where nothing else is, and
	// alone it does not make a package relevant.
	NoReturn bool
	// Constructed: the acquire is a constructor of a heuristic lease type
	// (NewLease) or wraps one: it asks no lock service, so a call of it in
	// a _test.go file builds a fixture and opens no scope.
	Constructed bool
	// OwnLock: the lock is the application's own, made by a
	// create-if-absent write (createlock.go), directly or through a
	// wrapper: a _test.go file that takes it tests that lock (it deletes
	// the lock item out of band, overwrites the lock file), so it opens no
	// scope there.
	OwnLock bool
	// Forwards: writes whose statement, script or arguments are the
	// function's parameters (exec(ctx, q, args...)); each call site judges
	// them with its own constants and arguments (forward.go).
	Forwards []Forward
}

func (*FuncFact) AFact() {}

func (f *FuncFact) String() string {
	var parts []string
	if f.Acquire {
		s := "acquire"
		if f.NoToken {
			s += "(notoken)"
		} else if f.TokenResult >= 0 {
			s += fmt.Sprintf("(token=%d)", f.TokenResult)
		}
		parts = append(parts, s)
	}
	if f.Release {
		parts = append(parts, "release")
	}
	if f.Callback >= 0 {
		parts = append(parts, fmt.Sprintf("withlock(%d,%d)", f.Callback, f.LeaseArg))
	}
	if f.Write {
		s := "write"
		if len(f.FencedBy) > 0 {
			s += fmt.Sprintf("(fencedby=%v)", f.FencedBy)
		}
		if f.Unfenced != "" {
			s += "(unfenced)"
		}
		if f.Weak != "" {
			s += "(weak)"
		}
		if f.CreateOnly {
			s += "(createonly)"
		}
		if f.RowsResult > 0 {
			s += fmt.Sprintf("(rows=%d)", f.RowsResult-1)
		}
		if f.NoRowsResult > 0 {
			s += fmt.Sprintf("(norows=%d)", f.NoRowsResult-1)
		}
		parts = append(parts, s)
	}
	if f.Token {
		parts = append(parts, "token")
	}
	if len(f.TokenParams) > 0 {
		parts = append(parts, fmt.Sprintf("tokenparams=%v", f.TokenParams))
	}
	if f.NoReturn {
		parts = append(parts, "noreturn")
	}
	for _, fw := range f.Forwards {
		parts = append(parts, fw.String())
	}
	return strings.Join(parts, " ")
}

// isZero reports whether the fact says nothing and need not be exported;
// NoReturn aside, which the engine keeps apart (noreturn.go).
func (f *FuncFact) isZero() bool {
	return !f.Acquire && !f.Release && f.Callback < 0 && !f.Write && !f.Token && len(f.TokenParams) == 0 && len(f.Forwards) == 0
}

func newFuncFact() *FuncFact { return &FuncFact{TokenResult: -1, Callback: -1, LeaseArg: -1} }

// TokenFieldFact marks a struct field declared //fencelint:token.
type TokenFieldFact struct{}

func (*TokenFieldFact) AFact()         {}
func (*TokenFieldFact) String() string { return "token" }

// CallbackFieldFact marks a func-typed struct field whose value a function
// of the field's package registers as a lock callback (client-go's
// OnStartedLeading) or forwards to another such field: an application's
// own election config (RunConfig{OnStartedLeading: fn} handed to a
// wrapper of leaderelection.RunOrDie). A function stored in it runs under
// the lock, like one stored in the library's field.
type CallbackFieldFact struct {
	Lock    string
	NoToken bool
}

func (*CallbackFieldFact) AFact() {}
func (f *CallbackFieldFact) String() string {
	return "callback field: " + f.Lock
}

// PackageFact marks a package that exports fencelint facts or declares a
// lease type: importing it makes a package relevant.
type PackageFact struct{}

func (*PackageFact) AFact()         {}
func (*PackageFact) String() string { return "fencelint" }
