// Package mocks holds a mock broker: a test double does not vote.
package mocks

import "context"

type Broker struct{ Calls int }

func (m *Broker) Done(ctx context.Context, id string) error { m.Calls++; return nil }

func (m *Broker) Ack(ctx context.Context, id string, token int64) error { m.Calls++; return nil }

func (m *Broker) Requeue(ctx context.Context, id string) error { m.Calls++; return nil }
