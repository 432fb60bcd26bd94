package libs

import (
	"context"
	"database/sql"

	"github.com/go-zookeeper/zk"
	"github.com/hashicorp/consul/api"
	"k8s.io/client-go/tools/leaderelection"
)

func zkLockBad(conn *zk.Conn, data []byte) error {
	l := zk.NewLock(conn, "/locks/cfg", nil)
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, err := conn.Set("/config/data", data, -1) // want `ZooKeeper write via conn.Set to /config/data under the ZooKeeper lock is not fenced: version -1 makes it unconditional; the ZooKeeper lock gives no token to fence with: mint a counter in the same atomic step as the grant \(a Lua script that takes the lock and INCRs a counter, or a lock service with a revision or zxid: etcd, ZooKeeper\) and compare it in the write; see https://github.com/fencelint/fencelint/blob/main/docs/unfencedwrite.md#no-token$`
	return err
}

func zkVersionedGood(conn *zk.Conn, data []byte) error {
	l := zk.NewLock(conn, "/locks/cfg", nil)
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, st, err := conn.Get("/config/data")
	if err != nil {
		return err
	}
	// ok: a compare-and-set on the znode's version
	_, err = conn.Set("/config/data", data, st.Version)
	return err
}

func consulBad(client *api.Client, stop <-chan struct{}) error {
	lock, err := client.LockKey("service/leader")
	if err != nil {
		return err
	}
	lost, err := lock.Lock(stop)
	if err != nil {
		return err
	}
	if lost == nil {
		// ok: Lock returned (nil, nil): not held
		_, err := client.KV().Put(&api.KVPair{Key: "status", Value: []byte("idle")}, nil)
		return err
	}
	defer lock.Unlock()
	_, err = client.KV().Put(&api.KVPair{Key: "service/config", Value: []byte("x")}, nil) // want `consul KV write via client.KV\(\).Put under the consul lock is not fenced: it is unconditional; the consul lock gives no token to fence with: mint a counter in the same atomic step as the grant \(a Lua script that takes the lock and INCRs a counter, or a lock service with a revision or zxid: etcd, ZooKeeper\) and compare it in the write; see https://github.com/fencelint/fencelint/blob/main/docs/unfencedwrite.md#no-token$`
	return err
}

func consulCASGood(client *api.Client, stop <-chan struct{}) error {
	lock, err := client.LockKey("service/leader")
	if err != nil {
		return err
	}
	if _, err := lock.Lock(stop); err != nil {
		return err
	}
	defer lock.Unlock()
	pair, _, err := client.KV().Get("service/config", nil)
	if err != nil {
		return err
	}
	// ok: CAS on the ModifyIndex read
	_, _, err = client.KV().CAS(&api.KVPair{Key: "service/config", Value: []byte("x"), ModifyIndex: pair.ModifyIndex}, nil)
	return err
}

func leaderBad(ctx context.Context, db *sql.DB) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				_, _ = db.ExecContext(ctx, "UPDATE cluster SET leader_data = 'x' WHERE id = 1") // want `SQL write via db.ExecContext to cluster under the leader election \(OnStartedLeading\) is not fenced: its WHERE does not compare a fence column with the token; the leader election \(OnStartedLeading\) gives no token to fence with: mint a counter in the same atomic step as the grant \(a Lua script that takes the lock and INCRs a counter, or a lock service with a revision or zxid: etcd, ZooKeeper\) and compare it in the write; see https://github.com/fencelint/fencelint/blob/main/docs/unfencedwrite.md#no-token$`
			},
			OnStoppedLeading: func() {
				// ok: not leading any more; not a lock scope
				_, _ = db.ExecContext(context.Background(), "UPDATE cluster SET leader_data = NULL WHERE id = 1")
			},
		},
	})
}

func leaderGood(ctx context.Context, db *sql.DB) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				var transitions int64
				if err := db.QueryRowContext(ctx, "SELECT transitions FROM leases WHERE name = 'ctrl'").Scan(&transitions); err != nil {
					return
				}
				// ok: a token issued with the lease, compared by the store
				_, _ = db.ExecContext(ctx, "UPDATE cluster SET leader_data = 'x', epoch = $1 WHERE id = 1 AND epoch < $1", LeaderEpoch(transitions))
			},
		},
	})
}

// LeaderEpoch is the fencing token derived from the Lease's transitions.
//
//fencelint:token
func LeaderEpoch(transitions int64) int64 { return transitions }

func consulTxnBad(client *api.Client, stop <-chan struct{}) error {
	lock, err := client.LockKey("service/leader")
	if err != nil {
		return err
	}
	if _, err := lock.Lock(stop); err != nil {
		return err
	}
	defer lock.Unlock()
	ops := api.KVTxnOps{
		&api.KVTxnOp{Verb: api.KVSet, Key: "assign/a", Value: []byte("n1")},
		&api.KVTxnOp{Verb: api.KVSet, Key: "assign/b", Value: []byte("n2")},
	}
	_, _, _, err = client.KV().Txn(ops, nil) // want `consul KV write via client.KV\(\).Txn under the consul lock is not fenced: no operation of the transaction checks the lock's session or an index`
	return err
}

func consulTxnGood(client *api.Client, stop <-chan struct{}, session string) error {
	lock, err := client.LockKey("service/leader")
	if err != nil {
		return err
	}
	if _, err := lock.Lock(stop); err != nil {
		return err
	}
	defer lock.Unlock()
	// ok: the store checks that the lock is still held by our session
	ops := api.KVTxnOps{
		&api.KVTxnOp{Verb: api.KVCheckSession, Key: "service/leader", Session: session},
		&api.KVTxnOp{Verb: api.KVSet, Key: "assign/a", Value: []byte("n1")},
	}
	_, _, _, err = client.KV().Txn(ops, nil)
	return err
}

func consulCatalogTxnBad(client *api.Client, stop <-chan struct{}) error {
	lock, err := client.LockKey("service/leader")
	if err != nil {
		return err
	}
	if _, err := lock.Lock(stop); err != nil {
		return err
	}
	defer lock.Unlock()
	ops := api.TxnOps{
		&api.TxnOp{KV: &api.KVTxnOp{Verb: api.KVSet, Key: "assign/a", Value: []byte("n1")}},
		&api.TxnOp{Service: &api.ServiceTxnOp{Verb: api.ServiceSet, Node: "n1", Service: api.AgentService{ID: "web", Service: "web", Port: 80}}},
	}
	_, _, _, err = client.Txn().Txn(ops, nil) // want `consul write via client.Txn\(\).Txn under the consul lock is not fenced: no operation of the transaction checks the lock's session or an index`
	return err
}

func consulCatalogTxnGood(client *api.Client, stop <-chan struct{}, session string) error {
	lock, err := client.LockKey("service/leader")
	if err != nil {
		return err
	}
	if _, err := lock.Lock(stop); err != nil {
		return err
	}
	defer lock.Unlock()
	// ok: the store checks that the lock is still held by our session
	ops := api.TxnOps{
		&api.TxnOp{KV: &api.KVTxnOp{Verb: api.KVCheckSession, Key: "service/leader", Session: session}},
		&api.TxnOp{Service: &api.ServiceTxnOp{Verb: api.ServiceSet, Node: "n1", Service: api.AgentService{ID: "web", Service: "web", Port: 80}}},
	}
	_, _, _, err = client.Txn().Txn(ops, nil)
	return err
}
