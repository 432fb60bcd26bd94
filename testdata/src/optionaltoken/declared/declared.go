// Package declared: a parameter declared the token (//fencelint:token
// PARAM, //fencelint:holds token=PARAM) can be left out like a token-named
// one.
package declared

import (
	"context"
	"database/sql"
)

//fencelint:token ver
func apply(ctx context.Context, db *sql.DB, id string, ver int64) error {
	res, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', ver = $2 WHERE id = $1 AND ver < $2", id, ver)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return sql.ErrNoRows
	}
	return nil
}

func applyBad(ctx context.Context, db *sql.DB) error {
	return apply(ctx, db, "a", 0) // want `literal 0 passed as fencing token ver of apply`
}

func applyGood(ctx context.Context, db *sql.DB, tok int64) error {
	// ok: the caller's token
	return apply(ctx, db, "a", tok)
}

//fencelint:holds shard token=rng
func own(ctx context.Context, db *sql.DB, rng int64) error {
	res, err := db.ExecContext(ctx, "UPDATE shards SET owner = 'me', rng = $1 WHERE id = 1 AND rng <= $1", rng)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return sql.ErrNoRows
	}
	return nil
}

func ownBad(ctx context.Context, db *sql.DB) error {
	return own(ctx, db, 0) // want `literal 0 passed as fencing token rng of own`
}

func ownGood(ctx context.Context, db *sql.DB, rng int64) error {
	// ok: the range ID is passed on
	return own(ctx, db, rng)
}
