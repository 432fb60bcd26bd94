package mirror

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Cache mirrors go-redis's Set, but the application also implements it
// in memory (a real single-node mode, not a test double): a call through
// it may write nothing shared, so it is not judged as Redis.
type Cache interface {
	Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *redis.StatusCmd
}

type memCache struct{ m map[string]interface{} }

func (c *memCache) Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *redis.StatusCmd {
	c.m[key] = value
	return nil
}

func contestedGood(ctx context.Context, m *concurrency.Mutex, c Cache) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: memCache implements Cache too, so the call is not surely Redis
	return c.Set(ctx, "k", "v", 0).Err()
}

// Deleter has a method no store has with this signature: not a mirror.
type Deleter interface {
	Del(ctx context.Context, key string) error
}

func notMirrorGood(ctx context.Context, m *concurrency.Mutex, d Deleter) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: no modelled store implements Deleter
	return d.Del(ctx, "k")
}
