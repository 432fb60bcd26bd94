// Package consumer declares its own ports, as idiomatic Go does ("accept
// interfaces"), and imports no implementation: main wires them in, so
// no implementation is visible here. A port method named like a write
// that takes a context is taken for the write it is.
package consumer

import (
	"context"
	"database/sql"

	"go.etcd.io/etcd/client/v3/concurrency"
)

type orderStore interface {
	SaveOrder(ctx context.Context, id string, amount int64) error
	SaveOrderFenced(ctx context.Context, id string, amount int64, fence int64) error
	GetOrder(ctx context.Context, id string) (int64, error)
	Storefront(ctx context.Context) string
}

// migrations runs on the connection it is given, which may be the one
// holding a session advisory lock: which it is, is not known here.
type migrations interface {
	CreateVersionTable(ctx context.Context, conn *sql.Conn) error
}

type cache interface {
	Put(key string, v int64)
}

// ledger has an implementation here (memLedger): it decides, and it
// writes nothing fencelint knows.
type ledger interface {
	UpdateEntry(ctx context.Context, id string, amount int64) error
}

type memLedger struct{ m map[string]int64 }

func (l *memLedger) UpdateEntry(ctx context.Context, id string, amount int64) error {
	l.m[id] += amount
	return nil
}

type Service struct {
	sess   *concurrency.Session
	orders orderStore
	cache  cache
	ledger ledger
	migr   migrations
}

func (s *Service) saveBad(ctx context.Context, id string, amount int64) error {
	m := concurrency.NewMutex(s.sess, "/locks/order/"+id)
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return s.orders.SaveOrder(ctx, id, amount) // want `storage write via s.orders.SaveOrder under the etcd mutex is not fenced: no fencing token is passed to SaveOrder, a write-named method of the port orderStore \(its implementation is wired elsewhere\)`
}

func (s *Service) saveFencedGood(ctx context.Context, id string, amount int64) error {
	m := concurrency.NewMutex(s.sess, "/locks/order/"+id)
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the mutex's revision is passed on
	return s.orders.SaveOrderFenced(ctx, id, amount, m.Header().Revision)
}

func (s *Service) otherCallsGood(ctx context.Context, id string) (string, error) {
	m := concurrency.NewMutex(s.sess, "/locks/order/"+id)
	if err := m.Lock(ctx); err != nil {
		return "", err
	}
	defer m.Unlock(ctx)
	// ok: a read, a name that only begins with a verb's letters, a
	// method without a context (an in-memory cache), and a port whose
	// implementation here writes no storage
	n, err := s.orders.GetOrder(ctx, id)
	if err != nil {
		return "", err
	}
	s.cache.Put(id, n)
	if err := s.ledger.UpdateEntry(ctx, id, n); err != nil {
		return "", err
	}
	return s.orders.Storefront(ctx), nil
}

func (s *Service) onConnectionGood(ctx context.Context, conn *sql.Conn) error {
	m := concurrency.NewMutex(s.sess, "/locks/migrate")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: a port given a connection runs on it; not taken for a write
	return s.migr.CreateVersionTable(ctx, conn)
}
