// Package port declares the service's ports: a locker whose leases hand
// out their token through a method, and an account store. It imports no
// library fencelint knows and exports no facts of its own.
package port

import "context"

type Lease interface {
	Token() int64
	Release(ctx context.Context) error
}

type Locker interface {
	Acquire(ctx context.Context, key string) (Lease, error)
}

type AccountStore interface {
	Debit(ctx context.Context, id string, amount int64) error
	DebitFenced(ctx context.Context, id string, amount, fence int64) error
}
