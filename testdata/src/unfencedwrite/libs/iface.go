package libs

import (
	"context"
	"io"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Locks taken through an interface (IBM-Cloud/go-etcd-rules' RuleLocker):
// the call is resolved over the package's implementations.

func ruleWorkBad(ctx context.Context, kv clientv3.KV, locker ruleLocker) error {
	l, err := locker.Lock("/rule/1")
	if err != nil {
		return err
	}
	defer l.Unlock()
	_, err = kv.Put(ctx, "/data/1", "v") // want `etcd write via kv.Put to /data/1 under the etcd mutex is not fenced: it is unconditional`
	return err
}

func ruleWorkUnlockedGood(ctx context.Context, kv clientv3.KV, locker ruleLocker) error {
	l, err := locker.Lock("/rule/1")
	if err != nil {
		return err
	}
	l.Unlock()
	// ok: after the release, through the interface too
	_, err = kv.Put(ctx, "/data/1", "v")
	return err
}

type ruleLocker interface {
	Lock(key string) (ruleLock, error)
}

type ruleLock interface{ Unlock() }

type v3Locker struct{ s *concurrency.Session }

func (l *v3Locker) Lock(key string) (ruleLock, error) {
	m := concurrency.NewMutex(l.s, key)
	if err := m.Lock(context.Background()); err != nil {
		return nil, err
	}
	return &v3Lock{m: m}, nil
}

type v3Lock struct{ m *concurrency.Mutex }

func (l *v3Lock) Unlock() { _ = l.m.Unlock(context.Background()) }

// jobLocker has two implementations, one of which takes no lock: which one
// runs is decided at run time, so a call through it is not an acquire.
type jobLocker interface {
	Acquire(ctx context.Context, key string) (func(), error)
}

type etcdJobLocker struct{ s *concurrency.Session }

func (l etcdJobLocker) Acquire(ctx context.Context, key string) (func(), error) {
	m := concurrency.NewMutex(l.s, key)
	if err := m.Lock(ctx); err != nil {
		return nil, err
	}
	return func() { _ = m.Unlock(context.Background()) }, nil
}

type localJobLocker struct{}

func (localJobLocker) Acquire(ctx context.Context, key string) (func(), error) { return func() {}, nil }

func jobMixedGood(ctx context.Context, kv clientv3.KV, locker jobLocker) error {
	release, err := locker.Acquire(ctx, "/job/1")
	if err != nil {
		return err
	}
	defer release()
	// ok: the implementations disagree (one takes no lock)
	_, err = kv.Put(ctx, "/data/job", "v")
	return err
}

// s3Log is the package's only io.Writer, and its Write is an unfenced
// write; an io.Writer in general (os.Stdout, a response) is not.
type s3Log struct{ kv clientv3.KV }

func (l *s3Log) Write(p []byte) (int, error) {
	_, err := l.kv.Put(context.Background(), "/log", string(p))
	return len(p), err
}

func stdInterfaceGood(ctx context.Context, s *concurrency.Session, w io.Writer) error {
	m := concurrency.NewMutex(s, "/locks/log")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: io.Writer is implemented all over; s3Log is not the only candidate
	_, err := w.Write([]byte("held"))
	return err
}

// docStore's only implementation writes without a fence.
type docStore interface {
	Save(ctx context.Context, id string) error
}

type etcdDocStore struct{ kv clientv3.KV }

func (s etcdDocStore) Save(ctx context.Context, id string) error {
	_, err := s.kv.Put(ctx, "/docs/"+id, "v")
	return err
}

func storeThroughInterfaceBad(ctx context.Context, s *concurrency.Session, st docStore) error {
	m := concurrency.NewMutex(s, "/locks/docs")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return st.Save(ctx, "a") // want `storage write via st.Save under the etcd mutex is not fenced: Save does an etcd write with no fence`
}
