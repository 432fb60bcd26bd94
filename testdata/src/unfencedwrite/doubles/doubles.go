// Package doubles: an application interface with one real implementation
// and test doubles beside it (a no-op type, a mocks package, a fake in a
// _test.go file). The doubles do not vote, so a call through the interface
// is the real implementation's write (issue 18).
package doubles

import (
	"context"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

type Store interface {
	Save(ctx context.Context, key, v string) error
}

type etcdStore struct{ kv clientv3.KV }

func (s etcdStore) Save(ctx context.Context, key, v string) error {
	_, err := s.kv.Put(ctx, key, v)
	return err
}

// noopStore is a test double living next to the real implementation.
type noopStore struct{}

func (noopStore) Save(ctx context.Context, key, v string) error { return nil }

func saveBad(ctx context.Context, sess *concurrency.Session, s Store) error {
	m := concurrency.NewMutex(sess, "/locks/store")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return s.Save(ctx, "/data/x", "v") // want `storage write via s.Save under the etcd mutex is not fenced: Save does an etcd write with no fence`
}

// Locker has a real implementation and a genuine alternative that takes no
// lock (a single-node mode, not a test double): they disagree, and a call
// through it stays unknown.
type Locker interface {
	Lock(ctx context.Context) (func(), error)
}

type etcdLocker struct{ s *concurrency.Session }

func (l etcdLocker) Lock(ctx context.Context) (func(), error) {
	m := concurrency.NewMutex(l.s, "/locks/job")
	if err := m.Lock(ctx); err != nil {
		return nil, err
	}
	return func() { _ = m.Unlock(context.Background()) }, nil
}

type singleNodeLocker struct{}

func (singleNodeLocker) Lock(ctx context.Context) (func(), error) { return func() {}, nil }

func lockGood(ctx context.Context, kv clientv3.KV, l Locker) error {
	release, err := l.Lock(ctx)
	if err != nil {
		return err
	}
	defer release()
	// ok: the implementations disagree, and neither is a test double
	_, err = kv.Put(ctx, "/data/job", "v")
	return err
}
