package libs

import (
	"context"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Helpers declared after their callers (or in a later file) are helpers
// all the same.

func orderUseFirstBad(ctx context.Context, kv clientv3.KV, s *concurrency.Session) error {
	m, err := lockLater(ctx, s, "/k")
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = kv.Put(ctx, "/data/o", "v") // want `etcd write via kv.Put to /data/o under the etcd mutex is not fenced`
	return err
}

func orderCallbackFirstBad(ctx context.Context, kv clientv3.KV, s *concurrency.Session) error {
	return withLockLater(ctx, s, func() error {
		_, err := kv.Put(ctx, "/data/cb", "v") // want `etcd write via kv.Put to /data/cb under the lock held by withLockLater is not fenced`
		return err
	})
}

func orderReleasedGood(ctx context.Context, kv clientv3.KV, s *concurrency.Session) error {
	m, err := lockLater(ctx, s, "/k")
	if err != nil {
		return err
	}
	if err := m.Unlock(ctx); err != nil {
		return err
	}
	// ok: after the release
	_, err = kv.Put(ctx, "/data/o", "v")
	return err
}

func lockLater(ctx context.Context, s *concurrency.Session, key string) (*concurrency.Mutex, error) {
	m := concurrency.NewMutex(s, key)
	if err := m.Lock(ctx); err != nil {
		return nil, err
	}
	return m, nil
}

func withLockLater(ctx context.Context, s *concurrency.Session, fn func() error) error {
	m := concurrency.NewMutex(s, "/locks/cb")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return fn()
}
