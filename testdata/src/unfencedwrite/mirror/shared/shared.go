// Package shared declares a KV interface that mirrors go-redis's Set.
package shared

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type KV interface {
	Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *redis.StatusCmd
}
