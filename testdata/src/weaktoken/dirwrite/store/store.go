// Package store is an in-house store taught by //fencelint:write, with
// helpers whose summaries reach callers in other packages.
package store

import (
	"context"
	"time"
)

type Store struct{}

// Put writes key; it is fenced when any argument carries the token.
//
//fencelint:write
func (st *Store) Put(ctx context.Context, key string, v []byte, ver int64) error { return nil }

// SaveNow stamps its write with the wall clock, not a token.
func (st *Store) SaveNow(ctx context.Context, key string, v []byte) error {
	return st.Put(ctx, key, v, time.Now().UnixNano())
}

// SaveAt forwards its caller's version.
func (st *Store) SaveAt(ctx context.Context, key string, v []byte, ver int64) error {
	return st.Put(ctx, key, v, ver)
}
