// Package sprintfsql exercises SQL built with fmt.Sprintf from a constant
// format that fills in schema and table names (issue 13): it is read like
// constant SQL. A value formatted into the text (%d of the token) is not
// guessed at.
package sprintfsql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"go.etcd.io/etcd/client/v3/concurrency"
)

const jobsTable = "jobs"

type Store struct {
	DB     *sql.DB
	Schema string
}

func (s *Store) finishBad(ctx context.Context, m *concurrency.Mutex, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	q := `UPDATE %s.%s SET state = 'done' WHERE id = $1`
	_, err := s.DB.ExecContext(ctx, fmt.Sprintf(q, s.Schema, jobsTable), id) // want `SQL write via s.DB.ExecContext to schema.jobs under the etcd mutex is not fenced: its WHERE does not compare a fence column with the token`
	return err
}

func (s *Store) finishGood(ctx context.Context, m *concurrency.Mutex, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	tok := m.Header().Revision
	// ok: the formatted names are only the table's; the WHERE compares the token
	q := `UPDATE %s.%s SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2`
	res, err := s.DB.ExecContext(ctx, fmt.Sprintf(q, s.Schema, jobsTable), id, tok)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errors.New("superseded")
	}
	return nil
}

// finishFormattedToken formats the token into the text: not read (a value
// position), so neither fenced nor reported.
func (s *Store) finishFormattedToken(ctx context.Context, m *concurrency.Mutex, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	tok := m.Header().Revision
	// ok: unknown, the token is spelled into the statement
	_, err := s.DB.ExecContext(ctx, fmt.Sprintf(`UPDATE jobs SET fence = %d WHERE id = $1 AND fence < %d`, tok, tok), id)
	return err
}

// StateClient takes a PostgreSQL advisory lock with formatted SQL and keeps
// it: its Put runs under the lock (terraform's pg remote state).
type StateClient struct {
	DB     *sql.DB
	Schema string
	Name   string
	lockID string
}

func (c *StateClient) Lock(ctx context.Context) error {
	q := `SELECT %s.id, pg_try_advisory_lock(%s.id) FROM %s.%s WHERE %s.name = $1`
	var id string
	var ok bool
	if err := c.DB.QueryRowContext(ctx, fmt.Sprintf(q, "states", "states", c.Schema, "states", "states"), c.Name).Scan(&id, &ok); err != nil {
		return err
	}
	if !ok {
		return errors.New("locked")
	}
	c.lockID = id
	return nil
}

func (c *StateClient) Unlock(ctx context.Context) error {
	_, err := c.DB.ExecContext(ctx, fmt.Sprintf(`SELECT pg_advisory_unlock(%s)`, c.lockID))
	return err
}

func (c *StateClient) Put(ctx context.Context, data []byte) error {
	q := `INSERT INTO %s.%s (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = $2 WHERE %s.name = $1`
	_, err := c.DB.ExecContext(ctx, fmt.Sprintf(q, c.Schema, "states", "states"), c.Name, data) // want `SQL write via c.DB.ExecContext to schema.states under the PostgreSQL advisory lock held in the StateClient by Lock is not fenced`
	return err
}

// The same statements built by concatenation: read the same way.
func (s *Store) finishConcatBad(ctx context.Context, m *concurrency.Mutex, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	q := "UPDATE " + s.Schema + "." + jobsTable + " SET state = 'done' WHERE id = $1"
	_, err := s.DB.ExecContext(ctx, q, id) // want `SQL write via s.DB.ExecContext to schema.jobs under the etcd mutex is not fenced: its WHERE does not compare a fence column with the token`
	return err
}

func (s *Store) finishConcatGood(ctx context.Context, m *concurrency.Mutex, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	tok := m.Header().Revision
	// ok: the concatenated name is only the table's; the WHERE compares the token
	res, err := s.DB.ExecContext(ctx, "UPDATE "+s.Schema+".jobs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2", id, tok)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errors.New("superseded")
	}
	return nil
}

// finishConcatToken concatenates the token into a value position: not
// read, as with Sprintf.
func (s *Store) finishConcatToken(ctx context.Context, m *concurrency.Mutex, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	tok := strconv.FormatInt(m.Header().Revision, 10)
	// ok: unknown, the token is spelled into the statement
	_, err := s.DB.ExecContext(ctx, "UPDATE jobs SET fence = "+tok+" WHERE id = $1 AND fence < "+tok, id)
	return err
}

func escapeName(s string) string { return "`" + s + "`" }

func (s *Store) logTableName() string { return "_ghc" }

func (s *Store) quotedNamesBad(ctx context.Context, m *concurrency.Mutex, id int64) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// A quoting helper names what it quotes; a getter names itself.
	q := fmt.Sprintf(`UPDATE %s.%s SET state = 'done' WHERE id = ?`, escapeName(s.Schema), escapeName(s.logTableName()))
	_, err := s.DB.ExecContext(ctx, q, id) // want `SQL write via s.DB.ExecContext to schema.logtablename under the etcd mutex is not fenced`
	return err
}
