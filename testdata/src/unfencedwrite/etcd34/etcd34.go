// Package etcd34 exercises etcd's client at its import paths before the
// 3.5 module split (go.etcd.io/etcd/clientv3, etcd 3.4, and
// github.com/coreos/etcd/clientv3, etcd 3.3): rules/ declares the client
// once, under go.etcd.io/etcd/client/v3, and maps the old paths to it.
package etcd34

import (
	"context"
	"database/sql"

	coreosv3 "github.com/coreos/etcd/clientv3"
	coreosconc "github.com/coreos/etcd/clientv3/concurrency"
	"go.etcd.io/etcd/clientv3"
	"go.etcd.io/etcd/clientv3/concurrency"
)

func mutexPutBad(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		// ok: not acquired, outside the scope
		_, _ = cli.Put(ctx, "status/cfg", "busy")
		return err
	}
	defer m.Unlock(ctx)
	_, err := cli.Put(ctx, "config/data", "v") // want `etcd write via cli.Put to config/data under the etcd mutex is not fenced: it is unconditional`
	return err
}

func mutexTxnGood(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: etcd evaluates IsOwner in the same transaction
	resp, err := cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut("config/data", "v")).Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return context.Canceled
	}
	return nil
}

func mutexPutSessionLeaseGood(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the key is attached to the lock's own session lease
	_, err := cli.Put(ctx, "config/data", "v", clientv3.WithLease(s.Lease()))
	return err
}

func electionSQLBad(ctx context.Context, s *concurrency.Session, db *sql.DB) error {
	e := concurrency.NewElection(s, "/leader")
	if err := e.Campaign(ctx, "me"); err != nil {
		return err
	}
	defer e.Resign(ctx)
	_, err := db.ExecContext(ctx, "UPDATE jobs SET owner = 'me' WHERE id = 1") // want `SQL write via db.ExecContext to jobs under the etcd election is not fenced: its WHERE does not compare a fence column with the token; compare the stored fence with e.Rev\(\) in the write itself`
	return err
}

func electionSQLGood(ctx context.Context, s *concurrency.Session, db *sql.DB) error {
	e := concurrency.NewElection(s, "/leader")
	if err := e.Campaign(ctx, "me"); err != nil {
		return err
	}
	defer e.Resign(ctx)
	// ok: the election's revision is compared by the write
	_, err := db.ExecContext(ctx, "UPDATE jobs SET owner = 'me', fence = $1 WHERE id = 1 AND fence < $1", e.Rev())
	return err
}

func coreosMutexPutBad(ctx context.Context, s *coreosconc.Session, cli *coreosv3.Client) error {
	m := coreosconc.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := cli.Delete(ctx, "config/data") // want `etcd write via cli.Delete to config/data under the etcd mutex is not fenced: it is unconditional`
	return err
}

func coreosMutexTxnGood(ctx context.Context, s *coreosconc.Session, cli *coreosv3.Client) error {
	m := coreosconc.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: a compare on the lock key's revision, evaluated by etcd
	resp, err := cli.Txn(ctx).If(coreosv3.Compare(coreosv3.CreateRevision(m.Key()), "=", m.Header().Revision)).
		Then(coreosv3.OpDelete("config/data")).Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return context.Canceled
	}
	return nil
}
