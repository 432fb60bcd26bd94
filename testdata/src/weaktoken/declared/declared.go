// Package declared: a lease declared with //fencelint:lease, and a func
// value declared a write, get weak tokens reported like the heuristic's.
package declared

import (
	"context"
	"database/sql"
	"math/rand"
	"time"
)

//fencelint:lease
type Permit struct {
	Key string
	N   int64 //fencelint:token
}

func (p *Permit) Release(ctx context.Context) error { return nil }

type Counter struct{ db *sql.DB }

func (c *Counter) next(ctx context.Context) (int64, error) {
	var n int64
	err := c.db.QueryRowContext(ctx, "UPDATE counters SET n = n + 1 WHERE name = 'permits' RETURNING n").Scan(&n)
	return n, err
}

func GrantBad(ctx context.Context, key string) (*Permit, error) {
	return &Permit{Key: key, N: time.Now().UnixNano()}, nil // want `time.Now\(\).UnixNano\(\) is not a monotonic fencing token: wall-clock time .*; it is used as the token of lease Permit`
}

func GrantGood(ctx context.Context, c *Counter, key string) (*Permit, error) {
	n, err := c.next(ctx)
	if err != nil {
		return nil, err
	}
	// ok: a counter bumped in the database
	return &Permit{Key: key, N: n}, nil
}

type Hooks struct {
	Save func(ctx context.Context, key string, gen int64) error //fencelint:write token=gen
}

func saveBad(ctx context.Context, h Hooks, p *Permit) error {
	return h.Save(ctx, p.Key, rand.Int63()) // want `rand.Int63\(\) is not a monotonic fencing token: a random number`
}

func saveGood(ctx context.Context, h Hooks, p *Permit) error {
	// ok: the permit's token
	return h.Save(ctx, p.Key, p.N)
}
