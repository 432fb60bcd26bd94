// Package dirlock: messages for locks made by directives name the token
// they hand out (issue 18 item 7), or say that there is none.
package dirlock

import (
	"context"
	"database/sql"
)

type Svc struct{}

// Acquire takes the named lock and returns its fencing token.
//
//fencelint:acquire
func (s *Svc) Acquire(ctx context.Context, name string) (int64, error) { return 0, nil }

//fencelint:release
func (s *Svc) Release(ctx context.Context, name string) error { return nil }

// Take takes a lock that hands out no token.
//
//fencelint:acquire
func (s *Svc) Take(ctx context.Context, name string) error { return nil }

type Handle struct {
	Name string
	Seq  uint64 //fencelint:token
}

//fencelint:acquire
func (s *Svc) Grab(ctx context.Context, name string) (*Handle, error) { return nil, nil }

func Debit(ctx context.Context, s *Svc, db *sql.DB, id string) error {
	tok, err := s.Acquire(ctx, "acct")
	if err != nil {
		return err
	}
	defer s.Release(ctx, "acct")
	_ = tok
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", id) // want `under the lock acquired by Acquire is not fenced: its WHERE does not compare a fence column with the token; compare the stored fence with tok in the write itself$`
	return err
}

func DebitGood(ctx context.Context, s *Svc, db *sql.DB, id string) error {
	tok, err := s.Acquire(ctx, "acct")
	if err != nil {
		return err
	}
	defer s.Release(ctx, "acct")
	// ok: fenced with the token the directive's acquire returns
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = 0, fence = $2 WHERE id = $1 AND fence < $2", id, tok)
	return err
}

func Debit2(ctx context.Context, s *Svc, db *sql.DB, id string) error {
	if err := s.Take(ctx, "acct"); err != nil {
		return err
	}
	defer s.Release(ctx, "acct")
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", id) // want `under the lock acquired by Take is not fenced: .*the lock acquired by Take gives no token to fence with`
	return err
}

func Debit3(ctx context.Context, s *Svc, db *sql.DB, id string) error {
	h, err := s.Grab(ctx, "acct")
	if err != nil {
		return err
	}
	defer s.Release(ctx, "acct")
	_ = h
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", id) // want `under the lock acquired by Grab is not fenced: .*; compare the stored fence with h.Seq in the write itself$`
	return err
}
