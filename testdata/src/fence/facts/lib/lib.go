// Package lib exports one fact of each kind; analysistest checks that exactly these are exported. // want package:"fencelint" package:"impls Service"
package lib

import (
	"context"
	"database/sql"
)

type Service struct{ db *sql.DB }

// Acquire returns the fencing token.
//
//fencelint:acquire
func (s *Service) Acquire(ctx context.Context, name string) (int64, error) { // want Acquire:"acquire\\(token=0\\)"
	return 0, nil
}

//fencelint:release
func (s *Service) Release(ctx context.Context, name string) error { return nil } // want Release:"release"

// WithLock runs fn under the lock, handing it the token.
func (s *Service) WithLock(ctx context.Context, name string, fn func(ctx context.Context, tok int64) error) error { // want WithLock:"withlock\\(2,1\\)"
	tok, err := s.Acquire(ctx, name)
	if err != nil {
		return err
	}
	defer s.Release(ctx, name)
	return fn(ctx, tok)
}

// Save writes without a fence.
func Save(ctx context.Context, db *sql.DB, id string) error { // want Save:"write\\(unfenced\\)"
	_, err := db.ExecContext(ctx, "UPDATE t SET v = 1 WHERE id = $1", id)
	return err
}

// Insert only creates rows: unfenced, but it cannot overwrite.
func Insert(ctx context.Context, db *sql.DB, id string) error { // want Insert:"write\\(unfenced\\)\\(createonly\\)"
	_, err := db.ExecContext(ctx, "INSERT INTO t (id, v) VALUES ($1, 1)", id)
	return err
}

// SaveAt is fenced by its version parameter.
func SaveAt(ctx context.Context, db *sql.DB, id string, version int64) error { // want SaveAt:"write\\(fencedby=\\[3\\]\\) tokenparams=\\[3\\]"
	_, err := db.ExecContext(ctx, "UPDATE t SET v = 1, version = $2 WHERE id = $1 AND version < $2", id, version)
	return err
}

// Handle carries its token in a marked field.
type Handle struct {
	//fencelint:token
	Seq uint64 // want Seq:"token"
}

// Read only reads: no fact.
func Read(ctx context.Context, db *sql.DB, id string) error {
	return db.QueryRowContext(ctx, "SELECT v FROM t WHERE id = $1", id).Err()
}

// Unlock releases an advisory lock: inferred as a release wrapper.
func (s *Service) Unlock(ctx context.Context, key int64) error { // want Unlock:"release"
	_, err := s.db.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", key)
	return err
}

// Must ends in a panic: a no-return fact next to the others.
func Must(err error) { // want Must:"noreturn"
	panic(err)
}
