// Package base declares the broker interface the other packages of the
// module implement (rdb, memq) and call (app), as asynq's internal/base
// does. It has nothing fencelint knows of itself.
package base

import "context"

type Broker interface {
	// Done names its result; the implementations do not: names are no
	// part of the signature.
	Done(ctx context.Context, id string) (err error)
	Ack(ctx context.Context, id string, token int64) error
	Requeue(ctx context.Context, id string) error
}
