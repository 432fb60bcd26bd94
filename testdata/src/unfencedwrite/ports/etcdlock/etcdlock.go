// Package etcdlock implements port.Locker with an etcd mutex. Its lease
// type is not named like one: the token is found because Token returns
// the mutex's revision (a token accessor), and Handle's Rev field because
// it is only ever set to it (a token field).
package etcdlock

import (
	"context"

	"go.etcd.io/etcd/client/v3/concurrency"
	"unfencedwrite/ports/port"
)

type Locker struct{ Sess *concurrency.Session }

type held struct{ m *concurrency.Mutex }

func (h *held) Token() int64                      { return h.m.Header().Revision }
func (h *held) Release(ctx context.Context) error { return h.m.Unlock(ctx) }

func (l *Locker) Acquire(ctx context.Context, key string) (port.Lease, error) {
	m := concurrency.NewMutex(l.Sess, "/locks/"+key)
	if err := m.Lock(ctx); err != nil {
		return nil, err
	}
	return &held{m: m}, nil
}

var _ port.Locker = (*Locker)(nil)

// Handle is a concrete handle whose token is a field.
type Handle struct {
	Rev   int64
	Tries int64
	m     *concurrency.Mutex
}

func (h *Handle) Release(ctx context.Context) error { return h.m.Unlock(ctx) }

func (l *Locker) AcquireHandle(ctx context.Context, key string, tries int64) (*Handle, error) {
	m := concurrency.NewMutex(l.Sess, "/locks/"+key)
	if err := m.Lock(ctx); err != nil {
		return nil, err
	}
	return &Handle{Rev: m.Header().Revision, Tries: tries, m: m}, nil
}
