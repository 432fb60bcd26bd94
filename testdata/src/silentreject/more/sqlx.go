package more

import (
	"context"
	"errors"

	"github.com/jmoiron/sqlx"
)

// sqlx's NamedExec and MustExec return a sql.Result like Exec: a write
// the fence rejected is 0 rows, not an error.

var errStaleSqlx = errors.New("superseded")

type sqlxLease struct{ Token int64 }

type sqlxAccount struct {
	ID      string `db:"id"`
	Balance int64  `db:"balance"`
	Fence   int64  `db:"fence"`
}

const sqlxFenced = "UPDATE accounts SET balance = :balance, fence = :fence WHERE id = :id AND fence < :fence"

func sqlxNamedBad(ctx context.Context, db *sqlx.DB, l *sqlxLease, id string) error {
	_, err := db.NamedExecContext(ctx, sqlxFenced, sqlxAccount{ID: id, Fence: l.Token}) // want `the result of fenced write via db.NamedExecContext is discarded: a write the fence rejected \(0 rows\) looks like success; check RowsAffected\(\)`
	return err
}

func sqlxNamedGood(ctx context.Context, db *sqlx.DB, l *sqlxLease, id string) error {
	// ok: 0 rows aborts
	res, err := db.NamedExecContext(ctx, sqlxFenced, sqlxAccount{ID: id, Fence: l.Token})
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errStaleSqlx
	}
	return nil
}

func sqlxMustBad(db *sqlx.DB, l *sqlxLease, id string) {
	db.MustExec("UPDATE accounts SET fence = $2 WHERE id = $1 AND fence < $2", id, l.Token) // want `the result of fenced write via db.MustExec is discarded`
}

func sqlxMustGood(db *sqlx.DB, l *sqlxLease, id string) error {
	// ok: MustExec panics on an error; its result alone says 0 rows
	res := db.MustExec("UPDATE accounts SET fence = $2 WHERE id = $1 AND fence < $2", id, l.Token)
	if n, _ := res.RowsAffected(); n == 0 {
		return errStaleSqlx
	}
	return nil
}
