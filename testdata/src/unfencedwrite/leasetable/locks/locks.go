// Package locks is an application's own lock library over a SQL lease
// table: its functions become acquires and releases for their callers in
// other packages, through facts.
package locks

import (
	"context"
	"database/sql"
)

// Locker claims rows of the locks table for one owner.
type Locker struct {
	db    *sql.DB
	owner string
}

// TryAcquire claims name for 30 seconds; it hands out no token.
func (l *Locker) TryAcquire(ctx context.Context, name string) (bool, error) {
	res, err := l.db.ExecContext(ctx, `UPDATE locks SET holder = $1, expires_at = now() + interval '30 seconds'
		WHERE name = $2 AND (expires_at < now() OR holder = $1)`, l.owner, name)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, err
	}
	return n == 1, nil
}

// AcquireFenced claims name and returns the fence the claim minted.
func (l *Locker) AcquireFenced(ctx context.Context, name string) (int64, error) {
	var fence int64
	err := l.db.QueryRowContext(ctx, `UPDATE locks SET holder = $1, expires_at = now() + interval '30 seconds', fence = fence + 1
		WHERE name = $2 AND (expires_at < now() OR holder = $1) RETURNING fence`, l.owner, name).Scan(&fence)
	if err != nil {
		return 0, err
	}
	return fence, nil
}

// Renew extends the claim.
func (l *Locker) Renew(ctx context.Context, name string) error {
	_, err := l.db.ExecContext(ctx, "UPDATE locks SET expires_at = now() + interval '30 seconds' WHERE name = $1 AND holder = $2", name, l.owner)
	return err
}

// Release gives the row up.
func (l *Locker) Release(ctx context.Context, name string) error {
	_, err := l.db.ExecContext(ctx, "DELETE FROM locks WHERE name = $1 AND holder = $2", name, l.owner)
	return err
}

// ClaimMany claims every free name at once, as a sqlc :many query does;
// closing its rows releases nothing.
func (l *Locker) ClaimMany(ctx context.Context, names []string) ([]string, error) {
	rows, err := l.db.QueryContext(ctx, `UPDATE locks SET holder = $1, expires_at = now() + interval '30 seconds'
		WHERE name = $2 AND expires_at < now() RETURNING name`, l.owner, names[0])
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var claimed []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		claimed = append(claimed, n)
	}
	return claimed, rows.Err()
}

// ReleaseMany gives up rows picked by name from a list, as hatchet's
// DELETE ... USING does: a release, though no term is a plain equality.
func (l *Locker) ReleaseMany(ctx context.Context, names []string) error {
	_, err := l.db.ExecContext(ctx, `DELETE FROM locks l USING (SELECT unnest($1::text[]) AS name) AS input WHERE l.name = input.name`, names)
	return err
}

// Sweep holds the lock while it runs and gives it up through ReleaseMany
// in a deferred closure: it is no acquire wrapper.
func (l *Locker) Sweep(ctx context.Context, db *sql.DB) error {
	ok, err := l.TryAcquire(ctx, "sweep")
	if err != nil || !ok {
		return err
	}
	defer func() { _ = l.ReleaseMany(context.Background(), []string{"sweep"}) }()
	_, err = db.ExecContext(ctx, "DELETE FROM sessions WHERE id = $1", 9) // want `SQL write via db.ExecContext to sessions under the lease table locks is not fenced`
	return err
}
