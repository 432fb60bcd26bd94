// Package ledger moves money between accounts in PostgreSQL, through pgx
// and through database/sql, while holding a distributed lock.
package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"example.com/fencelint-example/fence"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// ErrStaleLease is returned when the database rejected a write because a
// newer lease holder has written since.
var ErrStaleLease = errors.New("ledger: lease superseded by a newer holder")

// Debit subtracts amt from the account while holding the account's etcd
// mutex. The UPDATE does not carry the mutex's revision, so a holder whose
// lock expired during a GC pause still overwrites the newer holder's work.
func Debit(ctx context.Context, sess *concurrency.Session, pool *pgxpool.Pool, id string, amt int64) error {
	m := concurrency.NewMutex(sess, "/locks/account/"+id)
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)

	_, err := pool.Exec(ctx, "UPDATE account_balances SET balance = balance - $1 WHERE account_id = $2", amt, id) // expect: unfencedwrite
	return err
}

// DebitFenced is Debit with the mutex's revision as fencing token: the row
// remembers the largest token it accepted and refuses smaller ones.
func DebitFenced(ctx context.Context, sess *concurrency.Session, pool *pgxpool.Pool, id string, amt int64) error {
	m := concurrency.NewMutex(sess, "/locks/account/"+id)
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)

	// ok: the WHERE clause compares the stored fence with the token.
	tag, err := pool.Exec(ctx, "UPDATE account_balances SET balance = balance - $1, fence_token = $3 WHERE account_id = $2 AND fence_token < $3", amt, id, m.Header().Revision)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return ErrStaleLease
	}
	return nil
}

// Balance reads an account's balance under the mutex.
func Balance(ctx context.Context, sess *concurrency.Session, pool *pgxpool.Pool, id string) (int64, error) {
	m := concurrency.NewMutex(sess, "/locks/account/"+id)
	if err := m.Lock(ctx); err != nil {
		return 0, err
	}
	defer m.Unlock(ctx)

	var balance int64
	// ok: a read, not a write.
	err := pool.QueryRow(ctx, "SELECT balance FROM account_balances WHERE account_id = $1", id).Scan(&balance)
	return balance, err
}

// debit runs under a lease handed in by the caller but ignores its token.
func debit(ctx context.Context, db *sql.DB, lease fence.Lease, id string, amt int64) error {
	_, err := db.ExecContext(ctx, "UPDATE account_balances SET balance = balance - $1 WHERE account_id = $2", amt, id) // expect: unfencedwrite
	return err
}

// debitFenced is debit with the lease's token in the WHERE clause.
func debitFenced(ctx context.Context, db *sql.DB, lease fence.Lease, id string, amt int64) error {
	// ok: fenced by AND fence_token < $3, bound to lease.Token.
	res, err := db.ExecContext(ctx, "UPDATE account_balances SET balance = balance - $1, fence_token = $3 WHERE account_id = $2 AND fence_token < $3", amt, id, lease.Token)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrStaleLease
	}
	return nil
}

// recordToken stores the token but never compares it: an old holder still
// overwrites, it merely writes its own (smaller) token back.
func recordToken(ctx context.Context, db *sql.DB, lease fence.Lease, id string, amt int64) error {
	_, err := db.ExecContext(ctx, "UPDATE account_balances SET balance = $1, fence_token = $3 WHERE account_id = $2", amt, id, lease.Token) // expect: unfencedwrite
	return err
}

// writeShard is a compare-and-set on the shard's range id, which the lock
// service bumps on every grant: equality is a valid fence.
func writeShard(ctx context.Context, db *sql.DB, lease fence.Lease, shard string, data []byte) error {
	// ok: equality CAS on range_id bound to lease.Token.
	res, err := db.ExecContext(ctx, "UPDATE shards SET data = $1 WHERE shard_id = $2 AND range_id = $3", data, shard, lease.Token)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("shard %s: %w", shard, ErrStaleLease)
	}
	return nil
}

// Audit appends to the audit log; no lock is held, so there is nothing to
// fence.
func Audit(ctx context.Context, db *sql.DB, id, event string) error {
	// ok: outside any lock scope.
	_, err := db.ExecContext(ctx, "INSERT INTO audit_log (account_id, event) VALUES ($1, $2)", id, event)
	return err
}

// local guards an in-process cache flush: a sync.Mutex is not a
// distributed lock, and fencing tokens do not apply to it.
var local sync.Mutex

// Flush writes pending counters under a process-local mutex.
func Flush(ctx context.Context, db *sql.DB, id string, n int64) error {
	local.Lock()
	defer local.Unlock()
	// ok: sync.Mutex scope, not a distributed lock.
	_, err := db.ExecContext(ctx, "UPDATE counters SET n = n + $1 WHERE account_id = $2", n, id)
	return err
}

// Settle runs the unexported helpers with one lease.
func Settle(ctx context.Context, db *sql.DB, lease fence.Lease, id string, amt int64) error {
	if err := debit(ctx, db, lease, id, amt); err != nil {
		return err
	}
	if err := debitFenced(ctx, db, lease, id, amt); err != nil {
		return err
	}
	if err := recordToken(ctx, db, lease, id, amt); err != nil {
		return err
	}
	return writeShard(ctx, db, lease, id, nil)
}
