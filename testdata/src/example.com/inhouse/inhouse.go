// Package inhouse stands for an in-house storage client fencelint has no
// rules or facts for (not a library stub: the stub check skips it, see
// caseDirs in analyzer/internal/fencetest).
package inhouse

import "context"

// Client talks to a storage service over RPC.
type Client struct{ addr string }

// Put stores v at key; token is what the service compares.
func (c *Client) Put(ctx context.Context, key string, v []byte, token int64) error { return nil }

// Ping checks the connection; it writes nothing and takes no context.
func (c *Client) Ping() error { return nil }
