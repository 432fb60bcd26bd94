// Package appcheck: a vstore write guarded only by the client's view of
// its lease, and its twin whose write is fenced as well.
package appcheck

import (
	"context"
	"errors"

	"example.org/vstore"
)

var errSuperseded = errors.New("superseded")

func bad(ctx context.Context, s *vstore.Session, l *vstore.Lease, id string) error {
	if !l.Valid() { // want `client-side lease check l.Valid\(\) guards the vstore write via s.Apply`
		return errSuperseded
	}
	_, err := s.Apply(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id)
	return err
}

func good(ctx context.Context, s *vstore.Session, l *vstore.Lease, id string) error {
	if !l.Valid() {
		return errSuperseded
	}
	// ok: the write itself is fenced
	res, err := s.Apply(ctx, "UPDATE jobs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2", id, l.Epoch())
	if err != nil {
		return err
	}
	if res.Applied() == 0 {
		return errSuperseded
	}
	return nil
}
