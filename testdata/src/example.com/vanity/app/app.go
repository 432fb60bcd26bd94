// Package app calls base.Broker, implemented in rdb: example.com/vanity/app,
// .../base and .../rdb are one project, so rdb's type answers for the call.
package app

import (
	"context"
	"database/sql"

	"example.com/vanity/base"
	"example.com/vanity/rdb"
	"go.etcd.io/etcd/client/v3/concurrency"
)

func NewBroker(db *sql.DB) base.Broker { return rdb.New(db) }

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
	// ok: the implementation is fenced by its token parameter, and the token reaches it
	return b.Ack(ctx, id, m.Header().Revision)
}
