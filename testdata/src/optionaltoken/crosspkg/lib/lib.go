// Package lib holds a write helper whose token parameter reaches callers
// in other packages through facts.
package lib

import (
	"context"
	"database/sql"
)

var db *sql.DB

// Save writes a document fenced by fence.
func Save(ctx context.Context, id string, fence int64) error {
	_, err := db.ExecContext(ctx, "UPDATE docs SET fence = $2 WHERE id = $1 AND fence < $2", id, fence)
	return err
}

// SaveAt is fenced by seq, known only from the write (FencedBy).
func SaveAt(ctx context.Context, id string, limit int, seq int64) error {
	_, err := db.ExecContext(ctx, "UPDATE docs SET seq = $2 WHERE id = $1 AND seq < $2", id, seq)
	return err
}
