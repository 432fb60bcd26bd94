// Package svc takes the lock and writes through application interfaces
// only: nothing in it names a lock or storage library, yet its methods
// are lock scopes and their calls writes (implementations in other
// packages, through their facts).
package svc

import (
	"context"

	"unfencedwrite/ports/etcdlock"
	"unfencedwrite/ports/port"
	_ "unfencedwrite/ports/wire"
)

type Service struct {
	locks    port.Locker
	accounts port.AccountStore
}

func (s *Service) debitBad(ctx context.Context, id string, amount int64) error {
	l, err := s.locks.Acquire(ctx, "acct/"+id)
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	return s.accounts.Debit(ctx, id, amount) // want `storage write via s.accounts.Debit under the etcd mutex is not fenced: Debit does a SQL write to accounts with no fence`
}

func (s *Service) debitFencedGood(ctx context.Context, id string, amount int64) error {
	l, err := s.locks.Acquire(ctx, "acct/"+id)
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	// ok: the lease's Token() is the mutex's revision
	return s.accounts.DebitFenced(ctx, id, amount, l.Token())
}

func (s *Service) debitFencedBad(ctx context.Context, id string, amount int64) error {
	l, err := s.locks.Acquire(ctx, "acct/"+id)
	if err != nil {
		return err
	}
	defer l.Release(ctx)
	return s.accounts.DebitFenced(ctx, id, amount, 1) // want `storage write via s.accounts.DebitFenced under the etcd mutex is not fenced: no fencing token reaches DebitFenced's fence parameter`
}

func (s *Service) releasedGood(ctx context.Context, id string, amount int64) error {
	l, err := s.locks.Acquire(ctx, "acct/"+id)
	if err != nil {
		return err
	}
	if err := l.Release(ctx); err != nil {
		return err
	}
	// ok: released above
	return s.accounts.Debit(ctx, id, amount)
}

func (s *Service) handleFieldGood(ctx context.Context, k *etcdlock.Locker, id string, amount int64) error {
	h, err := k.AcquireHandle(ctx, "acct/"+id, 3)
	if err != nil {
		return err
	}
	defer h.Release(ctx)
	// ok: Rev is only ever set to the mutex's revision
	return s.accounts.DebitFenced(ctx, id, amount, h.Rev)
}

func (s *Service) handleOtherFieldBad(ctx context.Context, k *etcdlock.Locker, id string, amount int64) error {
	h, err := k.AcquireHandle(ctx, "acct/"+id, 3)
	if err != nil {
		return err
	}
	defer h.Release(ctx)
	return s.accounts.DebitFenced(ctx, id, amount, h.Tries) // want `storage write via s.accounts.DebitFenced under the etcd mutex is not fenced: no fencing token reaches DebitFenced's fence parameter`
}
