// Package scopes exercises lock scopes reached through Go's own flow
// (issue 13 item 4): closures defined before the lock and called under
// it, callbacks handed through two with-lock helpers, and a lease kept
// in a struct field for the methods called under it.
package scopes

import (
	"context"
	"database/sql"
	"time"

	"go.etcd.io/etcd/client/v3/concurrency"
)

func closureBeforeLockBad(ctx context.Context, db *sql.DB, s *concurrency.Session, id string) error {
	m := concurrency.NewMutex(s, "/docs/"+id)
	save := func() error {
		_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x' WHERE id = $1", id)
		return err
	}
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return save() // want `storage write via save under the etcd mutex is not fenced: save does a SQL write to docs with no fence`
}

func closureBeforeLockGood(ctx context.Context, db *sql.DB, s *concurrency.Session, id string) error {
	m := concurrency.NewMutex(s, "/docs/"+id)
	save := func(rev int64) error {
		_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, rev)
		return err
	}
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the closure's parameter is the token at this call
	return save(m.Header().Revision)
}

func closureCalledAfterUnlockGood(ctx context.Context, db *sql.DB, s *concurrency.Session, id string) error {
	m := concurrency.NewMutex(s, "/docs/"+id)
	save := func() error {
		_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x' WHERE id = $1", id)
		return err
	}
	if err := m.Lock(ctx); err != nil {
		return err
	}
	if err := m.Unlock(ctx); err != nil {
		return err
	}
	// ok: called after the lock is released
	return save()
}

// withLock runs fn under a mutex on name, handing it the revision.
func withLock(ctx context.Context, s *concurrency.Session, name string, fn func(context.Context, int64) error) error {
	m := concurrency.NewMutex(s, name)
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return fn(ctx, m.Header().Revision)
}

// withDocLock hands its callback on to withLock: a second level.
func withDocLock(ctx context.Context, s *concurrency.Session, id string, fn func(context.Context, int64) error) error {
	return withLock(ctx, s, "/docs/"+id, fn)
}

func twoLevelsBad(ctx context.Context, db *sql.DB, s *concurrency.Session, id string) error {
	return withDocLock(ctx, s, id, func(ctx context.Context, rev int64) error {
		_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'y' WHERE id = $1", id) // want `SQL write via db.ExecContext to docs under the lock held by withDocLock is not fenced`
		return err
	})
}

func twoLevelsGood(ctx context.Context, db *sql.DB, s *concurrency.Session, id string) error {
	return withDocLock(ctx, s, id, func(ctx context.Context, rev int64) error {
		// ok: the revision handed down both levels fences the write
		_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'y', fence = $2 WHERE id = $1 AND fence < $2", id, rev)
		return err
	})
}

// Lease is lease-shaped (an integer Token).
type Lease struct {
	Token     int64
	ExpiresAt time.Time
}

type Leaser struct{}

func (l *Leaser) Acquire(ctx context.Context, name string) (*Lease, error) { return &Lease{}, nil }
func (l *Leaser) Release(ctx context.Context, lease *Lease) error          { return nil }

// Worker keeps the lease it holds in a field for the methods it calls.
type Worker struct {
	db     *sql.DB
	leaser *Leaser
	lease  *Lease
}

func (w *Worker) Run(ctx context.Context) error {
	lease, err := w.leaser.Acquire(ctx, "worker")
	if err != nil {
		return err
	}
	defer w.leaser.Release(ctx, lease)
	w.lease = lease
	if err := w.flush(ctx); err != nil {
		return err
	}
	return w.flushBad(ctx) // want `storage write via w.flushBad under the lease Lease from Acquire is not fenced`
}

// flush fences with the lease's token read from the field: ok.
func (w *Worker) flush(ctx context.Context) error {
	_, err := w.db.ExecContext(ctx, "UPDATE docs SET body = 'z', fence = $2 WHERE id = $1 AND fence < $2", "w", w.lease.Token)
	return err
}

func (w *Worker) flushBad(ctx context.Context) error {
	_, err := w.db.ExecContext(ctx, "UPDATE docs SET body = 'z' WHERE id = $1", "w")
	return err
}

// JobLease's only expiry field is unexported: a lease without a token.
type JobLease struct {
	owner    string
	expireAt int64
}

// CacheLock's expiry is named like one (validUntil): a lease without a token.
type CacheLock struct {
	key        string
	validUntil time.Time
}

type Locks struct{}

func (l *Locks) TakeJob(ctx context.Context, id string) (*JobLease, error) { return &JobLease{}, nil }
func (l *Locks) ReleaseJob(ctx context.Context, lease *JobLease) error     { return nil }

type CacheLocks struct{}

func (l *CacheLocks) TakeCache(ctx context.Context, key string) (*CacheLock, error) {
	return &CacheLock{}, nil
}

func (l *CacheLocks) Release(ctx context.Context, lk *CacheLock) error { return nil }

func unexportedExpiryBad(ctx context.Context, l *Locks, db *sql.DB, id string) error {
	lease, err := l.TakeJob(ctx, id)
	if err != nil {
		return err
	}
	defer l.ReleaseJob(ctx, lease)
	_, err = db.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id) // want `SQL write via db.ExecContext to jobs under the lease JobLease from TakeJob is not fenced`
	return err
}

func expiryNamedBad(ctx context.Context, l *CacheLocks, db *sql.DB, key string) error {
	lk, err := l.TakeCache(ctx, key)
	if err != nil {
		return err
	}
	defer l.Release(ctx, lk)
	_, err = db.ExecContext(ctx, "UPDATE cache SET v = 'x' WHERE k = $1", key) // want `SQL write via db.ExecContext to cache under the lease CacheLock from TakeCache is not fenced`
	return err
}

func expiryNamedReleasedGood(ctx context.Context, l *CacheLocks, db *sql.DB, key string) error {
	lk, err := l.TakeCache(ctx, key)
	if err != nil {
		return err
	}
	if err := l.Release(ctx, lk); err != nil {
		return err
	}
	// ok: the lease was released before the write
	_, err = db.ExecContext(ctx, "UPDATE cache SET v = 'x' WHERE k = $1", key)
	return err
}
