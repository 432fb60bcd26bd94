// Package dirwrite: a //fencelint:write without token= never takes a
// wall-clock reading or a random value for the token, and a helper that
// fences with one tells its callers (issue 18 item 3).
package dirwrite

import (
	"context"
	"math/rand"
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
func (st *Store) Put(ctx context.Context, key string, v []byte, ver int64) error { return nil }

//fencelint:write token=ver
func (st *Store) PutAt(ctx context.Context, key string, v []byte, ver int64) error { return nil }

func ClockBad(ctx context.Context, s *Svc, st *Store) error {
	if _, err := s.Acquire(ctx, "a"); err != nil {
		return err
	}
	defer s.Release(ctx, "a")
	return st.Put(ctx, "k", nil, time.Now().Unix()) // want `time.Now\(\).Unix\(\) is not a monotonic fencing token: wall-clock time .*; it is used as the fence of storage write via st.Put`
}

func ClockGood(ctx context.Context, s *Svc, st *Store) error {
	tok, err := s.Acquire(ctx, "a")
	if err != nil {
		return err
	}
	defer s.Release(ctx, "a")
	// ok: the lock's token
	return st.Put(ctx, "k", nil, tok)
}

// The random integer is reported, not the UUID key that comes first.
func RandomBad(ctx context.Context, s *Svc, st *Store) error {
	if _, err := s.Acquire(ctx, "a"); err != nil {
		return err
	}
	defer s.Release(ctx, "a")
	return st.Put(ctx, uuid.NewString(), nil, rand.Int63()) // want `rand.Int63\(\) is not a monotonic fencing token: a random number`
}

// ok: a timestamp in the payload does not hide the token that follows it
func StampGood(ctx context.Context, s *Svc, st *Store) error {
	tok, err := s.Acquire(ctx, "a")
	if err != nil {
		return err
	}
	defer s.Release(ctx, "a")
	return st.Put(ctx, "k", []byte(time.Now().String()), tok)
}

// ok: the token wins over a clock reading passed before it
func ClockThenTokenGood(ctx context.Context, s *Svc, st *Store, key string) error {
	tok, err := s.Acquire(ctx, "a")
	if err != nil {
		return err
	}
	defer s.Release(ctx, "a")
	return st.Put(ctx, key+time.Now().Format(time.RFC3339), []byte{byte(time.Now().Unix())}, tok)
}

// save mints its own "token" from the clock; its summary must not hide
// that from callers under a lock.
func (st *Store) save(ctx context.Context, key string, v []byte) error {
	return st.Put(ctx, key, v, time.Now().UnixNano()) // want `time.Now\(\).UnixNano\(\) is not a monotonic fencing token: .*; it is used as the fence of storage write via st.save`
}

func HelperClockBad(ctx context.Context, s *Svc, st *Store) error {
	if _, err := s.Acquire(ctx, "a"); err != nil {
		return err
	}
	defer s.Release(ctx, "a")
	return st.save(ctx, "k", nil)
}

func (st *Store) saveAt(ctx context.Context, key string, v []byte, ver int64) error {
	return st.Put(ctx, key, v, ver)
}

func PassClockBad(ctx context.Context, s *Svc, st *Store) error {
	if _, err := s.Acquire(ctx, "a"); err != nil {
		return err
	}
	defer s.Release(ctx, "a")
	return st.saveAt(ctx, "k", nil, time.Now().UnixNano()) // want `time.Now\(\).UnixNano\(\) is not a monotonic fencing token: .*; it is used as the fence of storage write via st.saveAt`
}

func PassTokenGood(ctx context.Context, s *Svc, st *Store) error {
	tok, err := s.Acquire(ctx, "a")
	if err != nil {
		return err
	}
	defer s.Release(ctx, "a")
	// ok: the token reaches the helper's forwarded version
	return st.saveAt(ctx, "k", nil, tok)
}

// stamp passes the clock to the marked token parameter.
func (st *Store) stamp(ctx context.Context, key string) error {
	return st.PutAt(ctx, key, nil, time.Now().UnixMilli()) // want `time.Now\(\).UnixMilli\(\) is not a monotonic fencing token: .*; it is used as the fence of storage write via st.stamp`
}

func MarkedClockBad(ctx context.Context, s *Svc, st *Store) error {
	if _, err := s.Acquire(ctx, "a"); err != nil {
		return err
	}
	defer s.Release(ctx, "a")
	return st.stamp(ctx, "k")
}

func MarkedTokenGood(ctx context.Context, s *Svc, st *Store) error {
	tok, err := s.Acquire(ctx, "a")
	if err != nil {
		return err
	}
	defer s.Release(ctx, "a")
	// ok: the marked parameter gets the token
	return st.PutAt(ctx, "k", nil, tok)
}
