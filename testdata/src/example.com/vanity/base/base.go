// Package base declares an interface of a project served from its own
// domain (example.com/vanity, as go.temporal.io/server): its packages are
// one project although their paths differ in the third element.
package base

import "context"

type Broker interface {
	Done(ctx context.Context, id string) error
	Ack(ctx context.Context, id string, token int64) error
}
