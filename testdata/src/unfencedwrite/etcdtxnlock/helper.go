package etcdtxnlock

import (
	"context"
	"database/sql"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// withLock runs fn under an etcd Txn lock and keeps the token to itself.
func withLock(ctx context.Context, cli *clientv3.Client, key string, fn func() error) error {
	grant, err := cli.Grant(ctx, 5)
	if err != nil {
		return err
	}
	defer cli.Revoke(ctx, grant.ID)
	resp, err := cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, "", clientv3.WithLease(grant.ID))).
		Else(clientv3.OpGet(key)).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errBusy
	}
	return fn()
}

func tickBad(ctx context.Context, cli *clientv3.Client, db *sql.DB) error {
	return withLock(ctx, cli, "/locks/tick", func() error {
		_, err := db.ExecContext(ctx, `UPDATE ticks SET n = n + 1 WHERE id = 1`) // want `SQL write via db.ExecContext to ticks under the lock held by withLock is not fenced: its WHERE does not compare a fence column with the token; the lock held by withLock has a token, but the helper does not pass it to the callback: pass the token to the callback \(a parameter of the function it runs\) and compare it in the write$`
		return err
	})
}

// withLockToken hands the grant's revision to fn.
func withLockToken(ctx context.Context, cli *clientv3.Client, key string, fn func(tok int64) error) error {
	grant, err := cli.Grant(ctx, 5)
	if err != nil {
		return err
	}
	defer cli.Revoke(ctx, grant.ID)
	resp, err := cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, "", clientv3.WithLease(grant.ID))).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errBusy
	}
	return fn(resp.Header.Revision)
}

func tickGood(ctx context.Context, cli *clientv3.Client, db *sql.DB) error {
	return withLockToken(ctx, cli, "/locks/tick", func(tok int64) error {
		res, err := db.ExecContext(ctx, `UPDATE ticks SET n = n + 1, fence = $1 WHERE id = 1 AND fence < $1`, tok) // ok: fenced with the token the helper passes
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errBusy
		}
		return nil
	})
}
