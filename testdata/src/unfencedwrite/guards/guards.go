// Package guards: checks in Go that are not fence checks. An error check
// after a fenced write, or a zero-token test, guards nothing: the next
// unfenced write is unfencedwrite's finding, not appcheck's.
package guards

import (
	"context"
	"database/sql"
	"errors"
)

type Lease struct {
	Resource string
	Token    int64
}

var errNoToken = errors.New("no token")

func saveFenced(ctx context.Context, db *sql.DB, id string, fence int64) error {
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, fence)
	return err
}

func errAfterFencedBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	if err := saveFenced(ctx, db, id, lease.Token); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE audit SET seen = true WHERE id = $1", id) // want `SQL write via db.ExecContext to audit under the Lease held in parameter lease is not fenced`
	return err
}

// ok: both writes are fenced; the error check between them is no guard
func errAfterFencedGood(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	if err := saveFenced(ctx, db, id, lease.Token); err != nil {
		return err
	}
	return saveFenced(ctx, db, id+"/audit", lease.Token)
}

func zeroTokenThenUnfencedBad(ctx context.Context, db *sql.DB, l *Lease, id string) error {
	if l.Token == 0 {
		return errNoToken
	}
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x' WHERE id = $1", id) // want `SQL write via db.ExecContext to docs under the Lease held in parameter l is not fenced`
	return err
}

// ok: a zero token is rejected and the write compares the token
func zeroTokenThenFencedGood(ctx context.Context, db *sql.DB, l *Lease, id string) error {
	if l.Token == 0 {
		return errNoToken
	}
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, l.Token)
	return err
}

// ok for unfencedwrite and appcheck: a nil-token fallback is one root
// cause, optionaltoken's (the pointer parameter, the branch), so the
// unfenced write on that branch is reported there only
func nilTokenFallbackBad(ctx context.Context, db *sql.DB, id string, token *int64) error {
	if token == nil {
		_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x' WHERE id = $1", id)
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, *token)
	return err
}

// ok: a nil token is rejected
func nilTokenRejectedGood(ctx context.Context, db *sql.DB, id string, token *int64) error {
	if token == nil {
		return errNoToken
	}
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, *token)
	return err
}
