// Package fencepredicate: a vstore write that compares the Epoch the
// wrong way, and its twin.
package fencepredicate

import (
	"context"
	"errors"

	"example.org/vstore"
)

var errSuperseded = errors.New("superseded")

func bad(ctx context.Context, s *vstore.Session, l *vstore.Lease, id string) error {
	res, err := s.Apply(ctx, "UPDATE jobs SET state = 'done', fence = $2 WHERE id = $1 AND fence > $2", id, l.Epoch()) // want `fence condition of s.Apply is reversed: fence > \$2 lets a stale holder`
	if err != nil {
		return err
	}
	if res.Applied() == 0 {
		return errSuperseded
	}
	return nil
}

func good(ctx context.Context, s *vstore.Session, l *vstore.Lease, id string) error {
	// ok: the stored fence must be below the Epoch
	res, err := s.Apply(ctx, "UPDATE jobs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2", id, l.Epoch())
	if err != nil {
		return err
	}
	if res.Applied() == 0 {
		return errSuperseded
	}
	return nil
}
