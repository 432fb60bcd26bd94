// Package etcdtxnlock: locks an application takes with an etcd Txn of its
// own - put the key if absent, with a lease - instead of
// concurrency.Mutex. The token is the Txn response's Header.Revision.
package etcdtxnlock

import (
	"context"
	"database/sql"
	"errors"

	clientv3 "go.etcd.io/etcd/client/v3"
)

var errBusy = errors.New("busy")

// The lock taken and released in one function.

func saveBad(ctx context.Context, cli *clientv3.Client, db *sql.DB, key, val string) error {
	lease, err := cli.Grant(ctx, 10)
	if err != nil {
		return err
	}
	resp, err := cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, "me", clientv3.WithLease(lease.ID))).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errBusy
	}
	defer cli.Revoke(ctx, lease.ID)
	_, err = db.ExecContext(ctx, `UPDATE items SET val = $1 WHERE id = 1`, val) // want `SQL write via db.ExecContext to items under the etcd lease lock \(Txn put-if-absent\) is not fenced: .*compare the stored fence with resp.Header.Revision in the write itself`
	return err
}

func saveGood(ctx context.Context, cli *clientv3.Client, db *sql.DB, key, val string) error {
	lease, err := cli.Grant(ctx, 10)
	if err != nil {
		return err
	}
	resp, err := cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, "me", clientv3.WithLease(lease.ID))).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errBusy
	}
	defer cli.Revoke(ctx, lease.ID)
	tok := resp.Header.Revision
	res, err := db.ExecContext(ctx, `UPDATE items SET val = $1, fence = $2 WHERE id = 1 AND fence < $2`, val, tok) // ok: fenced with the grant's revision
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errBusy
	}
	return nil
}

// A Version compare, the builder kept in a variable, and a combined
// failure test.
func saveVersionBad(ctx context.Context, cli *clientv3.Client, db *sql.DB, val string) error {
	lease, err := cli.Grant(ctx, 10)
	if err != nil {
		return err
	}
	txn := cli.Txn(ctx)
	txn = txn.If(clientv3.Compare(clientv3.Version("/locks/job"), "=", 0))
	txn = txn.Then(clientv3.OpPut("/locks/job", "me", clientv3.WithLease(lease.ID)))
	resp, err := txn.Commit()
	if err != nil || !resp.Succeeded {
		return errBusy
	}
	_, err = db.ExecContext(ctx, `UPDATE jobs SET val = $1 WHERE id = 1`, val) // want `SQL write via db.ExecContext to jobs under the etcd lease lock`
	_, _ = cli.Delete(ctx, "/locks/job")
	return err
}

// After the key is deleted the lock is gone: a write there is not under
// it.
func afterDeleteGood(ctx context.Context, cli *clientv3.Client, db *sql.DB, val string) error {
	lease, err := cli.Grant(ctx, 10)
	if err != nil {
		return err
	}
	resp, err := cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision("/locks/job"), "=", 0)).
		Then(clientv3.OpPut("/locks/job", "me", clientv3.WithLease(lease.ID))).
		Commit()
	if err != nil || !resp.Succeeded {
		return errBusy
	}
	if _, err := cli.Delete(ctx, "/locks/job"); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `UPDATE jobs SET val = $1 WHERE id = 1`, val) // ok: the lock was released
	return err
}

// Where the Txn failed, nothing is held.
func notAcquiredGood(ctx context.Context, cli *clientv3.Client, db *sql.DB, val string) error {
	lease, err := cli.Grant(ctx, 10)
	if err != nil {
		return err
	}
	resp, err := cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision("/locks/job"), "=", 0)).
		Then(clientv3.OpPut("/locks/job", "me", clientv3.WithLease(lease.ID))).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		_, err = db.ExecContext(ctx, `UPDATE jobs SET skipped = skipped + 1 WHERE id = 1`) // ok: someone else holds the lock
		return err
	}
	return nil
}

