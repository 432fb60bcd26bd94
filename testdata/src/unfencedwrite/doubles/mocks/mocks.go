// Package mocks holds a generated-style mock: it does not vote.
package mocks

import "context"

type Store struct{ Calls int }

func (m *Store) Save(ctx context.Context, key, v string) error { m.Calls++; return nil }
