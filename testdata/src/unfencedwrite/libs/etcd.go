// Package libs exercises real lock and storage APIs (stubs at their real
// import paths, checked against the real modules).
package libs

import (
	"context"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

func etcdMutexBad(ctx context.Context, s *concurrency.Session, pool *pgxpool.Pool, id string, amt int64) error {
	m := concurrency.NewMutex(s, "/locks/acct")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := pool.Exec(ctx, "UPDATE account_balances SET balance = balance - $1 WHERE account_id = $2", amt, id) // want `SQL write via pool.Exec to account_balances under the etcd mutex is not fenced: its WHERE does not compare a fence column with the token; compare the stored fence with m.Header\(\).Revision in the write itself`
	return err
}

func etcdMutexGood(ctx context.Context, s *concurrency.Session, pool *pgxpool.Pool, id string, amt int64) error {
	m := concurrency.NewMutex(s, "/locks/acct")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: fenced with the mutex revision
	_, err := pool.Exec(ctx, "UPDATE account_balances SET balance = balance - $1, fence_token = $3 WHERE account_id = $2 AND fence_token < $3", amt, id, m.Header().Revision)
	return err
}

func etcdTryLockBad(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.TryLock(ctx); err != nil {
		// ok: not acquired, outside the scope
		_, _ = cli.Put(ctx, "status/cfg", "busy")
		return err
	}
	defer m.Unlock(ctx)
	_, err := cli.Put(ctx, "config/data", "v") // want `etcd write via cli.Put to config/data under the etcd mutex is not fenced: it is unconditional`
	return err
}

func etcdTxnGood(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
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
		return concurrency.ErrLocked
	}
	return nil
}

func etcdTxnNoIfBad(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := cli.Txn(ctx).Then(clientv3.OpPut("config/data", "v")).Commit() // want `the Txn has no If compare`
	return err
}

func etcdTxnElseWriteBad(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	resp, err := cli.Txn(ctx).If(m.IsOwner()).Else(clientv3.OpPut("config/data", "v")).Commit() // want `its Put runs in the Txn's Else, which applies when the If compare fails`
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return concurrency.ErrLocked
	}
	return nil
}

func etcdTxnElseReadGood(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the Put is in Then; the Else only reads
	resp, err := cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut("config/data", "v")).Else(clientv3.OpGet("config/data")).Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return concurrency.ErrLocked
	}
	return nil
}

func electionBad(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	e := concurrency.NewElection(s, "/election/leader")
	if err := e.Campaign(ctx, "me"); err != nil {
		return err
	}
	defer e.Resign(ctx)
	_, err := cli.Put(ctx, "leader/data", "x") // want `under the etcd election is not fenced: it is unconditional; compare the stored fence with e.Rev\(\) in the write itself`
	return err
}

func electionGood(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	e := concurrency.NewElection(s, "/election/leader")
	if err := e.Campaign(ctx, "me"); err != nil {
		return err
	}
	defer e.Resign(ctx)
	// ok: compares the leader key's CreateRevision with the election's Rev
	_, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(e.Key()), "=", e.Rev())).Then(clientv3.OpPut("leader/data", "x")).Commit()
	return err
}

func pgxNamedGood(ctx context.Context, m *concurrency.Mutex, conn *pgx.Conn, id string) error {
	// ok: @tok is bound through pgx.NamedArgs to the revision, formatted
	_, err := conn.Exec(ctx, "UPDATE docs SET body = @body, fence = @tok WHERE id = @id AND fence < @tok",
		pgx.NamedArgs{"body": "x", "id": id, "tok": strconv.FormatInt(m.Header().Revision, 10)})
	return err
}

func pgxBatchBad(ctx context.Context, m *concurrency.Mutex, conn *pgx.Conn, id string) error {
	b := &pgx.Batch{}
	b.Queue("UPDATE docs SET body = 'x' WHERE id = $1", id) // want `SQL write via b.Queue to docs under the concurrency.Mutex m is not fenced`
	return conn.SendBatch(ctx, b).Close()
}

func pgxTxUnitGood(ctx context.Context, m *concurrency.Mutex, pool *pgxpool.Pool, id string) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	tag, err := tx.Exec(ctx, "UPDATE docs SET fence = $2 WHERE id = $1 AND fence < $2", id, m.Header().Revision)
	if err != nil || tag.RowsAffected() == 0 {
		return err
	}
	// ok: the transaction is fenced by the statement above
	if _, err := tx.Exec(ctx, "DELETE FROM drafts WHERE doc_id = $1", id); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

