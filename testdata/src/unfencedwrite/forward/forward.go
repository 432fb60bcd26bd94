// Package forward exercises write helpers whose SQL, script or arguments
// are parameters (issue 13 item 3): each call is judged with the caller's
// constants and arguments, the token spread through args... included.
package forward

import (
	"context"
	"database/sql"

	"github.com/redis/go-redis/v9"
	"go.etcd.io/etcd/client/v3/concurrency"
)

type Store struct{ db *sql.DB }

// exec runs whatever statement its caller gives it.
func (s *Store) exec(ctx context.Context, q string, args ...any) error {
	_, err := s.db.ExecContext(ctx, q, args...)
	return err
}

// execLogged forwards to exec: a second level.
func (s *Store) execLogged(ctx context.Context, q string, args ...any) error {
	return s.exec(ctx, q, args...)
}

// bumpVersion has its statement in place and takes its arguments as args...
func (s *Store) bumpVersion(ctx context.Context, args ...any) error {
	_, err := s.db.ExecContext(ctx, "UPDATE docs SET body = $1, fence = $3 WHERE id = $2 AND fence < $3", args...)
	return err
}

func execBad(ctx context.Context, s *Store, m *concurrency.Mutex, id string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return s.exec(ctx, "UPDATE docs SET body = $1 WHERE id = $2", "x", id) // want `SQL write via s.exec to docs under the etcd mutex is not fenced: its WHERE does not compare a fence column with the token`
}

func execGood(ctx context.Context, s *Store, m *concurrency.Mutex, id string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the caller's SQL compares the fence with the token it spreads through args...
	return s.exec(ctx, "UPDATE docs SET body = $1, fence = $3 WHERE id = $2 AND fence < $3", "x", id, m.Header().Revision)
}

func execLoggedBad(ctx context.Context, s *Store, m *concurrency.Mutex, id string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return s.execLogged(ctx, "DELETE FROM docs WHERE id = $1", id) // want `SQL write via s.execLogged to docs under the etcd mutex is not fenced`
}

func execLoggedGood(ctx context.Context, s *Store, m *concurrency.Mutex, id string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: fenced through two levels of forwarding
	return s.execLogged(ctx, "DELETE FROM docs WHERE id = $1 AND fence < $2", id, m.Header().Revision)
}

func readGood(ctx context.Context, s *Store, m *concurrency.Mutex, id string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: a read through the helper is no write
	return s.exec(ctx, "SELECT body FROM docs WHERE id = $1", id)
}

func spreadBad(ctx context.Context, s *Store, m *concurrency.Mutex, id string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// the statement compares the fence with $3, but the caller passes a
	// constant there, not the token
	return s.bumpVersion(ctx, "x", id, 0) // want `SQL write via s.bumpVersion to docs under the etcd mutex is not fenced`
}

func spreadGood(ctx context.Context, s *Store, m *concurrency.Mutex, id string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the token reaches $3 through args...
	return s.bumpVersion(ctx, "x", id, m.Header().Revision)
}

// dynamicGood: a statement the caller does not spell out is not guessed at.
func dynamicGood(ctx context.Context, s *Store, m *concurrency.Mutex, q string, id string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: q comes from elsewhere; unknown, not reported
	return s.exec(ctx, q, id)
}

// lockWith and unlockWith run the advisory-lock SQL their callers give them.
func lockWith(ctx context.Context, db *sql.DB, q string, id int64) error {
	_, err := db.ExecContext(ctx, q, id)
	return err
}

func unlockWith(ctx context.Context, db *sql.DB, q string, id int64) {
	_, _ = db.ExecContext(ctx, q, id)
}

func advisoryWrapperBad(ctx context.Context, db *sql.DB, id int64) error {
	if err := lockWith(ctx, db, "SELECT pg_advisory_lock($1)", id); err != nil {
		return err
	}
	defer unlockWith(ctx, db, "SELECT pg_advisory_unlock($1)", id)
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id) // want `SQL write via db.ExecContext to jobs under the PostgreSQL advisory lock is not fenced`
	return err
}

func advisoryWrapperReleasedGood(ctx context.Context, db *sql.DB, id int64) error {
	if err := lockWith(ctx, db, "SELECT pg_advisory_lock($1)", id); err != nil {
		return err
	}
	unlockWith(ctx, db, "SELECT pg_advisory_unlock($1)", id)
	// ok: the lock was released before the write
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id)
	return err
}

// runScript runs the script its caller gives it.
func runScript(ctx context.Context, rdb *redis.Client, script *redis.Script, keys []string, args ...any) error {
	return script.Run(ctx, rdb, keys, args...).Err()
}

var setIfNewer = redis.NewScript(`
local cur = tonumber(redis.call('HGET', KEYS[1], 'fence') or '0')
if cur >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'value', ARGV[1], 'fence', ARGV[2])
return 1`)

var setBlind = redis.NewScript(`
redis.call('HSET', KEYS[1], 'value', ARGV[1])
return 1`)

func scriptBad(ctx context.Context, rdb *redis.Client, m *concurrency.Mutex, key, v string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return runScript(ctx, rdb, setBlind, []string{key}, v) // want `Redis write via runScript under the etcd mutex is not fenced: the script compares no token passed in ARGV`
}

func scriptGood(ctx context.Context, rdb *redis.Client, m *concurrency.Mutex, key, v string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the script compares ARGV[2], the token spread through args...
	return runScript(ctx, rdb, setIfNewer, []string{key}, v, m.Header().Revision)
}
