package leasefixture

import (
	"context"
	"database/sql"
	"testing"
	"time"
)

// A test builds leases as fixtures and seeds the store: no lock is held.
func TestSeed(t *testing.T) {
	ctx := context.Background()
	var db *sql.DB
	l := NewLease(time.Now().Add(time.Minute))
	_ = l
	db.ExecContext(ctx, "INSERT INTO jobs (id, state) VALUES (1, 'active')") // ok: fixture
	l2 := NewLeaseAt(time.Minute)
	_ = l2
	db.ExecContext(ctx, "UPDATE jobs SET state = 'active' WHERE id = 1") // ok: fixture through a wrapper
	if err := process(ctx, db, 1); err != nil {
		t.Fatal(err)
	}
}

// A test that takes the lock from the lock service holds it.
func TestUnderLock(t *testing.T) {
	ctx := context.Background()
	var db *sql.DB
	var lk Locker
	l, err := lk.Acquire(ctx, "jobs")
	if err != nil {
		t.Fatal(err)
	}
	defer lk.Release(ctx, l)
	db.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = 1") // want `SQL write via db.ExecContext to jobs under the lease Lease from Acquire is not fenced`
}
