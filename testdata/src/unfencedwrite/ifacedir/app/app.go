// Package app calls a storage interface whose methods carry directives in
// another package: the directives travel as facts on the interface methods.
package app

import (
	"context"

	"unfencedwrite/ifacedir/store"
)

type Lease struct {
	Token int64
}

// A local interface with a directive on its method.
type Journal interface {
	//fencelint:write token=fence
	Record(ctx context.Context, entry string, fence int64) error
}

func saveGood(ctx context.Context, s store.Store, l Lease, key string) error {
	// ok: the token reaches Save's tok parameter
	return s.Save(ctx, key, nil, l.Token)
}

func saveBad(ctx context.Context, s store.Store, l Lease, key string) error {
	return s.Save(ctx, key, nil, 7) // want `write via s.Save under the Lease held in parameter l is not fenced: no fencing token reaches Save's fence parameter`
}

func saveLiteralZero(ctx context.Context, s store.Store, l Lease, key string) error {
	// ok: optionaltoken reports the literal 0 (one diagnosis per root cause)
	return s.Save(ctx, key, nil, 0)
}

func appendBad(ctx context.Context, s store.Store, l Lease, key string) error {
	return s.Append(ctx, key, nil) // want `write via s.Append under the Lease held in parameter l is not fenced: no fencing token is passed to Append`
}

func readGood(ctx context.Context, s store.Store, l Lease, key string) error {
	// ok: Get carries no directive and has no writing implementation
	_, err := s.Get(ctx, key)
	return err
}

func recordGood(ctx context.Context, j Journal, l Lease) error {
	// ok: fenced by its fence parameter
	return j.Record(ctx, "debit", l.Token)
}

func recordBad(ctx context.Context, j Journal, l Lease) error {
	return j.Record(ctx, "debit", 7) // want `write via j.Record under the Lease held in parameter l is not fenced: no fencing token reaches Record's fence parameter`
}
