// Package unfencedwrite: kvs writes under a kvs lease, blind and
// versioned.
package unfencedwrite

import (
	"context"

	"example.org/kvs"
)

func badPut(ctx context.Context, c *kvs.Client, v []byte) error {
	l, err := c.Lock(ctx, "config")
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	return c.Put(ctx, "config", v, -1) // want `kvs write via c.Put to config under the kvs lock is not fenced`
}

func badDelete(ctx context.Context, c *kvs.Client) error {
	l, err := c.Lock(ctx, "config")
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	return c.Delete(ctx, "config") // want `kvs write via c.Delete to config under the kvs lock is not fenced`
}

func goodPut(ctx context.Context, c *kvs.Client, v []byte, ver int64) error {
	l, err := c.Lock(ctx, "config")
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	// ok: a compare-and-set on the version
	return c.Put(ctx, "config", v, ver)
}
