// Package cp is a stub of github.com/hazelcast/hazelcast-go-client/internal/cp,
// whose AtomicLong and Subsystem the client aliases.
package cp

import "context"

type Subsystem struct{}

func (c Subsystem) GetAtomicLong(ctx context.Context, name string) (*AtomicLong, error) {
	panic("stub")
}

type AtomicLong struct{}

func (a *AtomicLong) IncrementAndGet(ctx context.Context) (int64, error) { panic("stub") }
func (a *AtomicLong) AddAndGet(ctx context.Context, delta int64) (int64, error) {
	panic("stub")
}
func (a *AtomicLong) Get(ctx context.Context) (int64, error) { panic("stub") }
