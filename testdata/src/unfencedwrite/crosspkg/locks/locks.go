// Package locks is an in-house lock API taught to fencelint by directives
// and recognised across packages through facts.
package locks

import (
	"context"
	"database/sql"
)

type Service struct{ db *sql.DB }

// Acquire takes the named lock and returns its fencing token.
//
//fencelint:acquire
func (s *Service) Acquire(ctx context.Context, name string) (int64, error) {
	var tok int64
	err := s.db.QueryRowContext(ctx, "UPDATE lock_epochs SET epoch = epoch + 1 WHERE name = $1 RETURNING epoch", name).Scan(&tok)
	return tok, err
}

// Release releases the named lock.
//
//fencelint:release
func (s *Service) Release(ctx context.Context, name string) error { return nil }

// Handle is a lock handle whose token field is marked by a directive.
type Handle struct {
	Name string
	Seq  uint64 //fencelint:token
}

// TakeHandle returns a handle.
//
//fencelint:acquire
func (s *Service) TakeHandle(ctx context.Context, name string) (*Handle, error) {
	return &Handle{Name: name}, nil
}

// WithLock runs fn while holding the lock, handing it the token.
func (s *Service) WithLock(ctx context.Context, name string, fn func(ctx context.Context, tok int64) error) error {
	tok, err := s.Acquire(ctx, name)
	if err != nil {
		return err
	}
	defer s.Release(ctx, name)
	return fn(ctx, tok)
}
