// Package panicky has a function the test makes the engine panic on. // want package:"fencelint"
package panicky

import (
	"context"
	"database/sql"
)

func boom(ctx context.Context, db *sql.DB, fence int64) { // want boom:"tokenparams=\\[2\\]"
	_, _ = db.ExecContext(ctx, "UPDATE t SET v = 1 WHERE id = 1")
}

func fine(ctx context.Context, db *sql.DB, fence int64) { // want fine:"write\\(fencedby=\\[2\\]\\) tokenparams=\\[2\\]"
	_, _ = db.ExecContext(ctx, "UPDATE t SET v = 2 WHERE id = 2")
}
