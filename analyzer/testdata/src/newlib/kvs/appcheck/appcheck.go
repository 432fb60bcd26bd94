// Package appcheck: a blind kvs write guarded by the client's view of its
// lease, and its twin whose write is versioned.
package appcheck

import (
	"context"
	"errors"

	"example.org/kvs"
)

var errExpired = errors.New("lease expired")

func bad(ctx context.Context, c *kvs.Client, l *kvs.Lease, v []byte) error {
	if !l.Valid() { // want `client-side lease check l.Valid\(\) guards the kvs write via c.Put`
		return errExpired
	}
	return c.Put(ctx, "config", v, -1)
}

func good(ctx context.Context, c *kvs.Client, l *kvs.Lease, v []byte, ver int64) error {
	if !l.Valid() {
		return errExpired
	}
	// ok: the write itself is a compare-and-set
	return c.Put(ctx, "config", v, ver)
}