// A put-if-absent without a lease creates a record that stays (an ID, a
// registration), not a lock.
func createRecordGood(ctx context.Context, cli *clientv3.Client, db *sql.DB, key, val string) error {
	resp, err := cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, val)).
		Commit()
	if err != nil || !resp.Succeeded {
		return errBusy
	}
	_, err = db.ExecContext(ctx, `UPDATE items SET val = $1 WHERE id = 1`, val) // ok: no lock taken
	return err
}

// A Txn that also compares something else is a conditional update, not a
// lock.
func conditionalPutGood(ctx context.Context, cli *clientv3.Client, db *sql.DB, key, val string, lease clientv3.LeaseID) error {
	resp, err := cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0), clientv3.Compare(clientv3.Value("/config/mode"), "=", "on")).
		Then(clientv3.OpPut(key, val, clientv3.WithLease(lease))).
		Commit()
	if err != nil || !resp.Succeeded {
		return errBusy
	}
	_, err = db.ExecContext(ctx, `UPDATE items SET val = $1 WHERE id = 1`, val) // ok: no lock taken
	return err
}

// The work done where the Txn succeeded, the lease left to expire.
func campaignBad(ctx context.Context, cli *clientv3.Client, db *sql.DB, lease clientv3.LeaseID) error {
	resp, err := cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision("/leader/reports"), "=", 0)).
		Then(clientv3.OpPut("/leader/reports", "me", clientv3.WithLease(lease))).
		Commit()
	if err != nil {
		return err
	}
	if resp.Succeeded {
		_, err = db.ExecContext(ctx, `UPDATE reports SET leader_run = leader_run + 1 WHERE id = 1`) // want `SQL write via db.ExecContext to reports under the etcd lease lock`
	}
	return err
}

func campaignGood(ctx context.Context, cli *clientv3.Client, db *sql.DB, lease clientv3.LeaseID) error {
	resp, err := cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision("/leader/reports"), "=", 0)).
		Then(clientv3.OpPut("/leader/reports", "me", clientv3.WithLease(lease))).
		Commit()
	if err != nil {
		return err
	}
	if resp.Succeeded {
		res, err := db.ExecContext(ctx, `UPDATE reports SET leader_run = leader_run + 1, fence = $1 WHERE id = 1 AND fence < $1`, resp.Header.Revision) // ok: fenced
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errBusy
		}
	}
	return nil
}

// The tutorial shape: the lease revoked by a defer made before the Txn,
// the builder chained in a statement of its own, then committed.
func jobLockBad(ctx context.Context, cli *clientv3.Client, db *sql.DB) error {
	grant, err := cli.Grant(ctx, 5)
	if err != nil {
		return err
	}
	defer cli.Revoke(ctx, grant.ID)
	txn := cli.Txn(ctx)
	txn.If(clientv3.Compare(clientv3.CreateRevision("/cron/lock/job"), "=", 0)).
		Then(clientv3.OpPut("/cron/lock/job", "me", clientv3.WithLease(grant.ID))).
		Else(clientv3.OpGet("/cron/lock/job"))
	resp, err := txn.Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errBusy
	}
	_, err = db.ExecContext(ctx, `UPDATE jobs SET last_run = last_run + 1 WHERE id = 7`) // want `SQL write via db.ExecContext to jobs under the etcd lease lock`
	return err
}

func jobLockGood(ctx context.Context, cli *clientv3.Client, db *sql.DB) error {
	grant, err := cli.Grant(ctx, 5)
	if err != nil {
		return err
	}
	defer cli.Revoke(ctx, grant.ID)
	txn := cli.Txn(ctx)
	txn.If(clientv3.Compare(clientv3.CreateRevision("/cron/lock/job"), "=", 0)).
		Then(clientv3.OpPut("/cron/lock/job", "me", clientv3.WithLease(grant.ID))).
		Else(clientv3.OpGet("/cron/lock/job"))
	resp, err := txn.Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errBusy
	}
	res, err := db.ExecContext(ctx, `UPDATE jobs SET last_run = last_run + 1, fence = $1 WHERE id = 7 AND fence < $1`, resp.Header.Revision) // ok: fenced
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errBusy
	}
	return nil
}
