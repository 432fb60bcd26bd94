// Package silentreject: the outcome of a versioned kvs Put is its error,
// ErrConflict, as declared; thrown away or retried, and handled.
package silentreject

import (
	"context"
	"errors"

	"example.org/kvs"
)

var errSuperseded = errors.New("superseded")

func discarded(ctx context.Context, c *kvs.Client, l *kvs.Lease, v []byte, ver int64) {
	_ = c.Put(ctx, "config", v, ver) // want `the error of fenced write via c.Put is discarded: a failed condition \(kvs.ErrConflict\)`
}

func retried(ctx context.Context, c *kvs.Client, l *kvs.Lease, v []byte, ver int64) error {
	for {
		err := c.Put(ctx, "config", v, ver) // want `fenced write via c.Put is re-issued after the fence rejected it \(kvs.ErrConflict\)`
		if errors.Is(err, kvs.ErrConflict) {
			continue
		}
		return err
	}
}

func aborts(ctx context.Context, c *kvs.Client, l *kvs.Lease, v []byte, ver int64) error {
	// ok: ErrConflict aborts
	err := c.Put(ctx, "config", v, ver)
	if errors.Is(err, kvs.ErrConflict) {
		return errSuperseded
	}
	return err
}
