package leasetable

import (
	"context"
	"database/sql"
	"fmt"
)

// A lease table whose name is configured: the claim is fmt.Sprintf of a
// constant format with the table name in identifier positions (goose's
// and golang-migrate's lock tables are built this way).
type tableLock struct{ tableName string }

func (l *tableLock) sprintfClaimBad(ctx context.Context, db *sql.DB, me string) error {
	q := fmt.Sprintf(`INSERT INTO %s (lock_id, locked_by, lease_expires_at) VALUES ($1, $2, now() + interval '30 seconds')
	ON CONFLICT (lock_id) DO UPDATE SET locked_by = $2, lease_expires_at = now() + interval '30 seconds'
	WHERE %s.lease_expires_at < now()
	RETURNING locked_by`, l.tableName, l.tableName)
	var holder string
	if err := db.QueryRowContext(ctx, q, 1, me).Scan(&holder); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", 10, 1) // want `SQL write via db.ExecContext to accounts under the lease table tablename is not fenced: its WHERE does not compare a fence column with the token; the lease table tablename gives no token to fence with`
	return err
}

func (l *tableLock) sprintfClaimFencedGood(ctx context.Context, db *sql.DB, me string) error {
	q := fmt.Sprintf(`INSERT INTO %s (lock_id, locked_by, lease_expires_at, fence) VALUES ($1, $2, now() + interval '30 seconds', 1)
	ON CONFLICT (lock_id) DO UPDATE SET locked_by = $2, lease_expires_at = now() + interval '30 seconds', fence = %s.fence + 1
	WHERE %s.lease_expires_at < now()
	RETURNING fence`, l.tableName, l.tableName, l.tableName)
	var fence int64
	if err := db.QueryRowContext(ctx, q, 1, me).Scan(&fence); err != nil {
		return err
	}
	// ok: the claim minted the fence and the write compares it
	res, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1, fence = $3 WHERE id = $2 AND fence < $3", 10, 1, fence)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrSuperseded
	}
	return nil
}

func (l *tableLock) sprintfValueNotReadGood(ctx context.Context, db *sql.DB, me string, ttl int) error {
	// ok: a value formatted into the claim (the expiry) leaves it unread:
	// it could be anything, so no lock scope is guessed at
	q := fmt.Sprintf(`UPDATE %s SET locked_by = $1, lease_expires_at = now() + interval '%d seconds' WHERE lock_id = $2 AND lease_expires_at < now()`, l.tableName, ttl)
	if _, err := db.ExecContext(ctx, q, me, 1); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE accounts SET audited = true WHERE id = $1", 1)
	return err
}

// The claim built by concatenation, the table name in identifier
// positions: read like the Sprintf one.
func (l *tableLock) concatClaimBad(ctx context.Context, db *sql.DB, me string) error {
	q := "UPDATE " + l.tableName + " SET locked_by = $1, lease_expires_at = now() + interval '30 seconds' WHERE lock_id = $2 AND " + l.tableName + ".lease_expires_at < now()"
	res, err := db.ExecContext(ctx, q, me, 1)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return ErrSuperseded
	}
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", 10, 1) // want `SQL write via db.ExecContext to accounts under the lease table tablename is not fenced: its WHERE does not compare a fence column with the token; the lease table tablename gives no token to fence with`
	return err
}

func (l *tableLock) concatValueNotReadGood(ctx context.Context, db *sql.DB, me, ttl string) error {
	// ok: a value concatenated into the claim leaves it unread
	q := "UPDATE " + l.tableName + " SET locked_by = $1, lease_expires_at = now() + interval '" + ttl + " seconds' WHERE lock_id = $2 AND lease_expires_at < now()"
	if _, err := db.ExecContext(ctx, q, me, 1); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE accounts SET audited = true WHERE id = $1", 1)
	return err
}
