// Package retry: locks taken and released through retry runners
// (rules.RetryRunners). The runner returns nil once the function it runs
// did, so the lock the function takes is held after a successful runner
// call, and one it releases is released.
package retry

import (
	"context"
	"database/sql"
	"errors"
	"time"

	avast "github.com/avast/retry-go/v4"
	backoff3 "github.com/cenkalti/backoff/v3"
	backoff "github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	"github.com/go-redsync/redsync/v4"
	"github.com/redis/go-redis/v9"
	goretry "github.com/sethvargo/go-retry"
	"go.etcd.io/etcd/client/v3/concurrency"
)

func pause() backoff.BackOff { return backoff.NewConstantBackOff(time.Second) }

// cenkalti/backoff's Retry runs the acquire until it succeeds.
func backoffRetryBad(ctx context.Context, rs *redsync.Redsync, rdb *redis.Client) error {
	m := rs.NewMutex("jobs")
	if err := backoff.Retry(func() error { return m.LockContext(ctx) }, pause()); err != nil {
		rdb.Set(ctx, "jobs:failed", "x", 0) // ok: the lock was not taken
		return err
	}
	defer m.Unlock()
	return rdb.HSet(ctx, "jobs:state", "a", "done").Err() // want `Redis write via rdb.HSet to jobs:state under the redsync mutex is not fenced: it is unconditional`
}

// The same lock fenced: an etcd mutex taken through RetryNotify, and a
// write that compares its revision.
func backoffRetryNotifyGood(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) error {
	m := concurrency.NewMutex(s, "/locks/docs")
	if err := backoff.RetryNotify(func() error { return m.Lock(ctx) }, pause(), nil); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	res, err := db.ExecContext(ctx, "UPDATE docs SET body = $1, fence = $3 WHERE id = $2 AND fence < $3", "x", id, m.Header().Revision)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errors.New("superseded by a newer lock holder")
	}
	return nil
}

// A release through a runner ends the scope.
func releasedThroughRunnerGood(ctx context.Context, rs *redsync.Redsync, rdb *redis.Client) error {
	m := rs.NewMutex("jobs")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	err := goretry.Do(ctx, goretry.NewConstant(time.Second), func(ctx context.Context) error {
		_, err := m.UnlockContext(ctx)
		return goretry.RetryableError(err)
	})
	if err != nil {
		return err
	}
	return rdb.Set(ctx, "jobs:done", "x", 0).Err() // ok: after the release
}

// A function that takes and releases the lock itself leaves nothing held.
func heldInsideOnlyGood(ctx context.Context, rs *redsync.Redsync, rdb *redis.Client) error {
	m := rs.NewMutex("jobs")
	if err := avast.Do(func() error {
		if err := m.LockContext(ctx); err != nil {
			return err
		}
		_, err := m.UnlockContext(ctx)
		return err
	}, avast.Attempts(3)); err != nil {
		return err
	}
	return rdb.Set(ctx, "jobs:done", "x", 0).Err() // ok: no lock held
}

// The generic runners.
func avastDoWithDataBad(ctx context.Context, rs *redsync.Redsync, rdb *redis.Client) error {
	m := rs.NewMutex("jobs")
	if _, err := avast.DoWithData(func() (bool, error) { return true, m.LockContext(ctx) }); err != nil {
		return err
	}
	return rdb.Set(ctx, "jobs:owner", "me", 0).Err() // want `Redis write via rdb.Set to jobs:owner under the redsync mutex is not fenced`
}

func backoffV5Bad(ctx context.Context, rs *redsync.Redsync, rdb *redis.Client) error {
	m := rs.NewMutex("jobs")
	if _, err := backoff5.Retry(ctx, func() (struct{}, error) { return struct{}{}, m.LockContext(ctx) }); err != nil {
		return err
	}
	return rdb.Set(ctx, "jobs:owner", "me", 0).Err() // want `Redis write via rdb.Set to jobs:owner under the redsync mutex is not fenced`
}

func goRetryDoValueBad(ctx context.Context, rs *redsync.Redsync, rdb *redis.Client) error {
	m := rs.NewMutex("jobs")
	_, err := goretry.DoValue(ctx, goretry.NewConstant(time.Second), func(ctx context.Context) (int, error) {
		return 1, m.LockContext(ctx)
	})
	if err != nil {
		return err
	}
	return rdb.Set(ctx, "jobs:owner", "me", 0).Err() // want `Redis write via rdb.Set to jobs:owner under the redsync mutex is not fenced`
}

// A runner that retries a write, not an acquire, opens no scope.
func retriedWriteGood(ctx context.Context, rdb *redis.Client) error {
	if err := avast.Do(func() error { return rdb.Set(ctx, "cache:a", "x", 0).Err() }); err != nil {
		return err
	}
	return rdb.Set(ctx, "cache:b", "x", 0).Err() // ok: no lock
}

// mennanov/limiters' shape: the function is a variable (cenkalti/backoff
// v3).
func backoffV3Bad(ctx context.Context, rs *redsync.Redsync, rdb *redis.Client, b backoff3.BackOff) error {
	m := rs.NewMutex("jobs")
	o := func() error { return m.LockContext(ctx) }
	if err := backoff3.Retry(o, b); err != nil {
		return err
	}
	return rdb.Set(ctx, "jobs:owner", "me", 0).Err() // want `Redis write via rdb.Set to jobs:owner under the redsync mutex is not fenced`
}

func backoffV3ReleaseGood(ctx context.Context, rs *redsync.Redsync, rdb *redis.Client, b backoff3.BackOff) error {
	m := rs.NewMutex("jobs")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	unlock := func() error {
		_, err := m.UnlockContext(ctx)
		return err
	}
	if err := backoff3.RetryNotify(unlock, b, nil); err != nil {
		return err
	}
	return rdb.Set(ctx, "jobs:done", "x", 0).Err() // ok: after the release
}
