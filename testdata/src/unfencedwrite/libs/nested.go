package libs

import (
	"context"

	"github.com/go-redsync/redsync/v4"
	"github.com/redis/go-redis/v9"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Two locks held at once: a write is cited under the innermost lock whose
// scope it is in (the one acquired last), not the first one acquired.

func nestedInnerRedsyncBad(ctx context.Context, s *concurrency.Session, rs *redsync.Redsync, rdb *redis.Client) error {
	m := concurrency.NewMutex(s, "/locks/outer")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	rdb.HSet(ctx, "jobs:state", "a", "starting") // want `Redis write via rdb.HSet to jobs:state under the etcd mutex is not fenced`
	inner := rs.NewMutex("inner")
	if err := inner.LockContext(ctx); err != nil {
		return err
	}
	defer inner.UnlockContext(ctx)
	return rdb.HSet(ctx, "jobs:state", "a", "running").Err() // want `Redis write via rdb.HSet to jobs:state under the redsync mutex is not fenced`
}

func nestedInnerEtcdBad(ctx context.Context, s *concurrency.Session, rs *redsync.Redsync, cli *clientv3.Client) error {
	outer := rs.NewMutex("outer")
	if err := outer.LockContext(ctx); err != nil {
		return err
	}
	defer outer.UnlockContext(ctx)
	m := concurrency.NewMutex(s, "/locks/inner")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := cli.Put(ctx, "config/data", "v") // want `etcd write via cli.Put to config/data under the etcd mutex is not fenced: it is unconditional; compare the stored fence with m.Header\(\).Revision in the write itself`
	return err
}

func nestedFencedGood(ctx context.Context, s *concurrency.Session, rs *redsync.Redsync, cli *clientv3.Client) error {
	outer := rs.NewMutex("outer")
	if err := outer.LockContext(ctx); err != nil {
		return err
	}
	defer outer.UnlockContext(ctx)
	m := concurrency.NewMutex(s, "/locks/inner")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the inner etcd mutex's ownership is compared in the same transaction
	_, err := cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut("config/data", "v")).Commit()
	return err
}
