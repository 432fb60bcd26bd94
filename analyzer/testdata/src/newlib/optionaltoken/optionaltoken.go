// Package optionaltoken: a helper whose fencing token, used in a vstore
// write's condition, is a pointer a caller can leave nil; and its twin
// taking the token by value.
package optionaltoken

import (
	"context"
	"errors"

	"example.org/vstore"
)

var errSuperseded = errors.New("superseded")

const fenced = "UPDATE jobs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2"

func SaveBad(ctx context.Context, s *vstore.Session, id string, fence *int64) error { // want `fencing token parameter fence of SaveBad is a pointer`
	if fence == nil {
		return nil
	}
	res, err := s.Apply(ctx, fenced, id, *fence)
	if err != nil {
		return err
	}
	if res.Applied() == 0 {
		return errSuperseded
	}
	return nil
}

// ok: the token is taken by value
func SaveGood(ctx context.Context, s *vstore.Session, id string, fence int64) error {
	res, err := s.Apply(ctx, fenced, id, fence)
	if err != nil {
		return err
	}
	if res.Applied() == 0 {
		return errSuperseded
	}
	return nil
}
