// Package app calls the store's helpers under a lock.
package app

import (
	"context"

	"weaktoken/dirwrite/store"
)

type Svc struct{}

//fencelint:acquire
func (s *Svc) Acquire(ctx context.Context, name string) (int64, error) { return 0, nil }

//fencelint:release
func (s *Svc) Release(ctx context.Context, name string) error { return nil }

func SaveNowBad(ctx context.Context, s *Svc, st *store.Store) error {
	if _, err := s.Acquire(ctx, "a"); err != nil {
		return err
	}
	defer s.Release(ctx, "a")
	return st.SaveNow(ctx, "k", nil) // want `time.Now\(\).UnixNano\(\) \(in SaveNow\) is not a monotonic fencing token: wall-clock time .*; it is used as the fence of storage write via st.SaveNow`
}

func SaveAtGood(ctx context.Context, s *Svc, st *store.Store) error {
	tok, err := s.Acquire(ctx, "a")
	if err != nil {
		return err
	}
	defer s.Release(ctx, "a")
	// ok: the lock's token reaches the helper's forwarded version
	return st.SaveAt(ctx, "k", nil, tok)
}
