// Package filter is a service package in which most functions touch no
// lock: the engine builds SSA only for those that can matter. Every
// diagnostic below depends on a function the filter must keep: writers
// reached through helpers, callbacks referenced as values, token
// parameters, interface methods carrying tokens, directives.
package filter

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// ---- lock-free code: no SSA is built for any of it ----

func normalize(id string) string { return strings.ToLower(strings.TrimSpace(id)) }

func lockKey(id string) string { return "/locks/" + normalize(id) }

type Config struct {
	Name    string
	Retries int
}

func (c Config) String() string { return fmt.Sprintf("%s/%d", c.Name, c.Retries) }

func validate(ids []string) error {
	for _, id := range ids {
		if id == "" {
			return errors.New("empty id")
		}
	}
	return nil
}

func retry(n int, f func() error) error {
	var err error
	for i := 0; i < n; i++ {
		if err = f(); err == nil {
			return nil
		}
	}
	return err
}

// ---- the service ----

type Service struct {
	db   *sql.DB
	cli  *clientv3.Client
	sess *concurrency.Session
	cfg  Config
}

// Name uses only the configuration: no SSA.
func (s *Service) Name() string { return s.cfg.Name }

// save writes through the service's database: kept.
func (s *Service) save(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE items SET state = 'done' WHERE id = $1", id)
	return err
}

// saveAll writes only through save: kept because it calls a kept function.
func (s *Service) saveAll(ctx context.Context, ids []string) error {
	if err := validate(ids); err != nil {
		return err
	}
	for _, id := range ids {
		if err := s.save(ctx, normalize(id)); err != nil {
			return err
		}
	}
	return nil
}

// Run holds an etcd mutex and writes through two levels of helpers.
func (s *Service) Run(ctx context.Context, id string) error {
	m := concurrency.NewMutex(s.sess, lockKey(id))
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return retry(s.cfg.Retries, func() error {
		return s.saveAll(ctx, []string{id}) // want `storage write via s.saveAll under the etcd mutex is not fenced: saveAll does a storage write via save with no fence; compare the stored fence with m.Header\(\).Revision in the write itself`
	})
}

// fencedSave takes the token as a parameter: kept for its signature.
func (s *Service) fencedSave(ctx context.Context, id string, fencingToken int64) error {
	_, err := s.db.ExecContext(ctx, "UPDATE items SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2", id, fencingToken)
	return err
}

// RunFenced passes the mutex revision down: no finding.
func (s *Service) RunFenced(ctx context.Context, id string) error {
	m := concurrency.NewMutex(s.sess, lockKey(id))
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return s.fencedSave(ctx, id, m.Header().Revision)
}

// Store is an interface of this package whose method carries a token:
// callers through it are kept.
type Store interface {
	Put(ctx context.Context, key string, fencingToken int64) error
}

// ---- a callback referenced as a value ----

type job func(ctx context.Context) error

func (s *Service) withMutex(ctx context.Context, id string, fn job) error {
	m := concurrency.NewMutex(s.sess, lockKey(id))
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return fn(ctx)
}

func (s *Service) archive(ctx context.Context) error {
	_, err := s.cli.Put(ctx, "archive/last", "now") // want `etcd write via s.cli.Put to archive/last under the lock held by s.withMutex is not fenced: it is unconditional; the lock held by s.withMutex has a token, but the helper does not pass it to the callback: pass the token to the callback \(a parameter of the function it runs\) and compare it in the write$`
	return err
}

func (s *Service) RunArchive(ctx context.Context) error {
	return s.withMutex(ctx, "archive", s.archive)
}

// ---- generic lock-free code ----

func mapSlice[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func keys(ids []string) []string { return mapSlice(ids, lockKey) }
