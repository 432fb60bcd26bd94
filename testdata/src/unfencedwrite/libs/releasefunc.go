package libs

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// An acquire helper that returns its release as a func: the func's DEL of
// the key the helper set is the lock's own bookkeeping, even though the
// closure rebuilds the key from the variable it captured.

type funcLocker struct{ rdb *redis.Client }

var errBusy = errors.New("busy")

func (l *funcLocker) acquire(ctx context.Context, key string) (func(), error) {
	ok, err := l.rdb.SetNX(ctx, "lock:"+key, "me", 30*time.Second).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errBusy
	}
	// ok: the release func deletes the lock's own key
	return func() { l.rdb.Del(context.Background(), "lock:"+key) }, nil
}

func (l *funcLocker) acquireNoisy(ctx context.Context, key string) (func(), error) {
	ok, err := l.rdb.SetNX(ctx, "lock:"+key, "me", 30*time.Second).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errBusy
	}
	return func() {
		l.rdb.Del(context.Background(), "lock:"+key)
		l.rdb.Set(context.Background(), "last-run:"+key, "now", 0) // want `Redis write via l.rdb.Set under the Redis SET NX lock is not fenced`
	}, nil
}

func releaseFuncUserBad(ctx context.Context, l *funcLocker, db *sql.DB, id string) error {
	release, err := l.acquire(ctx, id)
	if err != nil {
		return err
	}
	defer release()
	_, err = db.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id) // want `SQL write via db.ExecContext to jobs under the Redis SET NX lock is not fenced`
	return err
}
