package libs

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/hazelcast/hazelcast-go-client"
	"github.com/hazelcast/hazelcast-go-client/types"
)

// Hazelcast's map lock (Map.Lock and its variants) locks one key for the
// lock context in ctx and hands out no token: writes under it, to the map
// or elsewhere, have nothing to fence with. ReplaceIfSame and RemoveIfSame
// compare the value read.

var errHzChanged = errors.New("changed")

func hazelcastLockBad(ctx context.Context, c *hazelcast.Client, db *sql.DB, id string) error {
	m, err := c.GetMap(ctx, "orders")
	if err != nil {
		return err
	}
	ctx = hazelcast.NewLockContext(ctx)
	if err := m.Lock(ctx, id); err != nil {
		return err
	}
	defer m.Unlock(ctx, id)
	if _, err := m.Put(ctx, id, "paid"); err != nil { // want `Hazelcast map write via m.Put under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE orders SET state = 'paid' WHERE id = $1", id) // want `SQL write via db.ExecContext to orders under the Hazelcast map lock is not fenced: its WHERE does not compare a fence column with the token; the Hazelcast map lock gives no token to fence with`
	return err
}

func hazelcastWritesBad(ctx context.Context, m *hazelcast.Map, id string) error {
	ctx = m.NewLockContext(ctx)
	if err := m.LockWithLease(ctx, id, 10*time.Second); err != nil {
		return err
	}
	defer m.ForceUnlock(ctx, id)
	d := time.Minute
	m.PutWithTTL(ctx, id, 1, d)                       // want `Hazelcast map write via m.PutWithTTL under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	m.PutWithMaxIdle(ctx, id, 1, d)                   // want `Hazelcast map write via m.PutWithMaxIdle under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	m.PutWithTTLAndMaxIdle(ctx, id, 1, d, d)          // want `Hazelcast map write via m.PutWithTTLAndMaxIdle under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	m.PutTransient(ctx, id, 1)                        // want `Hazelcast map write via m.PutTransient under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	m.PutTransientWithTTL(ctx, id, 1, d)              // want `Hazelcast map write via m.PutTransientWithTTL under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	m.PutTransientWithMaxIdle(ctx, id, 1, d)          // want `Hazelcast map write via m.PutTransientWithMaxIdle under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	m.PutTransientWithTTLAndMaxIdle(ctx, id, 1, d, d) // want `Hazelcast map write via m.PutTransientWithTTLAndMaxIdle under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	m.Set(ctx, id, 1)                                 // want `Hazelcast map write via m.Set under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	m.SetWithTTL(ctx, id, 1, d)                       // want `Hazelcast map write via m.SetWithTTL under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	m.SetWithTTLAndMaxIdle(ctx, id, 1, d, d)          // want `Hazelcast map write via m.SetWithTTLAndMaxIdle under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	m.Replace(ctx, id, 2)                             // want `Hazelcast map write via m.Replace under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	m.TryPut(ctx, id, 3)                              // want `Hazelcast map write via m.TryPut under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	m.TryPutWithTimeout(ctx, id, 3, d)                // want `Hazelcast map write via m.TryPutWithTimeout under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	m.PutAll(ctx, types.NewEntry(id, 4))              // want `Hazelcast map write via m.PutAll under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	m.Delete(ctx, id)                                 // want `Hazelcast map write via m.Delete under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	m.Remove(ctx, id)                                 // want `Hazelcast map write via m.Remove under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	m.TryRemove(ctx, id)                              // want `Hazelcast map write via m.TryRemove under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	m.TryRemoveWithTimeout(ctx, id, d)                // want `Hazelcast map write via m.TryRemoveWithTimeout under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	m.Evict(ctx, id)                                  // want `Hazelcast map write via m.Evict under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
	return m.Clear(ctx)                               // want `Hazelcast map write via m.Clear under the Hazelcast map lock is not fenced: it is unconditional; the Hazelcast map lock gives no token to fence with`
}

func hazelcastTryLockBad(ctx context.Context, m *hazelcast.Map, db *sql.DB, id string) error {
	ctx = hazelcast.NewLockContext(ctx)
	for _, try := range []func() (bool, error){
		func() (bool, error) { return m.TryLock(ctx, id) },
		func() (bool, error) { return m.TryLockWithLease(ctx, id, time.Second) },
		func() (bool, error) { return m.TryLockWithTimeout(ctx, id, time.Second) },
	} {
		_ = try
	}
	ok, err := m.TryLockWithLeaseAndTimeout(ctx, id, 10*time.Second, time.Second)
	if err != nil || !ok {
		return err
	}
	defer m.Unlock(ctx, id)
	_, err = db.ExecContext(ctx, "UPDATE orders SET state = 'shipped' WHERE id = $1", id) // want `SQL write via db.ExecContext to orders under the Hazelcast map lock is not fenced: its WHERE does not compare a fence column with the token; the Hazelcast map lock gives no token to fence with`
	return err
}

func hazelcastTryLockGood(ctx context.Context, m *hazelcast.Map, db *sql.DB, id string) error {
	ctx = hazelcast.NewLockContext(ctx)
	ok, err := m.TryLock(ctx, id)
	if err != nil {
		return err
	}
	if !ok {
		// ok: not acquired, so no scope: this write is outside any lock
		_, err = db.ExecContext(ctx, "INSERT INTO lock_misses (id) VALUES ($1)", id)
		return err
	}
	defer m.Unlock(ctx, id)
	return nil
}

func hazelcastCASGood(ctx context.Context, m *hazelcast.Map, id string) error {
	ctx = hazelcast.NewLockContext(ctx)
	if err := m.Lock(ctx, id); err != nil {
		return err
	}
	defer m.Unlock(ctx, id)
	old, err := m.Get(ctx, id)
	if err != nil {
		return err
	}
	// ok: replaced only while the entry still holds the value read
	if ok, err := m.ReplaceIfSame(ctx, id, old, "next"); err != nil || !ok {
		return errHzChanged
	}
	// ok: removed only while the entry holds that value
	if ok, err := m.RemoveIfSame(ctx, id, "next"); err != nil || !ok {
		return errHzChanged
	}
	return nil
}

func hazelcastCreateBad(ctx context.Context, m *hazelcast.Map, id string) error {
	ctx = hazelcast.NewLockContext(ctx)
	if err := m.Lock(ctx, id); err != nil {
		return err
	}
	defer m.Unlock(ctx, id)
	// Create-only, as a plain INSERT is: it carries no token either.
	if _, err := m.PutIfAbsent(ctx, id+"/audit", "created"); err != nil { // want `Hazelcast map write via m.PutIfAbsent under the Hazelcast map lock is not fenced: a plain PutIfAbsent is not conditioned on the lock`
		return err
	}
	_, err := m.PutIfAbsentWithTTL(ctx, id+"/ttl", "created", time.Minute) // want `Hazelcast map write via m.PutIfAbsentWithTTL under the Hazelcast map lock is not fenced`
	return err
}
