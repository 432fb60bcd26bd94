package branches

import (
	"context"
	"database/sql"
	"log"
)

// A test of the token that only chooses which statement a later write runs
// is the same fallback: when the token is zero the write runs the
// statement without the fence.

func chosenBad(ctx context.Context, db *sql.DB, id, body string, fenceToken int64) error {
	q := "UPDATE docs SET body = $2 WHERE id = $1"
	args := []any{id, body}
	if fenceToken > 0 { // want `when fenceToken is zero the write falls back to an unfenced db.ExecContext: reject a zero token instead of skipping the fence`
		q = "UPDATE docs SET body = $2, fence = $3 WHERE id = $1 AND fence < $3"
		args = append(args, fenceToken)
	}
	_, err := db.ExecContext(ctx, q, args...)
	return err
}

func appendedBad(ctx context.Context, db *sql.DB, id string, tok int64) error {
	q := "UPDATE docs SET body = 'x' WHERE id = $1"
	if tok != 0 { // want `when tok is zero the write falls back to an unfenced db.ExecContext`
		q += " AND fence < $2"
	}
	_, err := db.ExecContext(ctx, q, id, tok)
	return err
}

func chosenZeroBranchBad(ctx context.Context, db *sql.DB, id string, tok int64) error {
	q := "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2"
	if tok == 0 { // want `when tok is zero the write falls back to an unfenced db.ExecContext`
		q = "UPDATE docs SET body = 'x' WHERE id = $1 AND $2 = $2"
	}
	_, err := db.ExecContext(ctx, q, id, tok)
	return err
}

// ok: the token's test only picks a value the fenced write stores
func chosenValueGood(ctx context.Context, db *sql.DB, id string, tok int64) error {
	state := "first grant"
	if tok > 1 {
		state = "regrant"
	}
	log.Println(state)
	_, err := db.ExecContext(ctx, "UPDATE docs SET state = $3, fence = $2 WHERE id = $1 AND fence < $2", id, tok, state)
	return err
}

// ok: the test picks the table, not the fence, and the write is fenced either way
func chosenTableGood(ctx context.Context, db *sql.DB, id string, tok int64) error {
	table := "docs"
	if tok > 1000 {
		table = "docs_archive"
	}
	_, err := db.ExecContext(ctx, "UPDATE "+table+" SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, tok)
	return err
}
