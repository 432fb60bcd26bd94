// Package loops: a loop retries a fenced write when it comes back to the
// same write after a rejection; one that moves on to the next item, or
// changes what it writes, does not.
package loops

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"time"
)

type Lease struct {
	Token     int64
	ExpiresAt time.Time
}

var ErrStale = errors.New("superseded")

const debit = "UPDATE acct SET bal = bal - $1, fence = $3 WHERE id = $2 AND fence < $3"

func rangeIntRetryBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	for attempt := range 3 {
		res, err := db.ExecContext(ctx, debit, 10, id, lease.Token) // want `fenced write via db.ExecContext is re-issued after the fence rejected it \(0 rows\)`
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			log.Printf("attempt %d rejected", attempt)
			time.Sleep(time.Second)
			continue
		}
		return nil
	}
	return ErrStale
}

func rangeIntItemsGood(ctx context.Context, db *sql.DB, lease *Lease, ids []string) error {
	for i := range len(ids) {
		// ok: a rejected account is skipped; the loop writes ids[i+1] next, not the same write again
		res, err := db.ExecContext(ctx, debit, 10, ids[i], lease.Token)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue
		}
	}
	return nil
}

func indexLoopItemsGood(ctx context.Context, db *sql.DB, lease *Lease, ids []string) error {
	for i := 0; i < len(ids); i++ {
		// ok: a counting loop over items: the next iteration writes another account
		res, err := db.ExecContext(ctx, debit, 10, ids[i], lease.Token)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			log.Printf("account %s superseded", ids[i])
		}
	}
	return nil
}

func countingRetryBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	for attempt := 0; attempt < 5; attempt++ {
		res, err := db.ExecContext(ctx, debit, 10, id, lease.Token) // want `fenced write via db.ExecContext is re-issued after the fence rejected it`
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return nil
		}
		time.Sleep(time.Duration(attempt) * time.Second)
	}
	return ErrStale
}

func gotoRetryBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
retry:
	res, err := db.ExecContext(ctx, debit, 10, id, lease.Token) // want `fenced write via db.ExecContext is re-issued after the fence rejected it`
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		time.Sleep(time.Second)
		goto retry
	}
	return nil
}

func nextTokenGood(ctx context.Context, db *sql.DB, lease *Lease, id string, renew func() int64) error {
	tok := lease.Token
	for range 3 {
		// ok: a rejection takes a new token first: the next write is not the rejected one
		res, err := db.ExecContext(ctx, debit, 10, id, tok)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			tok = renew()
			continue
		}
		return nil
	}
	return ErrStale
}
