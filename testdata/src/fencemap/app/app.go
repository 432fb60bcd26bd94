// Package app is the fence map's test case: locks, the resources written
// under them, a table written by two locks and outside any lock, and the
// blind spots a maintainer would teach fencelint with directives.
package app

import (
	"context"
	"database/sql"
	"time"

	"example.com/inhouse"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Lease is a lease-shaped type: its Token is the fencing token.
type Lease struct {
	Token int64
}

// Store is the application's own storage interface, with no
// implementation in sight: calls through it are blind spots. (Its Save
// takes no context: with one, a write-named port method is taken for
// the write it says it is.)
type Store interface {
	Save(key string, v []byte) error
}

// Saver's method carries a directive: calls through it are writes fenced
// by tok.
type Saver interface {
	//fencelint:write token=tok
	SaveFenced(ctx context.Context, key string, v []byte, tok int64) error
}

type Service struct {
	db     *sql.DB
	store  Store
	saver  Saver
	rpc    *inhouse.Client
	notify func(ctx context.Context, msg string) error
}

func (s *Service) Transfer(ctx context.Context, l Lease, id string, amt int64) error {
	if _, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1, fence = $3 WHERE id = $2 AND fence < $3", amt, id, l.Token); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, "UPDATE audit SET last = $1 WHERE id = $2", amt, id); err != nil {
		return err
	}
	if err := s.store.Save("transfers/"+id, nil); err != nil {
		return err
	}
	if err := s.saver.SaveFenced(ctx, "ledger/"+id, nil, l.Token); err != nil {
		return err
	}
	if err := s.rpc.Put(ctx, "balances/"+id, nil, l.Token); err != nil {
		return err
	}
	return s.notify(ctx, "transfer "+id)
}

func (s *Service) Reprice(ctx context.Context, l Lease, q string, id string) error {
	_, err := s.db.ExecContext(ctx, q, id, l.Token)
	if err != nil {
		return err
	}
	return s.store.Save("prices/"+id, nil)
}

func (s *Service) Close(ctx context.Context, sess *concurrency.Session, cli *clientv3.Client, id string) error {
	m := concurrency.NewMutex(sess, "/locks/accounts/"+id)
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	if _, err := s.db.ExecContext(ctx, "UPDATE accounts SET closed = true WHERE id = $1", id); err != nil {
		return err
	}
	_, err := cli.Put(ctx, "/closed/"+id, "1")
	return err
}

// Backfill writes accounts with no lock at all.
func (s *Service) Backfill(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", id)
	return err
}

// ClockLease is a lease whose token is minted from the wall clock: the map
// says the token is weak for every scope on it.
type ClockLease struct {
	Token int64
}

func NewClockLease() ClockLease {
	return ClockLease{Token: time.Now().UnixNano()}
}

func (s *Service) Stamp(ctx context.Context, l ClockLease, id string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE stamps SET at = at + 1, fence = $2 WHERE id = $1 AND fence < $2", id, l.Token)
	return err
}
