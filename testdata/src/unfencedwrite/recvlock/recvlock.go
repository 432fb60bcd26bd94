// Package recvlock exercises locks held in the receiver (issue 13 item
// 4): a type whose Lock method takes a lock and keeps it in a field runs
// its other exported methods under it, the shape of terraform's
// remote-state clients (Lock, then Put of the state, then Unlock).
package recvlock

import (
	"context"
	"database/sql"
	"errors"

	"github.com/hashicorp/consul/api"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

var errLocked = errors.New("state is locked")

// ConsulClient keeps the consul lock it takes in the receiver.
type ConsulClient struct {
	Client *api.Client
	Path   string
	lock   *api.Lock
	lockCh <-chan struct{}
}

func (c *ConsulClient) Lock() error {
	l, err := c.Client.LockKey(c.Path + "/.lock")
	if err != nil {
		return err
	}
	ch, err := l.Lock(nil)
	if err != nil {
		return err
	}
	if ch == nil {
		return errLocked
	}
	c.lock, c.lockCh = l, ch
	return nil
}

func (c *ConsulClient) Unlock() error {
	if c.lock == nil {
		return nil
	}
	return c.lock.Unlock()
}

func (c *ConsulClient) Put(data []byte) error {
	_, err := c.Client.KV().Put(&api.KVPair{Key: c.Path, Value: data}, nil) // want `consul KV write via c.Client.KV\(\).Put under the consul lock held in the ConsulClient by Lock is not fenced`
	return err
}

// PutCAS writes with a check-and-set on the index it read: ok.
func (c *ConsulClient) PutCAS(data []byte, index uint64) (bool, error) {
	ok, _, err := c.Client.KV().CAS(&api.KVPair{Key: c.Path, Value: data, ModifyIndex: index}, nil)
	return ok, err
}

// Discard releases the lock before it deletes: the delete is outside it.
func (c *ConsulClient) Discard() error {
	if err := c.Unlock(); err != nil {
		return err
	}
	// ok: the lock is released before the write
	_, err := c.Client.KV().Delete(c.Path, nil)
	return err
}

// EtcdClient keeps its mutex and the revision it was granted.
type EtcdClient struct {
	cli *clientv3.Client
	s   *concurrency.Session
	mu  *concurrency.Mutex
	rev int64
}

func (c *EtcdClient) Lock(ctx context.Context) error {
	c.mu = concurrency.NewMutex(c.s, "/locks/state")
	if err := c.mu.Lock(ctx); err != nil {
		return err
	}
	c.rev = c.mu.Header().Revision
	return nil
}

func (c *EtcdClient) Unlock(ctx context.Context) error { return c.mu.Unlock(ctx) }

func (c *EtcdClient) Put(ctx context.Context, data string) error {
	_, err := c.cli.Put(ctx, "state", data) // want `etcd write via c.cli.Put to state under the etcd mutex held in the EtcdClient by Lock is not fenced`
	return err
}

// PutFenced compares the revision Lock kept in the receiver: ok.
func (c *EtcdClient) PutFenced(ctx context.Context, data string) error {
	resp, err := c.cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision("/fence/state"), "<", c.rev)).
		Then(clientv3.OpPut("state", data), clientv3.OpPut("/fence/state", "")).Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errLocked // superseded by a newer holder
	}
	return nil
}

// PGClient takes a PostgreSQL advisory lock on the pool and remembers it.
type PGClient struct {
	DB     *sql.DB
	Name   string
	id     int64
	locked bool
}

func (c *PGClient) Lock(ctx context.Context) error {
	var ok bool
	if err := c.DB.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", c.id).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return errLocked
	}
	c.locked = true
	return nil
}

func (c *PGClient) Unlock(ctx context.Context) error {
	_, err := c.DB.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", c.id)
	c.locked = false
	return err
}

func (c *PGClient) Put(ctx context.Context, data []byte) error {
	_, err := c.DB.ExecContext(ctx, "INSERT INTO states (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = $2", c.Name, data) // want `SQL write via c.DB.ExecContext to states under the PostgreSQL advisory lock held in the PGClient by Lock is not fenced`
	return err
}

// Get only reads: ok.
func (c *PGClient) Get(ctx context.Context) ([]byte, error) {
	var data []byte
	err := c.DB.QueryRowContext(ctx, "SELECT data FROM states WHERE name = $1", c.Name).Scan(&data)
	return data, err
}

// Reset unlocks first: its delete runs without the lock.
func (c *PGClient) Reset(ctx context.Context) error {
	if err := c.Unlock(ctx); err != nil {
		return err
	}
	// ok: the lock is released before the write
	_, err := c.DB.ExecContext(ctx, "DELETE FROM states WHERE name = $1", c.Name)
	return err
}

// Syncer takes and releases its lock within one method: its other
// methods hold nothing.
type Syncer struct {
	cli *clientv3.Client
	mu  *concurrency.Mutex
}

func (s *Syncer) Sync(ctx context.Context) error {
	if err := s.mu.Lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock(ctx)
	resp, err := s.cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision("/fence/sync"), "<", s.mu.Header().Revision)).
		Then(clientv3.OpPut("sync", "x"), clientv3.OpPut("/fence/sync", "")).Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errLocked // superseded by a newer holder
	}
	return nil
}

// Save is called without the lock: ok, not a lock scope.
func (s *Syncer) Save(ctx context.Context, v string) error {
	_, err := s.cli.Put(ctx, "sync", v)
	return err
}

// WatchedClient's lock method captures the receiver in a goroutine that
// watches the lock (SSA then boxes c): it still keeps the lock in c.
type WatchedClient struct {
	Client *api.Client
	Path   string
	lock   *api.Lock
	lost   chan struct{}
}

func (c *WatchedClient) lockState() error {
	l, err := c.Client.LockKey(c.Path + "/.lock")
	if err != nil {
		return err
	}
	c.lock = l
	ch, err := c.lock.Lock(nil)
	if err != nil {
		return err
	}
	if ch == nil {
		return errLocked
	}
	go func() {
		<-ch
		close(c.lost)
	}()
	return nil
}

func (c *WatchedClient) Put(data []byte) error {
	_, err := c.Client.KV().Put(&api.KVPair{Key: c.Path, Value: data}, nil) // want `consul KV write via c.Client.KV\(\).Put under the consul lock held in the WatchedClient by lockState is not fenced`
	return err
}

// PutCAS checks and sets: ok.
func (c *WatchedClient) PutCAS(data []byte, index uint64) (bool, error) {
	ok, _, err := c.Client.KV().CAS(&api.KVPair{Key: c.Path, Value: data, ModifyIndex: index}, nil)
	return ok, err
}
