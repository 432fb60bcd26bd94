// Package leasefixture: a lease built by a constructor is a held lease in
// the code, and a fixture in the code's tests (fixture_test.go).
package leasefixture

import (
	"context"
	"database/sql"
	"time"
)

// Lease is lease-shaped by its expiry; it carries no token.
type Lease struct {
	expireAt time.Time
}

// NewLease builds a lease; the code holds it while it works on a job.
func NewLease(expireAt time.Time) *Lease { return &Lease{expireAt: expireAt} }

// NewLeaseAt wraps the constructor, as a test helper package would.
func NewLeaseAt(d time.Duration) *Lease { return NewLease(time.Now().Add(d)) }

type Locker struct{}

// Acquire asks the lock service: in a test too, what follows runs under it.
func (*Locker) Acquire(ctx context.Context, key string) (*Lease, error) { return &Lease{}, nil }

func (*Locker) Release(ctx context.Context, l *Lease) error { return nil }

func process(ctx context.Context, db *sql.DB, id int64) error {
	l := NewLease(time.Now().Add(time.Minute))
	_ = l
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id) // want `SQL write via db.ExecContext to jobs under the lease Lease from NewLease is not fenced`
	return err
}
