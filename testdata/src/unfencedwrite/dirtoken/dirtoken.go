// Package dirtoken: a //fencelint:write without token= does not take a
// random key or a timestamp in the payload for the token (issue 18 item 3).
package dirtoken

import (
	"context"
	"time"

	"github.com/google/uuid"
)

type Svc struct{}

//fencelint:acquire
func (s *Svc) Acquire(ctx context.Context, name string) (int64, error) { return 0, nil }

//fencelint:release
func (s *Svc) Release(ctx context.Context, name string) error { return nil }

type Store struct{}

//fencelint:write
func (st *Store) Put(ctx context.Context, key string, v []byte) error { return nil }

func RandomKeyBad(ctx context.Context, s *Svc, st *Store) error {
	tok, err := s.Acquire(ctx, "a")
	if err != nil {
		return err
	}
	defer s.Release(ctx, "a")
	_ = tok
	return st.Put(ctx, uuid.NewString(), []byte(time.Now().String())) // want `storage write via st.Put under the lock acquired by Acquire is not fenced: no fencing token is passed to Put; compare the stored fence with tok in the write itself$`
}

func RandomKeyGood(ctx context.Context, s *Svc, st *Store) error {
	tok, err := s.Acquire(ctx, "a")
	if err != nil {
		return err
	}
	defer s.Release(ctx, "a")
	// ok: the token is in the key
	return st.Put(ctx, uuid.NewString()+"@"+time.Unix(tok, 0).String(), nil)
}
