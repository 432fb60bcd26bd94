package retry

import (
	"context"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/redis/go-redis/v9"
	goretry "github.com/sethvargo/go-retry"
)

// tableLocker is pressly/goose's shape: Lock and Unlock retry the lock
// service's calls, so they are an acquire and a release wrapper for their
// callers.
type tableLocker struct {
	m *redsync.Mutex
}

func (l *tableLocker) Lock(ctx context.Context) error {
	return goretry.Do(ctx, goretry.NewConstant(time.Second), func(ctx context.Context) error {
		if err := l.m.LockContext(ctx); err != nil {
			return goretry.RetryableError(err)
		}
		return nil
	})
}

func (l *tableLocker) Unlock(ctx context.Context) error {
	return goretry.Do(ctx, goretry.NewConstant(time.Second), l.release)
}

func (l *tableLocker) release(ctx context.Context) error {
	_, err := l.m.UnlockContext(ctx)
	return err
}

func migrate(ctx context.Context, l *tableLocker, rdb *redis.Client) error {
	if err := l.Lock(ctx); err != nil {
		return err
	}
	if err := rdb.Set(ctx, "schema:version", 7, 0).Err(); err != nil { // want `Redis write via rdb.Set to schema:version under the redsync mutex is not fenced`
		return err
	}
	if err := l.Unlock(ctx); err != nil {
		return err
	}
	return rdb.Set(ctx, "schema:migrated", "yes", 0).Err() // ok: after the release
}
