// Package redis is a stub of github.com/zeromicro/go-zero/core/stores/redis
// v1.10.3: the client's writes and its RedisLock
// (fencetest.TestStubsMatchRealModules checks the signatures).
package redis

import "context"

type Option func(r *Redis)

type Redis struct{}

func New(addr string, opts ...Option) *Redis { panic("stub") }

func (s *Redis) Set(key, value string) error                         { panic("stub") }
func (s *Redis) SetCtx(ctx context.Context, key, value string) error { panic("stub") }
func (s *Redis) Setex(key, value string, seconds int) error          { panic("stub") }
func (s *Redis) Hset(key, field, value string) error                 { panic("stub") }
func (s *Redis) HsetCtx(ctx context.Context, key, field, value string) error {
	panic("stub")
}
func (s *Redis) Del(keys ...string) (int, error)                         { panic("stub") }
func (s *Redis) DelCtx(ctx context.Context, keys ...string) (int, error) { panic("stub") }
func (s *Redis) Get(key string) (string, error)                          { panic("stub") }
func (s *Redis) GetCtx(ctx context.Context, key string) (string, error)  { panic("stub") }
func (s *Redis) Incr(key string) (int64, error)                          { panic("stub") }
func (s *Redis) Setnx(key, value string) (bool, error)                   { panic("stub") }
func (s *Redis) SetnxCtx(ctx context.Context, key, value string) (bool, error) {
	panic("stub")
}
func (s *Redis) SetnxEx(key, value string, seconds int) (bool, error) { panic("stub") }
func (s *Redis) SetnxExCtx(ctx context.Context, key, value string, seconds int) (bool, error) {
	panic("stub")
}
func (s *Redis) Expire(key string, seconds int) error                         { panic("stub") }
func (s *Redis) ExpireCtx(ctx context.Context, key string, seconds int) error { panic("stub") }

type RedisLock struct{}

func NewRedisLock(store *Redis, key string) *RedisLock             { panic("stub") }
func (rl *RedisLock) Acquire() (bool, error)                       { panic("stub") }
func (rl *RedisLock) AcquireCtx(ctx context.Context) (bool, error) { panic("stub") }
func (rl *RedisLock) Release() (bool, error)                       { panic("stub") }
func (rl *RedisLock) ReleaseCtx(ctx context.Context) (bool, error) { panic("stub") }
func (rl *RedisLock) SetExpire(seconds int)                        { panic("stub") }
