// Package sql exercises the outcome of fenced SQL writes.
package sql

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

type Lease struct {
	Token     int64
	ExpiresAt time.Time
}

var ErrStale = errors.New("superseded by a newer lock holder")

const debit = "UPDATE acct SET bal = bal - $1, fence = $3 WHERE id = $2 AND fence < $3"

func discardedBad(ctx context.Context, db *sql.DB, lease *Lease, id string) {
	db.ExecContext(ctx, debit, 10, id, lease.Token) // want `the result of fenced write via db.ExecContext is discarded: a write the fence rejected \(0 rows\) looks like success`
}

func errOnlyBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	_, err := db.ExecContext(ctx, debit, 10, id, lease.Token) // want `the result of fenced write via db.ExecContext is discarded`
	return err
}

func loggedCountBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	res, err := db.ExecContext(ctx, debit, 10, id, lease.Token) // want `fenced write via db.ExecContext never compares RowsAffected\(\)`
	if err != nil {
		return err
	}
	n, _ := res.RowsAffected()
	log.Printf("debited %d rows", n)
	return nil
}

func checkedGood(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	// ok: 0 rows aborts
	res, err := db.ExecContext(ctx, debit, 10, id, lease.Token)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrStale
	}
	return nil
}

func escapesGood(ctx context.Context, db *sql.DB, lease *Lease, id string) (sql.Result, error) {
	// ok: the caller gets the result
	return db.ExecContext(ctx, debit, 10, id, lease.Token)
}

func pgxDiscardedBad(ctx context.Context, pool *pgxpool.Pool, lease *Lease, id string) error {
	_, err := pool.Exec(ctx, debit, 10, id, lease.Token) // want `the result of fenced write via pool.Exec is discarded`
	return err
}

func pgxGood(ctx context.Context, pool *pgxpool.Pool, lease *Lease, id string) error {
	// ok: the command tag's row count is compared
	tag, err := pool.Exec(ctx, debit, 10, id, lease.Token)
	if err != nil {
		return err
	}
	if tag.RowsAffected() != 1 {
		return ErrStale
	}
	return nil
}

const debitReturning = `UPDATE acct SET bal = bal - $1, fence = $3 WHERE id = $2 AND fence < $3 RETURNING bal`

func noRowsSuccessBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	var bal int64
	err := db.QueryRowContext(ctx, debitReturning, 10, id, lease.Token).Scan(&bal) // want `fenced write via db.QueryRowContext treats ErrNoRows as success`
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	return err
}

func noRowsGood(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	var bal int64
	// ok: no row means superseded
	err := db.QueryRowContext(ctx, debitReturning, 10, id, lease.Token).Scan(&bal)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrStale
	}
	return err
}

func noRowsCompareBad(ctx context.Context, conn *pgx.Conn, lease *Lease, id string) (int64, error) {
	var bal int64
	err := conn.QueryRow(ctx, debitReturning, 10, id, lease.Token).Scan(&bal) // want `treats ErrNoRows as success`
	if err == pgx.ErrNoRows {
		return 0, nil
	}
	return bal, err
}

func noRowsNegatedBad(ctx context.Context, conn *pgx.Conn, lease *Lease, id string) (int64, error) {
	var bal int64
	err := conn.QueryRow(ctx, debitReturning, 10, id, lease.Token).Scan(&bal) // want `treats ErrNoRows as success`
	superseded := !(err != pgx.ErrNoRows)
	if superseded {
		return 0, nil
	}
	return bal, err
}

func noRowsNegatedGood(ctx context.Context, conn *pgx.Conn, lease *Lease, id string) (int64, error) {
	var bal int64
	// ok: the negated comparison's rejection branch fails
	err := conn.QueryRow(ctx, debitReturning, 10, id, lease.Token).Scan(&bal)
	superseded := !(err != pgx.ErrNoRows)
	if superseded {
		return 0, ErrStale
	}
	return bal, err
}

func returnErrGood(ctx context.Context, conn *pgx.Conn, lease *Lease, id string) (int64, error) {
	var bal int64
	// ok: ErrNoRows is returned like any error
	if err := conn.QueryRow(ctx, debitReturning, 10, id, lease.Token).Scan(&bal); err != nil {
		return 0, err
	}
	return bal, nil
}

func scanDiscardedBad(ctx context.Context, db *sql.DB, lease *Lease, id string) int64 {
	var bal int64
	db.QueryRowContext(ctx, debitReturning, 10, id, lease.Token).Scan(&bal) // want `the error of fenced write via db.QueryRowContext is discarded`
	return bal
}

func retryBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	for attempt := 0; attempt < 3; attempt++ {
		res, err := db.ExecContext(ctx, debit, 10, id, lease.Token) // want `fenced write via db.ExecContext is re-issued after the fence rejected it`
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n == 0 {
			time.Sleep(time.Second)
			continue
		}
		return nil
	}
	return ErrStale
}

