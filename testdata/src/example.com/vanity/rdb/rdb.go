// Package rdb implements base.Broker with an unexported type.
package rdb

import (
	"context"
	"database/sql"

	"example.com/vanity/base"
)

type broker struct{ db *sql.DB }

func New(db *sql.DB) base.Broker { return &broker{db: db} }

func (b *broker) Done(ctx context.Context, id string) error {
	_, err := b.db.ExecContext(ctx, "DELETE FROM tasks WHERE id = $1", id)
	return err
}

func (b *broker) Ack(ctx context.Context, id string, token int64) error {
	res, err := b.db.ExecContext(ctx, "UPDATE tasks SET state = 'acked', fence = $2 WHERE id = $1 AND fence < $2", id, token)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return sql.ErrNoRows
	}
	return nil
}
