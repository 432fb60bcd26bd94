// Package hazelcast is a stub of github.com/hazelcast/hazelcast-go-client
// v1.6.0: the client, its maps' locks and writes, and the CP subsystem's
// AtomicLong (fencetest.TestStubsMatchRealModules checks the signatures).
package hazelcast

import (
	"context"
	"time"

	icp "github.com/hazelcast/hazelcast-go-client/internal/cp"
	"github.com/hazelcast/hazelcast-go-client/types"
)

type AtomicLong = icp.AtomicLong
type CPSubsystem = icp.Subsystem

func NewLockContext(ctx context.Context) context.Context { panic("stub") }

type Client struct{}

func StartNewClient(ctx context.Context) (*Client, error)               { panic("stub") }
func (c *Client) GetMap(ctx context.Context, name string) (*Map, error) { panic("stub") }
func (c *Client) CPSubsystem() CPSubsystem                              { panic("stub") }
func (c *Client) Shutdown(ctx context.Context) error                    { panic("stub") }

type Map struct{}

func (m *Map) NewLockContext(ctx context.Context) context.Context { panic("stub") }
func (m *Map) Lock(ctx context.Context, key interface{}) error    { panic("stub") }
func (m *Map) LockWithLease(ctx context.Context, key interface{}, leaseTime time.Duration) error {
	panic("stub")
}
func (m *Map) TryLock(ctx context.Context, key interface{}) (bool, error) { panic("stub") }
func (m *Map) TryLockWithLease(ctx context.Context, key interface{}, lease time.Duration) (bool, error) {
	panic("stub")
}
func (m *Map) TryLockWithTimeout(ctx context.Context, key interface{}, timeout time.Duration) (bool, error) {
	panic("stub")
}
func (m *Map) TryLockWithLeaseAndTimeout(ctx context.Context, key interface{}, lease time.Duration, timeout time.Duration) (bool, error) {
	panic("stub")
}
func (m *Map) Unlock(ctx context.Context, key interface{}) error      { panic("stub") }
func (m *Map) ForceUnlock(ctx context.Context, key interface{}) error { panic("stub") }
func (m *Map) IsLocked(ctx context.Context, key interface{}) (bool, error) {
	panic("stub")
}
func (m *Map) Get(ctx context.Context, key interface{}) (interface{}, error) { panic("stub") }
func (m *Map) ContainsKey(ctx context.Context, key interface{}) (bool, error) {
	panic("stub")
}
func (m *Map) Put(ctx context.Context, key interface{}, value interface{}) (interface{}, error) {
	panic("stub")
}
func (m *Map) PutWithTTL(ctx context.Context, key interface{}, value interface{}, ttl time.Duration) (interface{}, error) {
	panic("stub")
}
func (m *Map) PutWithMaxIdle(ctx context.Context, key interface{}, value interface{}, maxIdle time.Duration) (interface{}, error) {
	panic("stub")
}
func (m *Map) PutWithTTLAndMaxIdle(ctx context.Context, key interface{}, value interface{}, ttl time.Duration, maxIdle time.Duration) (interface{}, error) {
	panic("stub")
}
func (m *Map) PutAll(ctx context.Context, entries ...types.Entry) error { panic("stub") }
func (m *Map) PutIfAbsent(ctx context.Context, key interface{}, value interface{}) (interface{}, error) {
	panic("stub")
}
func (m *Map) PutIfAbsentWithTTL(ctx context.Context, key interface{}, value interface{}, ttl time.Duration) (interface{}, error) {
	panic("stub")
}
func (m *Map) PutTransient(ctx context.Context, key interface{}, value interface{}) error {
	panic("stub")
}
func (m *Map) PutTransientWithTTL(ctx context.Context, key interface{}, value interface{}, ttl time.Duration) error {
	panic("stub")
}
func (m *Map) PutTransientWithMaxIdle(ctx context.Context, key interface{}, value interface{}, maxIdle time.Duration) error {
	panic("stub")
}
func (m *Map) PutTransientWithTTLAndMaxIdle(ctx context.Context, key interface{}, value interface{}, ttl time.Duration, maxIdle time.Duration) error {
	panic("stub")
}
func (m *Map) Set(ctx context.Context, key interface{}, value interface{}) error { panic("stub") }
func (m *Map) SetWithTTL(ctx context.Context, key interface{}, value interface{}, ttl time.Duration) error {
	panic("stub")
}
func (m *Map) SetWithTTLAndMaxIdle(ctx context.Context, key, value interface{}, ttl time.Duration, maxIdle time.Duration) error {
	panic("stub")
}
func (m *Map) Replace(ctx context.Context, key interface{}, value interface{}) (interface{}, error) {
	panic("stub")
}
func (m *Map) ReplaceIfSame(ctx context.Context, key interface{}, oldValue interface{}, newValue interface{}) (bool, error) {
	panic("stub")
}
func (m *Map) RemoveIfSame(ctx context.Context, key interface{}, value interface{}) (bool, error) {
	panic("stub")
}
func (m *Map) TryPut(ctx context.Context, key interface{}, value interface{}) (bool, error) {
	panic("stub")
}
func (m *Map) TryPutWithTimeout(ctx context.Context, key interface{}, value interface{}, timeout time.Duration) (bool, error) {
	panic("stub")
}
func (m *Map) Delete(ctx context.Context, key interface{}) error { panic("stub") }
func (m *Map) Remove(ctx context.Context, key interface{}) (interface{}, error) {
	panic("stub")
}
func (m *Map) TryRemove(ctx context.Context, key interface{}) (bool, error) { panic("stub") }
func (m *Map) TryRemoveWithTimeout(ctx context.Context, key interface{}, timeout time.Duration) (bool, error) {
	panic("stub")
}
func (m *Map) Evict(ctx context.Context, key interface{}) (bool, error) { panic("stub") }
func (m *Map) Clear(ctx context.Context) error                          { panic("stub") }
