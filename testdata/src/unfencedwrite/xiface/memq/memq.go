// Package memq is a real single-process implementation of base.Broker
// (not a test double) whose Requeue writes nothing shared: a call of
// Requeue through the interface is not surely rdb's write.
package memq

import (
	"context"
	"database/sql"

	"unfencedwrite/xiface/base"
)

type Queue struct {
	db      *sql.DB
	pending []string
}

func New(db *sql.DB) base.Broker { return &Queue{db: db} }

func (q *Queue) Done(ctx context.Context, id string) error {
	_, err := q.db.ExecContext(ctx, "DELETE FROM tasks WHERE id = $1", id)
	return err
}

func (q *Queue) Ack(ctx context.Context, id string, token int64) error {
	res, err := q.db.ExecContext(ctx, "UPDATE tasks SET fence = $2 WHERE id = $1 AND fence < $2", id, token)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return sql.ErrNoRows
	}
	return nil
}

func (q *Queue) Requeue(ctx context.Context, id string) error {
	q.pending = append(q.pending, id)
	return nil
}