func etcdNestedBad(ctx context.Context, s *concurrency.Session, pool *pgxpool.Pool, id string, amt int64) error {
	outer := concurrency.NewMutex(s, "/locks/acct")
	if err := outer.Lock(ctx); err != nil {
		return err
	}
	defer outer.Unlock(ctx)
	inner := concurrency.NewMutex(s, "/locks/audit")
	if err := inner.Lock(ctx); err != nil {
		return err
	}
	if err := inner.Unlock(ctx); err != nil {
		return err
	}
	// the inner release leaves the outer mutex held
	_, err := pool.Exec(ctx, "UPDATE account_balances SET balance = balance - $1 WHERE account_id = $2", amt, id) // want `under the etcd mutex is not fenced`
	return err
}

func etcdNestedReleasedGood(ctx context.Context, s *concurrency.Session, pool *pgxpool.Pool, id string, amt int64) error {
	outer := concurrency.NewMutex(s, "/locks/acct")
	if err := outer.Lock(ctx); err != nil {
		return err
	}
	inner := concurrency.NewMutex(s, "/locks/audit")
	if err := inner.Lock(ctx); err != nil {
		return err
	}
	_ = inner.Unlock(ctx)
	if err := outer.Unlock(ctx); err != nil {
		return err
	}
	// ok: both released before the write
	_, err := pool.Exec(ctx, "UPDATE account_balances SET balance = balance - $1 WHERE account_id = $2", amt, id)
	return err
}

type mutexes struct{ s *concurrency.Session }

func (m *mutexes) get(id string) *concurrency.Mutex {
	return concurrency.NewMutex(m.s, "/locks/"+id)
}

func cachedMutexReleasedGood(ctx context.Context, m *mutexes, pool *pgxpool.Pool, id string, amt int64) error {
	if err := m.get(id).Lock(ctx); err != nil {
		return err
	}
	// m.get(id) twice may be one mutex: its Unlock ends the region
	_ = m.get(id).Unlock(ctx)
	// ok: after the release
	_, err := pool.Exec(ctx, "UPDATE account_balances SET balance = balance - $1 WHERE account_id = $2", amt, id)
	return err
}

func etcdTxnSeparateIfGood(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	txn := cli.Txn(ctx)
	txn.If(m.IsOwner()) // the builder keeps the If: its result need not be chained
	// ok: the If above is part of this transaction
	_, err := txn.Then(clientv3.OpPut("config/data", "v")).Commit()
	return err
}

func etcdTxnSeparateNoIfBad(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	txn := cli.Txn(ctx)
	txn.Then(clientv3.OpPut("config/data", "v"))
	_, err := txn.Commit() // want `the Txn has no If compare`
	return err
}

// setKVs is a helper in the shape of real code: its caller passes the
// compares, and the If is a statement of its own.
func setKVs(ctx context.Context, cli *clientv3.Client, cmps []clientv3.Cmp, ops ...clientv3.Op) error {
	txn := cli.Txn(ctx)
	txn.If(cmps...)
	resp, err := txn.Then(ops...).Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return concurrency.ErrLocked
	}
	return nil
}

func etcdHelperSeparateIfGood(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the helper's transaction carries the caller's IsOwner compare
	return setKVs(ctx, cli, []clientv3.Cmp{m.IsOwner()}, clientv3.OpPut("config/data", "v"))
}

func electionKeyValueGood(ctx context.Context, s *concurrency.Session, cli *clientv3.Client, me string) error {
	e := concurrency.NewElection(s, "/election/leader")
	if err := e.Campaign(ctx, me); err != nil {
		return err
	}
	leaderKey := e.Key()
	// ok: the leader key dies with the session's lease, and etcd fails a
	// value compare on a missing key
	_, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.Value(leaderKey), "=", me)).Then(clientv3.OpPut("leader/data", "x")).Commit()
	return err
}

func electionOtherKeyBad(ctx context.Context, s *concurrency.Session, cli *clientv3.Client, me string) error {
	e := concurrency.NewElection(s, "/election/leader")
	if err := e.Campaign(ctx, me); err != nil {
		return err
	}
	// a key of its own, not the election's: it outlives lost leadership
	_, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.Value("/config/owner"), "=", me)).Then(clientv3.OpPut("leader/data", "x")).Commit() // want `the Txn's If compares no fencing token`
	return err
}

// leader keeps its election key in a field, as real election loops do.
type leader struct {
	cli       *clientv3.Client
	leaderKey string
	otherKey  string
}

