// Package store declares the application's storage interface, with the
// directives a maintainer puts where callers see them: on the interface
// methods (issue 18). Its only implementation is a no-op double, which must
// not veto the directive.
package store

import "context"

type Store interface {
	// Save writes v at key; the service compares tok with the stored fence.
	//
	//fencelint:write token=tok
	Save(ctx context.Context, key string, v []byte, tok int64) error

	// Append writes with no fence at all.
	//
	//fencelint:write
	Append(ctx context.Context, key string, v []byte) error

	// Get only reads.
	Get(ctx context.Context, key string) ([]byte, error)
}

// Nop is a test double.
type Nop struct{}

func (Nop) Save(ctx context.Context, key string, v []byte, tok int64) error { return nil }
func (Nop) Append(ctx context.Context, key string, v []byte) error          { return nil }
func (Nop) Get(ctx context.Context, key string) ([]byte, error)             { return nil, nil }
