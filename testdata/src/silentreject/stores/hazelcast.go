package stores

import (
	"context"

	"github.com/hazelcast/hazelcast-go-client"
)

// Hazelcast's ReplaceIfSame answers false, with a nil error, when the
// entry no longer holds the value it compares.

func hazelcastReplaceDroppedBad(ctx context.Context, m *hazelcast.Map, lease Lease, id string, old any) error {
	_, err := m.ReplaceIfSame(ctx, id, old, "next") // want `the ok result of fenced write via m.ReplaceIfSame is discarded: Hazelcast reports a write its check rejected as ok == false with a nil error`
	return err
}

func hazelcastReplaceGood(ctx context.Context, m *hazelcast.Map, lease Lease, id string, old any) error {
	// ok: a false ok aborts
	ok, err := m.ReplaceIfSame(ctx, id, old, "next")
	if err != nil {
		return err
	}
	if !ok {
		return ErrStale
	}
	return nil
}
