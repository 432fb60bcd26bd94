// Package user calls shared.KV, which memkv (imported for its
// constructor) implements in memory: the call is not surely Redis.
package user

import (
	"context"

	"go.etcd.io/etcd/client/v3/concurrency"
	"unfencedwrite/mirror/memkv"
	"unfencedwrite/mirror/shared"
)

func New() shared.KV { return &memkv.KV{} }

func setGood(ctx context.Context, m *concurrency.Mutex, kv shared.KV) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: memkv.KV implements shared.KV in memory, in another package
	return kv.Set(ctx, "k", "v", 0).Err()
}
