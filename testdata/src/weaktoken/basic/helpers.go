package basic

import (
	"context"
	"math/rand"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// A helper of the package that returns a weak value touches no lock or
// store; a write that uses its result as the fence is still weak.

const fencedDoc = "UPDATE docs SET body = $1, fence = $3 WHERE id = $2 AND fence < $3"

func newFence() int64 { return time.Now().UnixNano() }

func randomToken() int64 { return rand.Int63() }

func grantToken(ctx context.Context, cli *clientv3.Client) (int64, error) {
	g, err := cli.Grant(ctx, 30)
	if err != nil {
		return 0, err
	}
	return int64(g.ID), nil
}

func revisionToken(ctx context.Context, m *concurrency.Mutex) (int64, error) {
	if err := m.Lock(ctx); err != nil {
		return 0, err
	}
	return m.Header().Revision, nil
}

func clockHelperBad(ctx context.Context, m *concurrency.Mutex, pool *pgxpool.Pool, id, body string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := pool.Exec(ctx, fencedDoc, body, id, newFence()) // want `newFence\(\) is not a monotonic fencing token: wall-clock time is not monotonic`
	return err
}

func randomHelperBad(ctx context.Context, m *concurrency.Mutex, pool *pgxpool.Pool, id, body string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := pool.Exec(ctx, fencedDoc, body, id, randomToken()) // want `randomToken\(\) is not a monotonic fencing token: a random number is not ordered across grants`
	return err
}

func grantHelperBad(ctx context.Context, m *concurrency.Mutex, cli *clientv3.Client, pool *pgxpool.Pool, id, body string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	tok, err := grantToken(ctx, cli) // want `grantToken\(ctx, cli\) is not a monotonic fencing token: an etcd LeaseID`
	if err != nil {
		return err
	}
	_, err = pool.Exec(ctx, fencedDoc, body, id, tok)
	return err
}

func revisionHelperGood(ctx context.Context, m *concurrency.Mutex, pool *pgxpool.Pool, id, body string) error {
	// ok: the helper returns the mutex's revision (its error path returns 0)
	tok, err := revisionToken(ctx, m)
	if err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err = pool.Exec(ctx, fencedDoc, body, id, tok)
	return err
}

func elapsedBad(ctx context.Context, m *concurrency.Mutex, pool *pgxpool.Pool, id, body string, start time.Time) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := pool.Exec(ctx, fencedDoc, body, id, int64(time.Since(start))) // want `time.Since\(start\) is not a monotonic fencing token: an elapsed time is a clock reading`
	return err
}

func differenceBad(ctx context.Context, m *concurrency.Mutex, pool *pgxpool.Pool, id, body string, start time.Time) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := pool.Exec(ctx, fencedDoc, body, id, int64(time.Now().Sub(start))) // want `time.Now\(\).Sub\(start\) is not a monotonic fencing token`
	return err
}

func saveDoc(ctx context.Context, pool *pgxpool.Pool, id, body string, fence int64) error {
	if fence == 0 {
		fence = time.Now().UnixNano() // want `time.Now\(\).UnixNano\(\) is not a monotonic fencing token`
	}
	_, err := pool.Exec(ctx, fencedDoc, body, id, fence)
	return err
}

func saveDocStrict(ctx context.Context, pool *pgxpool.Pool, id, body string, fence int64) error {
	// ok: the twin refuses a zero token instead of inventing one
	if fence == 0 {
		return context.Canceled
	}
	_, err := pool.Exec(ctx, fencedDoc, body, id, fence)
	return err
}
