package user

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Setter mirrors Set and Del; memkv.KV has no Del, so no implementation
// of the application's contests it.
type Setter interface {
	Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *redis.StatusCmd
	Del(ctx context.Context, keys ...string) *redis.IntCmd
}

func setBad(ctx context.Context, m *concurrency.Mutex, kv Setter) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return kv.Set(ctx, "k", "v", 0).Err() // want `Redis write via kv.Set \(Setter, as redis.Client\) to k under the etcd mutex is not fenced`
}