func isTransient(err error) bool { return err != nil && err.Error() == "40001" }

func transientRetryGood(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	for attempt := 0; attempt < 3; attempt++ {
		// ok: retries serialization failures only, stops on 0 rows
		res, err := db.ExecContext(ctx, debit, 10, id, lease.Token)
		if isTransient(err) {
			continue
		}
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n == 0 {
			return ErrStale
		}
		return nil
	}
	return errors.New("gave up")
}

func rangeGood(ctx context.Context, db *sql.DB, lease *Lease, ids []string) error {
	for _, id := range ids {
		// ok: a rejected account is skipped; the loop writes the next one, not the same write again
		res, err := db.ExecContext(ctx, debit, 10, id, lease.Token)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			log.Printf("account %s superseded", id)
			continue
		}
	}
	return nil
}

func ignored(ctx context.Context, db *sql.DB, lease *Lease, id string) {
	//fencelint:ignore silentreject best-effort audit, a rejected write is fine
	db.ExecContext(ctx, debit, 10, id, lease.Token)
}

func logThenCarryOnBad(ctx context.Context, db *sql.DB, lease *Lease, id string, ack func() error) error {
	res, err := db.ExecContext(ctx, debit, 10, id, lease.Token) // want `fenced write via db.ExecContext only logs a rejection \(0 rows\) and carries on as if it had written`
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		log.Printf("stale token %d for %s", lease.Token, id)
	}
	return ack() // acknowledged whether or not the debit was written
}

func logThenAbortGood(ctx context.Context, db *sql.DB, lease *Lease, id string, ack func() error) error {
	res, err := db.ExecContext(ctx, debit, 10, id, lease.Token)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		// ok: logged, then the function stops before the acknowledgement
		log.Printf("stale token %d for %s", lease.Token, id)
		return ErrStale
	}
	return ack()
}

func noRowsClearedBad(ctx context.Context, conn *pgx.Conn, lease *Lease, id string, ack func() error) error {
	var bal int64
	err := conn.QueryRow(ctx, debitReturning, 10, id, lease.Token).Scan(&bal) // want `treats ErrNoRows as success`
	if errors.Is(err, pgx.ErrNoRows) {
		err = nil // the rejection is cleared, so the check below lets it through
	}
	if err != nil {
		return err
	}
	return ack()
}

func noRowsLoggedNotClearedGood(ctx context.Context, conn *pgx.Conn, lease *Lease, id string, ack func() error) error {
	var bal int64
	err := conn.QueryRow(ctx, debitReturning, 10, id, lease.Token).Scan(&bal)
	if errors.Is(err, pgx.ErrNoRows) {
		log.Printf("stale token for %s", id) // ok: err still holds ErrNoRows, returned below
	}
	if err != nil {
		return err
	}
	return ack()
}

func pgxTagLoggedBad(ctx context.Context, pool *pgxpool.Pool, lease *Lease, id string) error {
	tag, err := pool.Exec(ctx, debit, 10, id, lease.Token) // want `fenced write via pool.Exec never compares RowsAffected\(\)`
	if err != nil {
		return err
	}
	log.Printf("debit: %v", tag)
	return nil
}

func pgxTagStringLoggedBad(ctx context.Context, pool *pgxpool.Pool, lease *Lease, id string) error {
	tag, err := pool.Exec(ctx, debit, 10, id, lease.Token) // want `fenced write via pool.Exec never compares RowsAffected\(\)`
	if err != nil {
		return err
	}
	log.Printf("debit: %s", tag.String())
	return nil
}

func pgxTagStringComparedGood(ctx context.Context, pool *pgxpool.Pool, lease *Lease, id string) error {
	tag, err := pool.Exec(ctx, debit, 10, id, lease.Token)
	if err != nil {
		return err
	}
	// ok: the text "UPDATE 0" is read
	if tag.String() == "UPDATE 0" {
		return ErrStale
	}
	return nil
}

func retryByRecursionBad(ctx context.Context, db *sql.DB, lease *Lease, id string, tries int) error {
	res, err := db.ExecContext(ctx, debit, 10, id, lease.Token) // want `fenced write via db.ExecContext is re-issued after the fence rejected it \(0 rows\)`
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if tries > 3 {
			return ErrStale
		}
		return retryByRecursionBad(ctx, db, lease, id, tries+1)
	}
	return nil
}

func recursionNextItemGood(ctx context.Context, db *sql.DB, lease *Lease, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	id := ids[0]
	res, err := db.ExecContext(ctx, debit, 10, id, lease.Token)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		// ok: the recursion writes the next account, not this one again
		return recursionNextItemGood(ctx, db, lease, ids[1:])
	}
	return recursionNextItemGood(ctx, db, lease, ids[1:])
}
