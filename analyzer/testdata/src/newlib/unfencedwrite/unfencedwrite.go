// Package unfencedwrite: a vstore write under a vstore lease whose own
// condition does not compare the lease's Epoch, and its fenced twin.
package unfencedwrite

import (
	"context"

	"example.org/vstore"
)

func bad(ctx context.Context, c *vstore.Client, s *vstore.Session, id string) error {
	l, err := c.Lock(ctx, "jobs")
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	_, err = s.Apply(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id) // want `vstore write via s.Apply to jobs under the vstore lock is not fenced`
	return err
}

func good(ctx context.Context, c *vstore.Client, s *vstore.Session, id string) error {
	l, err := c.Lock(ctx, "jobs")
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	// ok: the statement compares and records the Epoch
	res, err := s.Apply(ctx, "UPDATE jobs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2", id, l.Epoch())
	if err != nil {
		return err
	}
	if res.Applied() == 0 {
		return context.Canceled
	}
	return nil
}
