package guards

import (
	"context"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// The stored value's ModRevision is a token by itself; read by Get and
// compared in Go, it is still a read-then-compare.
func etcdGetThenPutBad(ctx context.Context, m *concurrency.Mutex, cli *clientv3.Client, key string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	resp, err := cli.Get(ctx, key)
	if err != nil {
		return err
	}
	if resp.Kvs[0].ModRevision > m.Header().Revision { // want `fence check resp.Kvs\[0\].ModRevision > m.Header\(\).Revision is done in Go before the etcd write via cli.Put`
		return errSuperseded
	}
	_, err = cli.Put(ctx, key, "v")
	return err
}

func etcdGetThenTxnGood(ctx context.Context, m *concurrency.Mutex, cli *clientv3.Client, key string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	resp, err := cli.Get(ctx, key)
	if err != nil {
		return err
	}
	// ok: the write is a Txn that etcd itself conditions on the revision read
	rev := resp.Kvs[0].ModRevision
	if rev > m.Header().Revision {
		return errSuperseded
	}
	_, err = cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision(key), "=", rev)).Then(clientv3.OpPut(key, "v")).Commit()
	return err
}

// ok for appcheck: two grants' tokens compared with each other is no read
// of storage, so no Go-side fence check (the Put is unfencedwrite's)
func etcdTwoLeasesGood(ctx context.Context, m, prev *concurrency.Mutex, cli *clientv3.Client, key string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	if m.Header().Revision <= prev.Header().Revision {
		return errSuperseded
	}
	_, err := cli.Put(ctx, key, "v")
	return err
}
