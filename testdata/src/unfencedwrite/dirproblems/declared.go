package dirproblems

import (
	"context"
	"database/sql"
	"time"
)

// want +1 `//fencelint:holds does nothing on a type declaration: it goes on a function or a method with a body`
//fencelint:holds
type Worker struct{ db *sql.DB }

// ok: on the method that runs under the lock
//
//fencelint:holds
func (w *Worker) Run(ctx context.Context) error { return nil }

// want +1 `//fencelint:token seqq does nothing: Apply has no parameter seqq \(its parameters: ctx, id, seq\)`
//fencelint:token seqq
func Apply(ctx context.Context, id string, seq int64) error { return nil }

// ok: names the parameter
//
//fencelint:token seq
func ApplyGood(ctx context.Context, id string, seq int64) error { return nil }

// want +1 `//fencelint:token at does nothing: parameter at is a time.Time; it must be the integer fencing token or the lock's string ID`
//fencelint:token at
func ApplyAt(ctx context.Context, at time.Time) error { return nil }

// want +1 `//fencelint:holds token=epoc does nothing: Tick has no parameter epoc \(its parameters: ctx, epoch\)`
//fencelint:holds token=epoc
func Tick(ctx context.Context, epoch int64) error { return nil }

// want +1 `//fencelint:holds token=owner does nothing: parameter owner is a string, and a fencing token is an integer that grows with every grant`
//fencelint:holds token=owner
func TickOwner(ctx context.Context, owner string) error { return nil }

// ok: an integer token parameter
//
//fencelint:holds token=epoch
func TickGood(ctx context.Context, epoch int64) error { return nil }

type Runner interface {
	// want +1 `//fencelint:holds on interface method Step does nothing: it goes on a function or method with a body, the code that runs under the lock`
	//fencelint:holds
	Step(ctx context.Context) error
	// want +1 `//fencelint:token seq on interface method Save does nothing: it goes on the function or method whose body runs under the lock`
	//fencelint:token seq
	Save(ctx context.Context, seq int64) error
}

// want +1 `//fencelint:lease does nothing on a function: it goes on the lease's type`
//fencelint:lease
func NewTicket() *Ticket { return nil }

// ok: on the type
//
//fencelint:lease
type Ticket struct{ Seq int64 }

// want +1 `//fencelint:lease on Locking does nothing: it goes on a named struct \(or other concrete\) type whose values are held leases; for an interface, mark its methods //fencelint:acquire and //fencelint:release`
//fencelint:lease
type Locking interface{ Lock() }

// ExpiringLease is a lease by its name and fields already.
//
// want +1 `//fencelint:lease on ExpiringLease does nothing: fencelint already takes ExpiringLease for a lease \(its name and fields say so\)`
//fencelint:lease
type ExpiringLease struct {
	Token     int64
	ExpiresAt time.Time
}

type Job struct {
	// want +1 `//fencelint:token seq does nothing on a struct field: on a field the directive takes no argument \(//fencelint:token\); the PARAM form goes on a function`
	Seq int64 //fencelint:token seq
	// want +1 `//fencelint:holds does nothing on a field: it goes on a function or a method with a body`
	Run func(ctx context.Context) error //fencelint:holds
	// ok: a func-typed field holding the write
	Save func(ctx context.Context, id string, seq int64) error //fencelint:write token=seq
	// want +1 `//fencelint:write token=sq does nothing: Store has no parameter sq \(its parameters: ctx, id, seq\)`
	Store func(ctx context.Context, id string, seq int64) error //fencelint:write token=sq
}

// want +1 `//fencelint:lease does nothing on a variable: it goes on a type declaration`
//fencelint:lease
var defaultTicket Ticket

// ok: a func variable holding the acquire
//
//fencelint:acquire
var AcquireHook func(ctx context.Context, key string) (int64, error)

// want +1 `//fencelint:acquire on variable limit of type int does nothing: on a variable it goes only where the variable holds a function \(a func type\)`
//fencelint:acquire
var limit int

// Unlock releases the lock named by id: the ID is the lock API's own.
//
//fencelint:release
// want +1 `//fencelint:token does nothing on Unlock: it is marked //fencelint:acquire or //fencelint:release, and a lock API's own writes are its bookkeeping; put it on the code that runs under the lock`
//fencelint:token id
func Unlock(ctx context.Context, id string) error { return nil }

var _ = defaultTicket
var _ = limit
