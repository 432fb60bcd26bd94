package libs

import (
	"context"
	"database/sql"
	"time"

	"cirello.io/dynamolock/v2"
	"github.com/bsm/redislock"
	"github.com/go-co-op/gocron/v2"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-zookeeper/zk"
	"github.com/hashicorp/consul/api"
	"github.com/redis/go-redis/v9"
	samuelzk "github.com/samuel/go-zookeeper/zk"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// The acquires, releases, renews, lock types and tokens of the lock
// libraries that no other case uses.

const docFenceSQL = "UPDATE docs SET body = $1, fence = $3 WHERE id = $2 AND fence < $3"

// consul: a *api.Lock parameter puts the function under the lock.
func consulHeldBad(kv *api.KV, lock *api.Lock) error {
	if _, err := kv.Delete("service/config", nil); err != nil { // want `consul KV write via kv.Delete to service/config under the api.Lock lock is not fenced: it is unconditional; the api.Lock lock gives no token to fence with`
		return err
	}
	_, err := kv.DeleteTree("service/cache/", nil) // want `consul KV write via kv.DeleteTree to service/cache/ under the api.Lock lock is not fenced: it is unconditional`
	return err
}

func consulHeldGood(ctx context.Context, kv *api.KV, lock *api.Lock, db *sql.DB, session, id string) error {
	pair, _, err := kv.Get("service/leader", nil)
	if err != nil {
		return err
	}
	// ok: a check-and-set on the session the store evaluates
	if _, _, err := kv.Acquire(&api.KVPair{Key: "service/owner", Session: session}, nil); err != nil {
		return err
	}
	// ok: a delete conditioned on the ModifyIndex read
	if _, _, err := kv.DeleteCAS(&api.KVPair{Key: "service/config", ModifyIndex: pair.ModifyIndex}, nil); err != nil {
		return err
	}
	// ok: fenced with the lock key's LockIndex
	if _, err := db.ExecContext(ctx, docFenceSQL, "x", id, pair.LockIndex); err != nil {
		return err
	}
	// ok: fenced with the key's CreateIndex
	_, err = db.ExecContext(ctx, docFenceSQL, "y", id, pair.CreateIndex)
	return err
}

func consulDestroyedGood(client *api.Client, stop <-chan struct{}) error {
	lock, err := client.LockKey("service/leader")
	if err != nil {
		return err
	}
	if _, err := lock.Lock(stop); err != nil {
		return err
	}
	if err := lock.Destroy(); err != nil {
		return err
	}
	// ok: after the lock is destroyed
	_, err = client.KV().Put(&api.KVPair{Key: "status", Value: []byte("idle")}, nil)
	return err
}

// dynamolock: a *dynamolock.Lock parameter puts the function under the
// lock; heartbeats are bookkeeping.
func dynamolockHeldBad(ctx context.Context, c *dynamolock.Client, l *dynamolock.Lock, db *sql.DB, id string) error {
	if err := c.SendHeartbeat(l); err != nil {
		return err
	}
	if err := c.SendHeartbeatWithContext(ctx, l); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x' WHERE id = $1", id) // want `SQL write via db.ExecContext to docs under the dynamolock.Lock l is not fenced: its WHERE does not compare a fence column with the token; the dynamolock.Lock l gives no token to fence with`
	return err
}

func dynamolockReleaseContextGood(ctx context.Context, c *dynamolock.Client, db *sql.DB, id string) error {
	l, err := c.AcquireLockWithContext(ctx, "docs")
	if err != nil {
		return err
	}
	if _, err := c.ReleaseLockWithContext(ctx, l); err != nil {
		return err
	}
	// ok: after the release
	_, err = db.ExecContext(ctx, "UPDATE docs SET body = 'x' WHERE id = $1", id)
	return err
}

// etcd: NewLocker's sync.Locker hands out no token.
func etcdLockerBad(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	lk := concurrency.NewLocker(s, "/locks/cfg")
	lk.Lock()
	defer lk.Unlock()
	_, err := cli.Put(ctx, "config/data", "v") // want `etcd write via cli.Put to config/data under the etcd Locker is not fenced: it is unconditional; the etcd Locker gives no token to fence with`
	return err
}

func etcdMutexDeleteBad(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := cli.Delete(ctx, "config/data") // want `etcd write via cli.Delete to config/data under the etcd mutex is not fenced: it is unconditional`
	return err
}

func etcdSessionClosedGood(ctx context.Context, s *concurrency.Session, cli *clientv3.Client) error {
	m := concurrency.NewMutex(s, "/locks/cfg")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	if err := s.Close(); err != nil {
		return err
	}
	// ok: closing the session released the mutex
	_, err := cli.Put(ctx, "config/data", "v")
	return err
}

func etcdRevisionsGood(ctx context.Context, m *concurrency.Mutex, cli *clientv3.Client, db *sql.DB, id string) error {
	resp, err := cli.Get(ctx, "/locks/cfg")
	if err != nil || len(resp.Kvs) == 0 {
		return err
	}
	// ok: fenced with the lock key's CreateRevision
	if _, err := db.ExecContext(ctx, docFenceSQL, "x", id, resp.Kvs[0].CreateRevision); err != nil {
		return err
	}
	// ok: fenced with the lock key's ModRevision
	_, err = db.ExecContext(ctx, docFenceSQL, "y", id, resp.Kvs[0].ModRevision)
	return err
}

// An *concurrency.Election parameter puts the function under the
// election; Proclaim is bookkeeping.
func electionHeldBad(ctx context.Context, e *concurrency.Election, cli *clientv3.Client) error {
	if err := e.Proclaim(ctx, "me"); err != nil {
		return err
	}
	_, err := cli.Put(ctx, "leader/data", "x") // want `etcd write via cli.Put to leader/data under the concurrency.Election e is not fenced: it is unconditional; compare the stored fence with e.Rev\(\) in the write itself`
	return err
}

func electionHeaderRevisionGood(ctx context.Context, e *concurrency.Election, db *sql.DB, id string) error {
	// ok: fenced with the election's header revision
	_, err := db.ExecContext(ctx, docFenceSQL, "x", id, e.Header().Revision)
	return err
}

// go-zookeeper: LockWithData; a *zk.Lock parameter; Create and a Multi
// without a version check are unconditional; zxids are tokens.
func zkLockWithDataBad(conn *zk.Conn, data []byte) error {
	l := zk.NewLock(conn, "/locks/cfg", zk.WorldACL(zk.PermAll))
	if err := l.LockWithData([]byte("me")); err != nil {
		return err
	}
	defer l.Unlock()
	_, err := conn.Create("/config/item", data, 0, zk.WorldACL(zk.PermAll)) // want `ZooKeeper write via conn.Create to /config/item under the ZooKeeper lock is not fenced: a plain Create is not conditioned on the lock`
	return err
}

func zkHeldMultiBad(conn *zk.Conn, l *zk.Lock, data []byte) error {
	_, err := conn.Multi(&zk.SetDataRequest{Path: "/config/data", Data: data, Version: -1}) // want `ZooKeeper write via conn.Multi under the zk.Lock l is not fenced: it carries no CheckVersionRequest on the lock node`
	return err
}

func zkHeldMultiGood(conn *zk.Conn, l *zk.Lock, data []byte, lockVersion int32) error {
	// ok: the transaction checks the lock node's version
	_, err := conn.Multi(&zk.CheckVersionRequest{Path: "/locks/cfg", Version: lockVersion}, &zk.SetDataRequest{Path: "/config/data", Data: data, Version: -1})
	return err
}

func zkZxidGood(ctx context.Context, conn *zk.Conn, l *zk.Lock, db *sql.DB, id string) error {
	_, st, err := conn.Get("/locks/cfg")
	if err != nil {
		return err
	}
	// ok: fenced with the lock node's Czxid
	if _, err := db.ExecContext(ctx, docFenceSQL, "x", id, st.Czxid); err != nil {
		return err
	}
	// ok: fenced with its Mzxid
	_, err = db.ExecContext(ctx, docFenceSQL, "y", id, st.Mzxid)
	return err
}

func samuelZKHeldBad(conn *samuelzk.Conn, l *samuelzk.Lock, data []byte) error {
	if _, err := conn.Create("/config/item", data, 0, samuelzk.WorldACL(samuelzk.PermAll)); err != nil { // want `ZooKeeper write via conn.Create to /config/item under the zk.Lock l is not fenced: a plain Create is not conditioned on the lock`
		return err
	}
	_, err := conn.Multi(&samuelzk.SetDataRequest{Path: "/config/data", Data: data, Version: -1}) // want `ZooKeeper write via conn.Multi under the zk.Lock l is not fenced: it carries no CheckVersionRequest on the lock node`
	return err
}

func samuelZKZxidGood(ctx context.Context, conn *samuelzk.Conn, l *samuelzk.Lock, db *sql.DB, id string) error {
	_, st, err := conn.Get("/locks/cfg")
	if err != nil {
		return err
	}
	// ok: fenced with the lock node's Czxid
	if _, err := db.ExecContext(ctx, docFenceSQL, "x", id, st.Czxid); err != nil {
		return err
	}
	// ok: fenced with its Mzxid
	_, err = db.ExecContext(ctx, docFenceSQL, "y", id, st.Mzxid)
	return err
}

// gocron's Locker: the lock it returns carries no token.
func gocronLockerBad(ctx context.Context, locker gocron.Locker, db *sql.DB) error {
	lk, err := locker.Lock(ctx, "nightly-report")
	if err != nil {
		return err
	}
	defer lk.Unlock(ctx)
	_, err = db.ExecContext(ctx, "UPDATE reports SET runs = runs + 1 WHERE id = 1") // want `SQL write via db.ExecContext to reports under the gocron Locker is not fenced`
	return err
}

// redislock's package-level Obtain; Refresh is bookkeeping.
func redislockObtainBad(ctx context.Context, rdb *redis.Client) error {
	lock, err := redislock.Obtain(ctx, rdb, "report", time.Minute, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	if err := lock.Refresh(ctx, time.Minute, nil); err != nil {
		return err
	}
	return rdb.Set(ctx, "report:latest", "x", 0).Err() // want `Redis write via rdb.Set to report:latest under the redislock lock is not fenced`
}

// redislockOwnKeyGood writes the lock's own key (a test handing the lock
// to another owner, as redislock's own tests do): that is the lock, not
// data it protects.
func redislockOwnKeyGood(ctx context.Context, rc *redislock.Client, rdb *redis.Client, key string) error {
	lock, err := rc.Obtain(ctx, key, time.Minute, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	// ok: the lock's own key
	if err := rdb.Set(ctx, key, "someone-else", 0).Err(); err != nil {
		return err
	}
	return rdb.Set(ctx, key+":result", "x", 0).Err() // want `Redis write via rdb.Set under the redislock lock is not fenced`
}

// redsync: Lock, TryLock and TryLockContext acquire; Extend and
// ExtendContext are bookkeeping.
func redsyncAcquiresBad(ctx context.Context, rs *redsync.Redsync, rdb *redis.Client) error {
	m := rs.NewMutex("jobs")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	if _, err := m.Extend(); err != nil {
		return err
	}
	return rdb.HSet(ctx, "jobs:state", "a", "done").Err() // want `under the redsync mutex is not fenced: it is unconditional`
}

func redsyncTryLockBad(ctx context.Context, rs *redsync.Redsync, rdb *redis.Client) error {
	m := rs.NewMutex("jobs")
	if err := m.TryLock(); err != nil {
		return err
	}
	defer m.Unlock()
	return rdb.HSet(ctx, "jobs:state", "b", "done").Err() // want `under the redsync mutex is not fenced`
}

func redsyncTryLockContextBad(ctx context.Context, rs *redsync.Redsync, rdb *redis.Client) error {
	m := rs.NewMutex("jobs")
	if err := m.TryLockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	if _, err := m.ExtendContext(ctx); err != nil {
		return err
	}
	return rdb.HSet(ctx, "jobs:state", "c", "done").Err() // want `under the redsync mutex is not fenced`
}
