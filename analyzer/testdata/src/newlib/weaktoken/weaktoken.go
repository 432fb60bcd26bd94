// Package weaktoken: a vstore write fenced with the lease's random Nonce,
// and its twin fenced with the Epoch.
package weaktoken

import (
	"context"
	"errors"

	"example.org/vstore"
)

var errSuperseded = errors.New("superseded")

func bad(ctx context.Context, s *vstore.Session, l *vstore.Lease, id string) error {
	res, err := s.Apply(ctx, "UPDATE jobs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2", id, l.Nonce()) // want `l.Nonce\(\) is not a monotonic fencing token: Nonce\(\) is random`
	if err != nil {
		return err
	}
	if res.Applied() == 0 {
		return errSuperseded
	}
	return nil
}

func good(ctx context.Context, s *vstore.Session, l *vstore.Lease, id string) error {
	// ok: the Epoch is ordered across grants
	res, err := s.Apply(ctx, "UPDATE jobs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2", id, l.Epoch())
	if err != nil {
		return err
	}
	if res.Applied() == 0 {
		return errSuperseded
	}
	return nil
}
