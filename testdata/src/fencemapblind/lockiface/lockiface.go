// Package lockiface takes its locks through interfaces of its own. Where
// the implementations disagree (etcd's mutex beside an in-process one), no scope
// opens, and the fence map must say so: a lock-call blind spot with the
// directive that would declare the method. Where they agree, the call is
// an acquire and no blind spot is recorded.
package lockiface

import (
	"context"
	"database/sql"
	"sync"

	"go.etcd.io/etcd/client/v3/concurrency"
)

// Locker is configured: etcd in a cluster, a process-local mutex on a
// single node.
type Locker interface {
	Lock(ctx context.Context) error
	Unlock(ctx context.Context) error
}

type etcdLocker struct{ m *concurrency.Mutex }

func (l *etcdLocker) Lock(ctx context.Context) error   { return l.m.Lock(ctx) }
func (l *etcdLocker) Unlock(ctx context.Context) error { return l.m.Unlock(ctx) }

type localLocker struct{ mu sync.Mutex }

func (l *localLocker) Lock(context.Context) error   { l.mu.Lock(); return nil }
func (l *localLocker) Unlock(context.Context) error { l.mu.Unlock(); return nil }

func transfer(ctx context.Context, l Locker, db *sql.DB) error {
	if err := l.Lock(ctx); err != nil { // a lock-call blind spot: etcd, or a local mutex
		return err
	}
	defer l.Unlock(ctx)
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - 1 WHERE id = 1")
	return err
}

// Mutex has one implementation, which takes etcd's lock.
type Mutex interface {
	Acquire(ctx context.Context) error
	Release(ctx context.Context) error
}

type etcdMutex struct{ m *concurrency.Mutex }

func (l *etcdMutex) Acquire(ctx context.Context) error { return l.m.Lock(ctx) }
func (l *etcdMutex) Release(ctx context.Context) error { return l.m.Unlock(ctx) }

func audit(ctx context.Context, mu Mutex, db *sql.DB) error {
	if err := mu.Acquire(ctx); err != nil { // an acquire: no blind spot
		return err
	}
	defer mu.Release(ctx)
	_, err := db.ExecContext(ctx, "UPDATE audits SET done = true WHERE id = 1")
	return err
}
