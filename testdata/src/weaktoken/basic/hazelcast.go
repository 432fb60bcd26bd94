package basic

import (
	"context"
	"database/sql"

	"github.com/hazelcast/hazelcast-go-client"
)

// A Hazelcast CP AtomicLong is linearizable, but bumped after the map
// lock's grant rather than with it: a holder that pauses between the two
// draws a larger number than the holder after it.

func hazelcastCounterBad(ctx context.Context, c *hazelcast.Client, m *hazelcast.Map, db *sql.DB, id string) error {
	counter, err := c.CPSubsystem().GetAtomicLong(ctx, "fence:"+id)
	if err != nil {
		return err
	}
	ctx = hazelcast.NewLockContext(ctx)
	if err := m.Lock(ctx, id); err != nil {
		return err
	}
	defer m.Unlock(ctx, id)
	tok, err := counter.IncrementAndGet(ctx) // want `counter.IncrementAndGet\(ctx\) is not a monotonic fencing token: a Hazelcast AtomicLong is incremented after the lock grant, not atomically with it`
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, fenceSQL, id, tok); err != nil {
		return err
	}
	tok2, err := counter.AddAndGet(ctx, 1) // want `counter.AddAndGet\(ctx, 1\) is not a monotonic fencing token: a Hazelcast AtomicLong`
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, fenceSQL, id, tok2)
	return err
}

func hazelcastCounterReadGood(ctx context.Context, c *hazelcast.Client, db *sql.DB, lease *Lease, id string) error {
	counter, err := c.CPSubsystem().GetAtomicLong(ctx, "fence:"+id)
	if err != nil {
		return err
	}
	// ok: Get only reads the counter; the lease's own token fences the write
	if _, err := counter.Get(ctx); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, fenceSQL, id, lease.Token)
	return err
}
