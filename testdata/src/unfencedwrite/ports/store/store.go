// Package store implements port.AccountStore on database/sql.
package store

import (
	"context"
	"database/sql"
	"errors"
)

type Accounts struct{ DB *sql.DB }

var ErrStale = errors.New("superseded")

func (a *Accounts) Debit(ctx context.Context, id string, amount int64) error {
	_, err := a.DB.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", amount, id)
	return err
}

func (a *Accounts) DebitFenced(ctx context.Context, id string, amount, fence int64) error {
	res, err := a.DB.ExecContext(ctx,
		"UPDATE accounts SET balance = balance - $1, fence = $3 WHERE id = $2 AND fence < $3", amount, id, fence)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrStale
	}
	return nil
}
