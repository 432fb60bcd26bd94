package etcdtxnlock

import (
	"context"
	"database/sql"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Locker is the usual hand-rolled etcd lock: Lock puts the key with a
// lease if absent, Unlock revokes the lease.
type Locker struct {
	cli   *clientv3.Client
	lease clientv3.LeaseID
	rev   int64
}

func (l *Locker) Lock(ctx context.Context, key string) error {
	grant, err := l.cli.Grant(ctx, 15)
	if err != nil {
		return err
	}
	resp, err := l.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, "", clientv3.WithLease(grant.ID))).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errBusy
	}
	l.lease = grant.ID
	l.rev = resp.Header.Revision
	return nil
}

func (l *Locker) Unlock(ctx context.Context) error {
	_, err := l.cli.Revoke(ctx, l.lease)
	return err
}

func runBad(ctx context.Context, l *Locker, db *sql.DB) error {
	if err := l.Lock(ctx, "/locks/report"); err != nil {
		return err
	}
	defer l.Unlock(ctx)
	_, err := db.ExecContext(ctx, `UPDATE reports SET done = true WHERE id = 1`) // want `SQL write via db.ExecContext to reports under the etcd lease lock \(Txn put-if-absent\) is not fenced: its WHERE does not compare a fence column with the token`
	return err
}

func runGood(ctx context.Context, l *Locker, db *sql.DB) error {
	if err := l.Lock(ctx, "/locks/report"); err != nil {
		return err
	}
	defer l.Unlock(ctx)
	res, err := db.ExecContext(ctx, `UPDATE reports SET done = true, fence = $1 WHERE id = 1 AND fence < $1`, l.rev) // ok: fenced with the grant's revision
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errBusy
	}
	return nil
}

func afterUnlockGood(ctx context.Context, l *Locker, db *sql.DB) error {
	if err := l.Lock(ctx, "/locks/report"); err != nil {
		return err
	}
	if err := l.Unlock(ctx); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE reports SET seen = true WHERE id = 1`) // ok: after Unlock
	return err
}
