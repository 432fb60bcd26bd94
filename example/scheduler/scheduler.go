// Package scheduler elects a leader through etcd and lets it publish the
// cluster's schedule.
package scheduler

import (
	"context"
	"errors"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// ErrNotOwner is returned when the Txn's ownership compare failed.
var ErrNotOwner = errors.New("scheduler: lock no longer held")

// Lead campaigns for leadership and then writes the leader data with a
// plain Put: a deposed leader that wakes up late still overwrites it.
func Lead(ctx context.Context, cli *clientv3.Client, sess *concurrency.Session, name, data string) error {
	e := concurrency.NewElection(sess, "/election/scheduler")
	if err := e.Campaign(ctx, name); err != nil {
		return err
	}
	defer e.Resign(context.Background())

	_, err := cli.Put(ctx, "config/leader-data", data) // expect: unfencedwrite
	return err
}

// Publish writes the schedule only while the mutex key still exists, in
// the same transaction as the write.
func Publish(ctx context.Context, cli *clientv3.Client, sess *concurrency.Session, k, v string) error {
	m := concurrency.NewMutex(sess, "/locks/schedule")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)

	// ok: Txn guarded by If(m.IsOwner()), outcome checked.
	resp, err := cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut(k, v)).Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return ErrNotOwner
	}
	return nil
}

// Current reads the schedule under the mutex.
func Current(ctx context.Context, cli *clientv3.Client, sess *concurrency.Session, k string) (string, error) {
	m := concurrency.NewMutex(sess, "/locks/schedule")
	if err := m.Lock(ctx); err != nil {
		return "", err
	}
	defer m.Unlock(ctx)

	// ok: Get is a read.
	resp, err := cli.Get(ctx, k)
	if err != nil || len(resp.Kvs) == 0 {
		return "", err
	}
	return string(resp.Kvs[0].Value), nil
}
