// Package kvs is the synthetic store of docs/adding-a-library.md, declared
// only in analyzer/newlib_test.go: a lease with an ordered Epoch, a Put
// that is a compare-and-set on a version (version -1: unconditional)
// answering a stale version with ErrConflict, and a blind Delete.
package kvs

import (
	"context"
	"errors"
)

// ErrConflict is Put's answer to a version that no longer matches.
var ErrConflict = errors.New("kvs: version conflict")

// Client talks to the store.
type Client struct{}

// Lock takes the lease on key.
func (c *Client) Lock(ctx context.Context, key string) (*Lease, error) { return &Lease{}, nil }

// Put stores value at key if its version is still version (-1: always).
func (c *Client) Put(ctx context.Context, key string, value []byte, version int64) error {
	return nil
}

// Delete removes key.
func (c *Client) Delete(ctx context.Context, key string) error { return nil }

// Get reads key and its version.
func (c *Client) Get(ctx context.Context, key string) ([]byte, int64, error) { return nil, 0, nil }

// Lease is a held lease.
type Lease struct{ epoch int64 }

// Epoch is strictly increasing across grants.
func (l *Lease) Epoch() int64 { return l.epoch }

// ID is random.
func (l *Lease) ID() int64 { return 0 }

// Valid is the client's own view of the lease.
func (l *Lease) Valid() bool { return true }

// KeepAlive extends the lease.
func (l *Lease) KeepAlive(ctx context.Context) error { return nil }

// Release gives the lease up.
func (l *Lease) Release(ctx context.Context) error { return nil }
