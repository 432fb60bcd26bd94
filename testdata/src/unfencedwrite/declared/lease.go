// Package declared: scopes a maintainer declares with directives (issue 18
// item 5): lease types, token and lock-ID parameters, bodies that run
// under a lock they do not take, and func values holding a write or an
// acquire. Each bad case has a good twin.
package declared

import (
	"context"
	"database/sql"
)

// Ticket is a lease by directive: its name and fields say nothing to the
// heuristic. Its Seq is the fencing token.
//
//fencelint:lease
type Ticket struct {
	Name string
	Seq  uint64 //fencelint:token
}

// Release ends the ticket's scope (a method named Release on a lease).
func (t *Ticket) Release(ctx context.Context) error { return nil }

type Office struct{}

// Issue returns a held Ticket: a function returning a declared lease
// acquires it.
func (o *Office) Issue(ctx context.Context, name string) (*Ticket, error) {
	return &Ticket{Name: name}, nil
}

func ticketBad(ctx context.Context, o *Office, db *sql.DB, id string) error {
	t, err := o.Issue(ctx, "acct")
	if err != nil {
		return err
	}
	defer t.Release(ctx)
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", id) // want `SQL write via db.ExecContext to accounts under the lease Ticket from Issue is not fenced: its WHERE does not compare a fence column with the token; compare the stored fence with the lease's Seq in the write itself$`
	return err
}

func ticketGood(ctx context.Context, o *Office, db *sql.DB, id string) error {
	t, err := o.Issue(ctx, "acct")
	if err != nil {
		return err
	}
	defer t.Release(ctx)
	// ok: the write compares and records the ticket's Seq
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = 0, fence = $2 WHERE id = $1 AND fence < $2", id, t.Seq)
	return err
}

func ticketReleasedGood(ctx context.Context, o *Office, db *sql.DB, id string) error {
	t, err := o.Issue(ctx, "acct")
	if err != nil {
		return err
	}
	if err := t.Release(ctx); err != nil {
		return err
	}
	// ok: after the release the ticket's scope is over
	_, err = db.ExecContext(ctx, "UPDATE audit SET seen = true WHERE id = $1", id)
	return err
}

// A function taking a declared lease runs under it.
func ticketParamBad(ctx context.Context, db *sql.DB, t *Ticket, id string) error {
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", id) // want `under the Ticket held in parameter t is not fenced: .*; compare the stored fence with t.Seq in the write itself$`
	return err
}

func ticketParamGood(ctx context.Context, db *sql.DB, t *Ticket, id string) error {
	// ok: fenced by the parameter's token
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = 0, fence = $2 WHERE id = $1 AND fence < $2", id, t.Seq)
	return err
}

// Mutex is a lock by directive that hands out no token.
//
//fencelint:lease
type Mutex struct{ key string }

func (m *Mutex) Unlock(ctx context.Context) error { return nil }

// Lock takes the named mutex.
func Lock(ctx context.Context, key string) (*Mutex, error) { return &Mutex{key: key}, nil }

func mutexBad(ctx context.Context, db *sql.DB, id string) error {
	m, err := Lock(ctx, "acct")
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", id) // want `under the lease Mutex from Lock is not fenced: .*the lease Mutex from Lock gives no token to fence with: mint a counter in the same atomic step as the grant .*; if Mutex does carry a token, mark its field or method //fencelint:token; see https://`
	return err
}

// Grant hands out its token through a method.
//
//fencelint:lease
type Grant struct{ seq int64 }

//fencelint:token
func (g *Grant) Fence() int64 { return g.seq }

func (g *Grant) Close() error { return nil }

func Obtain(ctx context.Context, key string) (*Grant, error) { return &Grant{}, nil }

func grantBad(ctx context.Context, db *sql.DB, id string) error {
	g, err := Obtain(ctx, "acct")
	if err != nil {
		return err
	}
	defer g.Close()
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", id) // want `under the lease Grant from Obtain is not fenced: its WHERE does not compare a fence column with the token; compare the stored fence with the lease's Fence\(\) in the write itself$`
	return err
}

func grantGood(ctx context.Context, db *sql.DB, id string) error {
	g, err := Obtain(ctx, "acct")
	if err != nil {
		return err
	}
	defer g.Close()
	// ok: a lock with a token, fenced with it: the twin of mutexBad
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = 0, fence = $2 WHERE id = $1 AND fence < $2", id, g.Fence())
	return err
}
