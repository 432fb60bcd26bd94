// Package lockuser is an application that lives inside a modelled
// library's module, as etcd's own contrib/lock and etcdctl do: it is
// analysed like any user code (issue 13). Not a library stub: the stub
// check skips it (see caseDirs in analyzer/internal/fencetest).
package lockuser

import (
	"context"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

func writeUnderLockBad(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/sample")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := cli.Put(ctx, "/sample/value", "v") // want `etcd write via cli.Put to /sample/value under the etcd mutex is not fenced: it is unconditional`
	return err
}

func writeUnderLockGood(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/sample")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: etcd evaluates IsOwner in the same transaction
	resp, err := cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut("/sample/value", "v")).Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return concurrency.ErrLocked
	}
	return nil
}