func (l *leader) loopGood(ctx context.Context, s *concurrency.Session, me string) error {
	e := concurrency.NewElection(s, "/election/leader")
	if err := e.Campaign(ctx, me); err != nil {
		return err
	}
	l.leaderKey = e.Key()
	l.otherKey = "/config/owner"
	// ok: the helper's If compares the election key held in the field
	return setKVs(ctx, l.cli, []clientv3.Cmp{clientv3.Compare(clientv3.Value(l.leaderKey), "=", me)}, clientv3.OpPut("leader/data", "x"))
}

func (l *leader) loopOtherKeyBad(ctx context.Context, s *concurrency.Session, me string) error {
	e := concurrency.NewElection(s, "/election/leader")
	if err := e.Campaign(ctx, me); err != nil {
		return err
	}
	// otherKey is not the election's key: nothing ties it to the lease
	_, err := l.cli.Txn(ctx).If(clientv3.Compare(clientv3.Value(l.otherKey), "=", me)).Then(clientv3.OpPut("leader/data", "x")).Commit() // want `the Txn's If compares no fencing token`
	return err
}

func etcdTxnFlagBad(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// a flag of its own compared with a fixed value: a stale holder passes it too
	_, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.Value("/config/enabled"), "=", "on")).Then(clientv3.OpPut("config/data", "v")).Commit() // want `the Txn's If compares only fixed values, not the lock's key or a fencing token`
	return err
}

func etcdTxnFlagOwnerGood(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the flag check rides along with IsOwner in the same transaction
	_, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.Value("/config/enabled"), "=", "on"), m.IsOwner()).Then(clientv3.OpPut("config/data", "v")).Commit()
	return err
}

func etcdTxnLockKeyExistsGood(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the mutex's own key exists only while its lease lives
	_, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.Version(m.Key()), ">", 0)).Then(clientv3.OpPut("config/data", "v")).Commit()
	return err
}

func etcdTxnLockKeyBelowBad(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// a missing key's ModRevision is 0, which is below the bound too
	_, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision(m.Key()), "<", 1000000)).Then(clientv3.OpPut("config/data", "v")).Commit() // want `the Txn's If compares no fencing token`
	return err
}

func etcdPutSessionLeaseGood(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the key is attached to the lock's own session lease: once it
	// expires etcd refuses the Put (lease not found)
	_, err := cli.Put(ctx, "config/data", "v", clientv3.WithLease(s.Lease()))
	return err
}

func etcdPutOtherLeaseBad(ctx context.Context, s, app *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// another session's lease outlives the lock's
	_, err := cli.Put(ctx, "config/data", "v", clientv3.WithLease(app.Lease())) // want `etcd write via cli.Put to config/data under the etcd mutex is not fenced: it is unconditional`
	return err
}

func etcdTxnFenceKeyUnrecordedBad(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// nothing ever moves /fence/cfg: a stale revision is below it too
	_, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision("/fence/cfg"), "<", m.Header().Revision)).Then(clientv3.OpPut("config/data", "v")).Commit() // want `the Txn compares the token with ModRevision\("/fence/cfg"\) but never writes that key`
	return err
}

func etcdTxnFenceKeyGood(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the Put of /fence/cfg moves its revision past this holder's
	_, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision("/fence/cfg"), "<", m.Header().Revision)).Then(clientv3.OpPut("config/data", "v"), clientv3.OpPut("/fence/cfg", "")).Commit()
	return err
}

func etcdTxnLeaseValueGood(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the mutex key carries the session's lease while it lives
	_, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.LeaseValue(m.Key()), "=", s.Lease())).Then(clientv3.OpPut("config/data", "v")).Commit()
	return err
}

func etcdTxnKeyValueGood(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: a value compare fails once the mutex key is gone
	_, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.Value(m.Key()), "=", "")).Then(clientv3.OpDelete("config/data")).Commit()
	return err
}

func electionHeaderGood(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	e := concurrency.NewElection(s, "/election/leader")
	if err := e.Campaign(ctx, "me"); err != nil {
		return err
	}
	// ok: the leader key's CreateRevision against the campaign's revision
	_, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(e.Key()), "=", e.Header().Revision)).Then(clientv3.OpPut("leader/data", "x")).Commit()
	return err
}

func etcdDeleteBad(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := cli.Delete(ctx, "config/data") // want `etcd write via cli.Delete to config/data under the etcd mutex is not fenced: it is unconditional`
	return err
}
