// Package mirror: application interfaces whose methods mirror a store's
// (sqlc's DBTX over pgx and database/sql, a wrapper over go-redis) are
// judged like that store, and the finding names both (issue 13).
package mirror

import (
	"context"
	"database/sql"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/redis/go-redis/v9"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// DBTX is sqlc's interface for pgx/v5.
type DBTX interface {
	Exec(context.Context, string, ...interface{}) (pgconn.CommandTag, error)
	Query(context.Context, string, ...interface{}) (pgx.Rows, error)
	QueryRow(context.Context, string, ...interface{}) pgx.Row
}

func pgxBad(ctx context.Context, m *concurrency.Mutex, db DBTX, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := db.Exec(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id) // want `SQL write via db.Exec \(DBTX, as \*pgx.Conn\) to jobs under the etcd mutex is not fenced`
	return err
}

func pgxGood(ctx context.Context, m *concurrency.Mutex, db DBTX, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	tok := m.Header().Revision
	// ok: the mirror's write compares the token in its own WHERE
	tag, err := db.Exec(ctx, "UPDATE jobs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2", id, tok)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return context.Canceled
	}
	return nil
}

// SQLDBTX is sqlc's interface for database/sql.
type SQLDBTX interface {
	ExecContext(context.Context, string, ...interface{}) (sql.Result, error)
	PrepareContext(context.Context, string) (*sql.Stmt, error)
	QueryContext(context.Context, string, ...interface{}) (*sql.Rows, error)
	QueryRowContext(context.Context, string, ...interface{}) *sql.Row
}

func stdBad(ctx context.Context, m *concurrency.Mutex, db SQLDBTX, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := db.ExecContext(ctx, "DELETE FROM jobs WHERE id = $1", id) // want `SQL write via db.ExecContext \(SQLDBTX, as \*sql.Conn\) to jobs under the etcd mutex is not fenced`
	return err
}

func stdGood(ctx context.Context, m *concurrency.Mutex, db SQLDBTX, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: fenced through the mirror
	res, err := db.ExecContext(ctx, "DELETE FROM jobs WHERE id = $1 AND fence < $2", id, m.Header().Revision)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return context.Canceled
	}
	return nil
}

// Reader mirrors only reads: a SELECT through it is no write.
func readGood(ctx context.Context, m *concurrency.Mutex, db DBTX, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	var n int64
	// ok: a read through the mirror
	return db.QueryRow(ctx, "SELECT n FROM jobs WHERE id = $1", id).Scan(&n)
}

// KV wraps the go-redis commands the application uses.
type KV interface {
	Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *redis.StatusCmd
	Eval(ctx context.Context, script string, keys []string, args ...interface{}) *redis.Cmd
}

func redisBad(ctx context.Context, m *concurrency.Mutex, kv KV) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return kv.Set(ctx, "report", "v", 0).Err() // want `Redis write via kv.Set \(KV, as redis.Client\) to report under the etcd mutex is not fenced: it is unconditional`
}

const fencedSet = `if tonumber(redis.call('GET', KEYS[2]) or '0') >= tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SET', KEYS[1], ARGV[1])
return 1`

func redisGood(ctx context.Context, m *concurrency.Mutex, kv KV) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the script compares the token with the stored fence
	n, err := kv.Eval(ctx, fencedSet, []string{"report", "report:fence"}, "v", m.Header().Revision).Int64()
	if err != nil {
		return err
	}
	if n == 0 {
		return context.Canceled
	}
	return nil
}
