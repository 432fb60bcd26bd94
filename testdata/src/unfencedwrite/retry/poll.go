package retry

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
	"go.etcd.io/etcd/client/v3/concurrency"
	"k8s.io/apimachinery/pkg/util/wait"
)

// apimachinery's pollers: the condition takes the lock and reports done;
// the poller returns nil once it did.
func pollUntilTimeoutBad(ctx context.Context, m *concurrency.Mutex, rdb *redis.Client) error {
	err := wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(ctx context.Context) (bool, error) {
		if err := m.TryLock(ctx); err != nil {
			if errors.Is(err, concurrency.ErrLocked) {
				return false, nil
			}
			return false, err
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return rdb.Set(ctx, "report", "x", 0).Err() // want `Redis write via rdb.Set to report under the etcd mutex is not fenced: it is unconditional`
}

func tryLock(ctx context.Context, m *concurrency.Mutex) (bool, error) {
	if err := m.TryLock(ctx); err != nil {
		return false, nil
	}
	return true, nil
}

func pollUntilCancelBad(ctx context.Context, m *concurrency.Mutex, rdb *redis.Client) error {
	cond := func(ctx context.Context) (bool, error) { return tryLock(ctx, m) }
	if err := wait.PollUntilContextCancel(ctx, time.Second, true, cond); err != nil {
		return err
	}
	return rdb.Set(ctx, "report", "x", 0).Err() // want `Redis write via rdb.Set to report under the etcd mutex is not fenced`
}

func pollBad(ctx context.Context, m *concurrency.Mutex, rdb *redis.Client) error {
	if err := wait.Poll(time.Second, time.Minute, func() (bool, error) { return tryLock(ctx, m) }); err != nil {
		return err
	}
	return rdb.Set(ctx, "report", "x", 0).Err() // want `Redis write via rdb.Set to report under the etcd mutex is not fenced`
}

func pollImmediateBad(ctx context.Context, m *concurrency.Mutex, rdb *redis.Client) error {
	if err := wait.PollImmediate(time.Second, time.Minute, func() (bool, error) { return tryLock(ctx, m) }); err != nil {
		return err
	}
	return rdb.Set(ctx, "report", "x", 0).Err() // want `Redis write via rdb.Set to report under the etcd mutex is not fenced`
}

func exponentialBackoffBad(ctx context.Context, m *concurrency.Mutex, rdb *redis.Client, b wait.Backoff) error {
	if err := wait.ExponentialBackoff(b, func() (bool, error) { return tryLock(ctx, m) }); err != nil {
		return err
	}
	return rdb.Set(ctx, "report", "x", 0).Err() // want `Redis write via rdb.Set to report under the etcd mutex is not fenced`
}

func exponentialBackoffContextBad(ctx context.Context, m *concurrency.Mutex, rdb *redis.Client, b wait.Backoff) error {
	if err := wait.ExponentialBackoffWithContext(ctx, b, func(ctx context.Context) (bool, error) { return tryLock(ctx, m) }); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	rdb.Set(ctx, "report", "x", 0) // want `Redis write via rdb.Set to report under the etcd mutex is not fenced`
	return nil
}

// A poller whose condition only reads opens no scope.
func pollReadOnlyGood(ctx context.Context, rdb *redis.Client) error {
	if err := wait.PollImmediate(time.Second, time.Minute, func() (bool, error) {
		n, err := rdb.Exists(ctx, "ready").Result()
		return n == 1, err
	}); err != nil {
		return err
	}
	return rdb.Set(ctx, "report", "x", 0).Err() // ok: no lock
}
