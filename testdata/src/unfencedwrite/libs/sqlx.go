package libs

import (
	"context"

	"github.com/jmoiron/sqlx"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// sqlx: NamedExec binds :name placeholders to a struct's fields or a
// map's keys; MustExec is Exec that panics. The package functions take
// the database as their first argument.

type sqlxAccount struct {
	ID      string `db:"id"`
	Balance int64  `db:"balance"`
	Fence   int64  `db:"fence"`
}

func sqlxNamedBad(ctx context.Context, m *concurrency.Mutex, db *sqlx.DB, id string, bal int64) error {
	a := sqlxAccount{ID: id, Balance: bal}
	if _, err := db.NamedExec("UPDATE accounts SET balance = :balance WHERE id = :id", a); err != nil { // want `SQL write via db.NamedExec to accounts under the concurrency.Mutex m is not fenced`
		return err
	}
	_, err := db.NamedExecContext(ctx, "UPDATE accounts SET balance = :balance WHERE id = :id", a) // want `SQL write via db.NamedExecContext to accounts under the concurrency.Mutex m is not fenced`
	return err
}

func sqlxNamedGood(ctx context.Context, m *concurrency.Mutex, db *sqlx.DB, id string, bal int64) error {
	a := sqlxAccount{ID: id, Balance: bal, Fence: m.Header().Revision}
	// ok: :fence is bound to the mutex revision through the struct field
	if _, err := db.NamedExec("UPDATE accounts SET balance = :balance, fence = :fence WHERE id = :id AND fence < :fence", a); err != nil {
		return err
	}
	// ok: the same, bound through a map key
	_, err := db.NamedExecContext(ctx, "UPDATE accounts SET balance = :balance, fence = :fence WHERE id = :id AND fence < :fence",
		map[string]any{"id": id, "balance": bal, "fence": m.Header().Revision})
	return err
}

func sqlxMustBad(ctx context.Context, m *concurrency.Mutex, db *sqlx.DB, id string) {
	db.MustExec("DELETE FROM sessions WHERE account_id = $1", id)                 // want `SQL write via db.MustExec to sessions under the concurrency.Mutex m is not fenced`
	db.MustExecContext(ctx, "DELETE FROM sessions WHERE account_id = $1", id)     // want `SQL write via db.MustExecContext to sessions under the concurrency.Mutex m is not fenced`
	sqlx.MustExec(db, "DELETE FROM tokens WHERE account_id = $1", id)             // want `SQL write via sqlx.MustExec to tokens under the concurrency.Mutex m is not fenced`
	sqlx.MustExecContext(ctx, db, "DELETE FROM tokens WHERE account_id = $1", id) // want `SQL write via sqlx.MustExecContext to tokens under the concurrency.Mutex m is not fenced`
}

func sqlxMustGood(ctx context.Context, m *concurrency.Mutex, db *sqlx.DB, id string) {
	rev := m.Header().Revision
	// ok: fenced with the mutex revision
	db.MustExec("UPDATE accounts SET state = 'closed', fence = $2 WHERE id = $1 AND fence < $2", id, rev)
	// ok: as above
	sqlx.MustExecContext(ctx, db, "UPDATE accounts SET state = 'closed', fence = $2 WHERE id = $1 AND fence < $2", id, rev)
}

func sqlxFuncsBad(ctx context.Context, m *concurrency.Mutex, db *sqlx.DB, a sqlxAccount) error {
	if _, err := sqlx.NamedExec(db, "UPDATE accounts SET balance = :balance WHERE id = :id", a); err != nil { // want `SQL write via sqlx.NamedExec to accounts under the concurrency.Mutex m is not fenced`
		return err
	}
	_, err := sqlx.NamedExecContext(ctx, db, "UPDATE accounts SET balance = :balance WHERE id = :id", a) // want `SQL write via sqlx.NamedExecContext to accounts under the concurrency.Mutex m is not fenced`
	return err
}

func sqlxTxBad(ctx context.Context, m *concurrency.Mutex, db *sqlx.DB, a sqlxAccount) error {
	tx, err := db.Beginx()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.NamedExec("UPDATE accounts SET balance = :balance WHERE id = :id", a); err != nil { // want `SQL write via tx.NamedExec to accounts under the concurrency.Mutex m is not fenced`
		return err
	}
	if _, err := tx.NamedExecContext(ctx, "UPDATE ledgers SET balance = :balance WHERE id = :id", a); err != nil { // want `SQL write via tx.NamedExecContext to ledgers under the concurrency.Mutex m is not fenced`
		return err
	}
	tx.MustExec("DELETE FROM holds WHERE account_id = $1", a.ID)             // want `SQL write via tx.MustExec to holds under the concurrency.Mutex m is not fenced`
	tx.MustExecContext(ctx, "DELETE FROM holds WHERE account_id = $1", a.ID) // want `SQL write via tx.MustExecContext to holds under the concurrency.Mutex m is not fenced`
	return tx.Commit()
}

func sqlxTxUnitGood(ctx context.Context, m *concurrency.Mutex, db *sqlx.DB, a sqlxAccount) error {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	a.Fence = m.Header().Revision
	res, err := tx.NamedExecContext(ctx, "UPDATE accounts SET fence = :fence WHERE id = :id AND fence < :fence", a)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return err
	}
	// ok: the transaction is fenced by the statement above
	tx.MustExecContext(ctx, "DELETE FROM holds WHERE account_id = $1", a.ID)
	return tx.Commit()
}
