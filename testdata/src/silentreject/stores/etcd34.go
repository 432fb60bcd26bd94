package stores

import (
	"context"

	oldv3 "go.etcd.io/etcd/clientv3"
	oldconc "go.etcd.io/etcd/clientv3/concurrency"
)

// etcd 3.4's clientv3 (go.etcd.io/etcd/clientv3) is the same client as
// go.etcd.io/etcd/client/v3: its Txn outcome is TxnResponse.Succeeded too.

func oldEtcdDiscardedBad(ctx context.Context, m *oldconc.Mutex, cli *oldv3.Client) error {
	_, err := cli.Txn(ctx).If(m.IsOwner()).Then(oldv3.OpPut("cfg", "v")).Commit() // want `the TxnResponse of fenced write via cli.Txn\(ctx\).If\(m.IsOwner\(\)\).Then\(oldv3.OpPut\("cfg", "v"\)\).Commit is discarded`
	return err
}

func oldEtcdGood(ctx context.Context, m *oldconc.Mutex, cli *oldv3.Client) error {
	// ok: Succeeded is read
	resp, err := cli.Txn(ctx).If(m.IsOwner()).Then(oldv3.OpPut("cfg", "v")).Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return oldconc.ErrElectionNotLeader
	}
	return nil
}
