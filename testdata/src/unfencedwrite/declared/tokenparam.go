package declared

import (
	"context"
	"database/sql"
	"strconv"
)

// apply runs under a lock its caller holds; ver is that lock's fencing
// token (its name alone would not say so).
//
//fencelint:token ver
func apply(ctx context.Context, db *sql.DB, id string, ver int64) error {
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x' WHERE id = $1", id) // want `under the token parameter ver is not fenced: .*; compare the stored fence with ver in the write itself$`
	return err
}

//fencelint:token ver
func applyGood(ctx context.Context, db *sql.DB, id string, ver int64) error {
	// ok: fenced by the declared token parameter
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', ver = $2 WHERE id = $1 AND ver < $2", id, ver)
	return err
}

// putState runs under the lock whose ID is id, as terraform's backends
// run Put between Lock and Unlock(id): an ID is not a fencing token.
//
//fencelint:token id
func putState(ctx context.Context, db *sql.DB, id string, data []byte) error {
	_, err := db.ExecContext(ctx, "UPDATE state SET data = $1 WHERE lock_id = $2", data, id) // want `under the lock whose ID is parameter id is not fenced: .*the lock whose ID is parameter id gives no token to fence with`
	return err
}

//fencelint:token id
func readState(ctx context.Context, db *sql.DB, id string) ([]byte, error) {
	var b []byte
	// ok: only reads under the lock
	err := db.QueryRowContext(ctx, "SELECT data FROM state WHERE lock_id = $1", id).Scan(&b)
	return b, err
}

// putStateCaller passes its ticket's token as putState's lock ID: an ID
// fences nothing, so the call is not taken for a fenced write, and the
// write inside putState is reported there, once.
func putStateCaller(ctx context.Context, o *Office, db *sql.DB) error {
	t, err := o.Issue(ctx, "state")
	if err != nil {
		return err
	}
	defer t.Release(ctx)
	// ok: judged inside putState
	return putState(ctx, db, strconv.FormatUint(t.Seq, 10), nil)
}
