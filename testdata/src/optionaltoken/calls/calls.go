// Package calls exercises literal 0 and nil passed for a token.
package calls

import (
	"context"
	"database/sql"
	"math"
	"os"
	"strconv"
)

// Lease is lease-shaped.
type Lease struct {
	Resource string
	Token    int64
}

func save(ctx context.Context, db *sql.DB, id string, fence int64) error {
	_, err := db.ExecContext(ctx, "UPDATE docs SET fence = $2 WHERE id = $1 AND fence < $2", id, fence)
	return err
}

// saveAt is fenced by version, a name the heuristics do not know.
func saveAt(ctx context.Context, db *sql.DB, id string, version int64) error {
	_, err := db.ExecContext(ctx, "UPDATE docs SET version = $2 WHERE id = $1 AND version < $2", id, version)
	return err
}

func saveLease(ctx context.Context, db *sql.DB, id string, lease *Lease) error {
	_, err := db.ExecContext(ctx, "UPDATE docs SET fence = $2 WHERE id = $1 AND fence < $2", id, lease.Token)
	return err
}

func list(ctx context.Context, db *sql.DB, offset, limit int) error { return nil }

func zeroBad(ctx context.Context, db *sql.DB) error {
	return save(ctx, db, "a", 0) // want `literal 0 passed as fencing token fence of save: the write is not fenced; pass the lease's token`
}

func zeroConvBad(ctx context.Context, db *sql.DB) error {
	return save(ctx, db, "a", int64(0)) // want `literal 0 passed as fencing token fence of save`
}

func fencedByBad(ctx context.Context, db *sql.DB) error {
	return saveAt(ctx, db, "a", 0) // want `literal 0 passed as fencing token version of saveAt`
}

// ok: the lease's token is passed on
func zeroGood(ctx context.Context, db *sql.DB, lease Lease) error {
	if err := save(ctx, db, "a", lease.Token); err != nil {
		return err
	}
	return saveAt(ctx, db, "a", lease.Token)
}

// ok: a non-literal token is passed on, even if it might be zero
func passOnGood(ctx context.Context, db *sql.DB, fence int64) error {
	return save(ctx, db, "a", fence)
}

// ok: nil for a *Lease parameter is not a token literal; zeros for offsets
// and limits, and exit codes, are unrelated
func unrelatedGood(ctx context.Context, db *sql.DB) error {
	_ = saveLease(ctx, db, "a", nil)
	_ = list(ctx, db, 0, 0)
	if db == nil {
		os.Exit(0)
	}
	return nil
}

func savePtr(ctx context.Context, db *sql.DB, id string, fence *int64) error { // want `fencing token parameter fence of savePtr is a pointer`
	if fence == nil {
		return nil
	}
	return save(ctx, db, id, *fence)
}

func nilBad(ctx context.Context, db *sql.DB) error {
	return savePtr(ctx, db, "a", nil) // want `literal nil passed as fencing token fence of savePtr`
}

// ok: a token address is passed
func nilGood(ctx context.Context, db *sql.DB, lease Lease) error {
	return savePtr(ctx, db, "a", &lease.Token)
}

type repo struct{ db *sql.DB }

func (r *repo) Update(ctx context.Context, id string, epoch uint64) error {
	_, err := r.db.ExecContext(ctx, "UPDATE docs SET epoch = $2 WHERE id = $1 AND epoch < $2", id, epoch)
	return err
}

func methodBad(ctx context.Context, r *repo) error {
	return r.Update(ctx, "a", 0) // want `literal 0 passed as fencing token epoch of repo.Update`
}

// ok: the method gets a real epoch
func methodGood(ctx context.Context, r *repo, lease Lease) error {
	return r.Update(ctx, "a", uint64(lease.Token))
}

func ignored(ctx context.Context, db *sql.DB) error {
	//fencelint:ignore optionaltoken migration backfill runs before any lease exists
	return save(ctx, db, "a", 0)
}

// Docs is a store interface.
type Docs interface {
	Save(ctx context.Context, id string, fence int64) error
	Get(ctx context.Context, id string, revision int64) ([]byte, error)
}

func ifaceBad(ctx context.Context, d Docs) error {
	return d.Save(ctx, "a", 0) // want `literal 0 passed as fencing token fence of Docs.Save`
}

// ok: revision 0 of a read means "latest"
func ifaceReadGood(ctx context.Context, d Docs) error {
	_, err := d.Get(ctx, "a", 0)
	return err
}

func get(ctx context.Context, db *sql.DB, id string, revision int64) error {
	row := db.QueryRowContext(ctx, "SELECT body FROM docs WHERE id = $1 AND revision = $2", id, revision)
	return row.Err()
}

// ok: a read function's revision 0 is not an unfenced write
func readGood(ctx context.Context, db *sql.DB) error {
	return get(ctx, db, "a", 0)
}

// SaveRequest carries the token in a field the write helper compares.
type SaveRequest struct {
	ID    string
	Body  string
	Fence int64
}

func saveReq(ctx context.Context, db *sql.DB, r SaveRequest) error {
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = $2, fence = $3 WHERE id = $1 AND fence < $3", r.ID, r.Body, r.Fence)
	return err
}

func requestFieldLeftOutBad(ctx context.Context, db *sql.DB) error {
	return saveReq(ctx, db, SaveRequest{ID: "a", Body: "b"}) // want `fencing token field Fence of request SaveRequest is left out of the literal passed to saveReq: it is 0 and the write is not fenced`
}

func requestFieldZeroBad(ctx context.Context, db *sql.DB) error {
	return saveReq(ctx, db, SaveRequest{ID: "a", Body: "b", Fence: 0}) // want `literal 0 passed as fencing token Fence of saveReq`
}

func requestFieldGood(ctx context.Context, db *sql.DB, lease *Lease) error {
	// ok: the lease's token is in the literal
	return saveReq(ctx, db, SaveRequest{ID: "a", Body: "b", Fence: lease.Token})
}

func requestFieldSetLaterGood(ctx context.Context, db *sql.DB, lease *Lease) error {
	// ok: a literal kept in a variable can be given its token afterwards
	r := SaveRequest{ID: "a", Body: "b"}
	r.Fence = lease.Token
	return saveReq(ctx, db, r)
}

func maxTokenBad(ctx context.Context, db *sql.DB) error {
	return save(ctx, db, "a", math.MaxInt64) // want `math.MaxInt64 passed as fencing token fence of save: it passes every fence and then rejects every later holder`
}

func constantIDGood(ctx context.Context, db *sql.DB, lease *Lease) error {
	// ok: a large constant elsewhere is data; the token is the lease's
	return saveAt(ctx, db, strconv.FormatInt(math.MaxInt32, 10), lease.Token)
}

const noFence = 0

func namedZeroBad(ctx context.Context, db *sql.DB) error {
	return save(ctx, db, "a", noFence) // want `noFence, a zero constant, passed as fencing token fence of save: the write is not fenced`
}
