// Package robust holds inputs that must never crash the engine: generics,
// generated files, unreadable and dynamic SQL.
package robust

import (
	"context"
	"database/sql"
	"fmt"
)

// Lease is generic over its payload.
type Lease[T any] struct {
	Token int64
	Data  T
}

func Acquire[T any](ctx context.Context, key string) (*Lease[T], error) { return &Lease[T]{}, nil }

func genericBad[T any](ctx context.Context, db *sql.DB, lease *Lease[T], id string) error {
	_, err := db.ExecContext(ctx, "UPDATE items SET v = 1 WHERE id = $1", id) // want `SQL write via db.ExecContext to items under the Lease held in parameter lease is not fenced`
	return err
}

func genericGood[T any](ctx context.Context, db *sql.DB, lease *Lease[T], id string) error {
	// ok: fenced
	_, err := db.ExecContext(ctx, "UPDATE items SET v = 1, fence = $2 WHERE id = $1 AND fence < $2", id, lease.Token)
	return err
}

func instantiatedBad(ctx context.Context, db *sql.DB, id string) error {
	lease, err := Acquire[string](ctx, "k")
	if err != nil {
		return err
	}
	_ = lease
	_, err = db.ExecContext(ctx, "DELETE FROM items WHERE id = $1", id) // want `to items under the lease Lease from Acquire is not fenced`
	return err
}

func unreadableSQLGood(ctx context.Context, db *sql.DB, lease *Lease[int], id string) error {
	// ok: unreadable SQL is unknown, not guessed at
	_, err := db.ExecContext(ctx, "UPDATE items SET (((( WHERE", id)
	return err
}

func dynamicSQLGood(ctx context.Context, db *sql.DB, lease *Lease[int], cond, id string) error {
	// ok: non-constant SQL is not guessed at (a condition formatted in;
	// a formatted table name is read: see unfencedwrite/sprintfsql)
	_, err := db.ExecContext(ctx, fmt.Sprintf("UPDATE items SET v = 1 WHERE %s", cond), id)
	return err
}

func emptyArgsGood(ctx context.Context, db *sql.DB, lease *Lease[int], args []any) error {
	// ok: arguments spread from a parameter cannot be bound; the WHERE compares a placeholder we cannot follow
	_, err := db.ExecContext(ctx, "UPDATE items SET v = 1 WHERE fence < $1", args...)
	return err
}

// Repo is a generic interface; its implementation writes. Calls through it
// are resolved only when the interface is not generic: they must not
// crash either way.
type Repo[T any] interface {
	Put(ctx context.Context, v T) error
}

type sqlRepo[T any] struct{ db *sql.DB }

func (r sqlRepo[T]) Put(ctx context.Context, v T) error {
	_, err := r.db.ExecContext(ctx, "UPDATE items SET v = 2 WHERE id = 1")
	return err
}

type intRepo struct{ db *sql.DB }

func (r intRepo) Put(ctx context.Context, v int) error {
	_, err := r.db.ExecContext(ctx, "UPDATE items SET v = $1 WHERE id = 1", v)
	return err
}

func genericInterfaceGood(ctx context.Context, repo Repo[int], lease *Lease[int]) error {
	// ok: a generic interface is not resolved (its implementations cannot
	// be enumerated soundly)
	return repo.Put(ctx, 1)
}
