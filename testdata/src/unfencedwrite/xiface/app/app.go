// Package app calls base.Broker, implemented in rdb and memq, which it
// does not import (issue 13): the implementations are resolved through
// their packages' ImplsFacts, re-exported by wire.
package app

import (
	"context"
	"database/sql"

	"go.etcd.io/etcd/client/v3/concurrency"
	"unfencedwrite/xiface/base"
	"unfencedwrite/xiface/wire"
)

func NewBroker(db *sql.DB) base.Broker { return wire.Broker(db, false, false) }

func doneBad(ctx context.Context, m *concurrency.Mutex, b base.Broker, id string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return b.Done(ctx, id) // want `storage write via b.Done under the etcd mutex is not fenced: Done does a SQL write to tasks with no fence`
}

func ackGood(ctx context.Context, m *concurrency.Mutex, b base.Broker, id string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: every implementation is fenced by its token parameter, and the token reaches it
	return b.Ack(ctx, id, m.Header().Revision)
}

func ackBad(ctx context.Context, m *concurrency.Mutex, b base.Broker, id string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return b.Ack(ctx, id, 1) // want `storage write via b.Ack under the etcd mutex is not fenced: no fencing token reaches Ack's fence parameter`
}

func requeueGood(ctx context.Context, m *concurrency.Mutex, b base.Broker, id string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: memq's Requeue writes nothing shared, so the implementations disagree
	return b.Requeue(ctx, id)
}
