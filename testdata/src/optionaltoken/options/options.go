// Package options exercises fencing tokens passed as functional options.
package options

import (
	"context"
	"database/sql"
)

type putOpts struct {
	fence int64
	ttl   int
}

// PutOption configures Put.
type PutOption func(*putOpts)

func WithFence(f int64) PutOption { return func(o *putOpts) { o.fence = f } } // want `WithFence makes the fencing token an option: a caller can leave it out and skip the fence; make the token a required parameter of the write`

// ok: an unrelated option of the same type is fine on its own
func WithTTL(ttl int) PutOption { return func(o *putOpts) { o.ttl = ttl } }

func Put(ctx context.Context, db *sql.DB, key string, opts ...PutOption) error { // want `opts of Put takes the fencing token as an option \(WithFence\): a caller can leave it out`
	var o putOpts
	for _, fn := range opts {
		fn(&o)
	}
	_, err := db.ExecContext(ctx, "UPDATE kv SET v = $1, fence = $2 WHERE k = $1 AND fence < $2", key, o.fence)
	return err
}

type getOpts struct{ limit int }

// GetOption has no token constructor.
type GetOption func(*getOpts)

func WithLimit(n int) GetOption { return func(o *getOpts) { o.limit = n } }

// ok: options without a token; the token is a required parameter
func PutFenced(ctx context.Context, db *sql.DB, key string, fence int64, opts ...GetOption) error {
	_, err := db.ExecContext(ctx, "UPDATE kv SET v = $1, fence = $2 WHERE k = $1 AND fence < $2", key, fence)
	return err
}

type clientOpts struct{ token string }

// ClientOption configures a client.
type ClientOption func(*clientOpts)

// ok: an auth token string, not a fencing token
func WithToken(tok string) ClientOption { return func(o *clientOpts) { o.token = tok } }

// ok: client options carry no fencing token
func NewClient(opts ...ClientOption) *clientOpts { return &clientOpts{} }
