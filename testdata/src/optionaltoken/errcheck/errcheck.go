// Package errcheck: an acquire's error check is not a zero-token branch.
package errcheck

import (
	"context"
	"errors"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

func wrap(err error, msg string) error { return errors.Join(err, errors.New(msg)) }

func counterGood(ctx context.Context, m *concurrency.Mutex, cli *clientv3.Client) error {
	// ok: err is not a token; the check belongs to the acquire
	if err := m.Lock(ctx); err != nil {
		return wrap(err, "lock")
	}
	_, err := cli.Put(ctx, "counter", "1")
	return err
}
