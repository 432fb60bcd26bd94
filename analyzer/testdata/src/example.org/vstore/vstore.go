// Package vstore is a synthetic store that no rules/ file knows: the test
// in analyzer/newlib_test.go declares it in one rules.Lib, as a new
// library's rules/ file would, and checks that all six analyzers judge
// its writes. It hands out leases with an ordered Epoch and a random
// Nonce, and runs SQL-like statements whose result counts the rows
// Applied.
package vstore

import "context"

// Client takes leases.
type Client struct{}

// Lock takes the lease on key.
func (c *Client) Lock(ctx context.Context, key string) (*Lease, error) { return &Lease{}, nil }

// Lease is a held lease.
type Lease struct{ epoch, nonce int64 }

// Epoch is strictly increasing across grants: a fencing token.
func (l *Lease) Epoch() int64 { return l.epoch }

// Nonce is random: not ordered across grants.
func (l *Lease) Nonce() int64 { return l.nonce }

// Valid is the client's own view of the lease.
func (l *Lease) Valid() bool { return true }

// Release gives the lease up.
func (l *Lease) Release(ctx context.Context) error { return nil }

// Session runs statements.
type Session struct{}

// Apply runs stmt with args; a statement whose condition matched nothing
// applies to no row, and that is not an error.
func (s *Session) Apply(ctx context.Context, stmt string, args ...any) (Result, error) {
	return Result{}, nil
}

// Result is what Apply did.
type Result struct{ n int64 }

// Applied is the number of rows the statement changed.
func (r Result) Applied() int64 { return r.n }
