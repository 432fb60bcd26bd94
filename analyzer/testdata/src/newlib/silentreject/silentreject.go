// Package silentreject: a fenced vstore write whose Applied() count is
// never read, and its twin that aborts on 0.
package silentreject

import (
	"context"
	"errors"

	"example.org/vstore"
)

var errSuperseded = errors.New("superseded")

const fenced = "UPDATE jobs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2"

func bad(ctx context.Context, s *vstore.Session, l *vstore.Lease, id string) error {
	_, err := s.Apply(ctx, fenced, id, l.Epoch()) // want `the result of fenced write via s.Apply is discarded: a write the fence rejected \(0 applied\) looks like success; check Applied\(\) and abort when it is 0`
	return err
}

func good(ctx context.Context, s *vstore.Session, l *vstore.Lease, id string) error {
	// ok: 0 applied rows is the rejection, and it aborts
	res, err := s.Apply(ctx, fenced, id, l.Epoch())
	if err != nil {
		return err
	}
	if res.Applied() == 0 {
		return errSuperseded
	}
	return nil
}
