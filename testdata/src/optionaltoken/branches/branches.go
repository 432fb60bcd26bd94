// Package branches exercises writes that skip the fence when the token is
// zero.
package branches

import (
	"context"
	"database/sql"
	"errors"

	"github.com/hashicorp/consul/api"
	"gorm.io/gorm"
)

// Lease is lease-shaped.
type Lease struct {
	Resource string
	Token    int64
}

func saveBad(ctx context.Context, db *sql.DB, id string, tok int64) error {
	var err error
	if tok == 0 { // want `when tok is zero the write falls back to an unfenced db.ExecContext: reject a zero token instead of skipping the fence`
		_, err = db.ExecContext(ctx, "UPDATE docs SET body = 'x' WHERE id = $1", id)
	} else {
		_, err = db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, tok)
	}
	return err
}

// ok: a zero token is rejected
func saveGood(ctx context.Context, db *sql.DB, id string, tok int64) error {
	if tok == 0 {
		return sql.ErrNoRows
	}
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, tok)
	return err
}

func leaseBad(ctx context.Context, db *sql.DB, l *Lease, id string) error {
	if l.Token <= 0 { // want `when l.Token is zero the write falls back to an unfenced db.ExecContext`
		_, err := db.ExecContext(ctx, "DELETE FROM docs WHERE id = $1", id)
		return err
	}
	_, err := db.ExecContext(ctx, "DELETE FROM docs WHERE id = $1 AND fence <= $2", id, l.Token)
	return err
}

// ok: a zero token creates the row with INSERT, which fails on a duplicate
func createGood(ctx context.Context, db *sql.DB, l *Lease, id string) error {
	if l.Token == 0 {
		_, err := db.ExecContext(ctx, "INSERT INTO docs (id, fence) VALUES ($1, 0)", id)
		return err
	}
	_, err := db.ExecContext(ctx, "DELETE FROM docs WHERE id = $1 AND fence <= $2", id, l.Token)
	return err
}

// put drops from CAS to a blind write when its index is 0.
func put(kv *api.KV, key string, value []byte, index uint64) error {
	var err error
	if index != 0 { // want `when index is zero the write falls back to an unfenced kv.Put`
		_, _, err = kv.CAS(&api.KVPair{Key: key, Value: value, ModifyIndex: index}, nil)
	} else {
		_, err = kv.Put(&api.KVPair{Key: key, Value: value}, nil)
	}
	return err
}

// ok: CAS with index 0 is consul's create-if-absent, not a blind write
func putGood(kv *api.KV, key string, value []byte, index uint64) error {
	_, _, err := kv.CAS(&api.KVPair{Key: key, Value: value, ModifyIndex: index}, nil)
	return err
}

// ok: a zero count short-circuits, no write in the zero branch is blind
// and the other branch does not use the count as a fence
func countGood(ctx context.Context, db *sql.DB, id string, n int) error {
	if n == 0 {
		_, err := db.ExecContext(ctx, "DELETE FROM docs WHERE id = $1", id)
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE docs SET n = n + 1 WHERE id = $1", id)
	return err
}

// insertDoc and deleteDoc are local write helpers: insertDoc only creates.
func insertDoc(ctx context.Context, db *sql.DB, id string) error {
	_, err := db.ExecContext(ctx, "INSERT INTO docs (id, fence) VALUES ($1, 0)", id)
	return err
}

func deleteDoc(ctx context.Context, db *sql.DB, id string) error {
	_, err := db.ExecContext(ctx, "DELETE FROM docs WHERE id = $1", id)
	return err
}

// ok: the zero branch's helper only creates (INSERT fails on a duplicate),
// as a direct INSERT there would
func createHelperGood(ctx context.Context, db *sql.DB, l *Lease, id string) error {
	if l.Token == 0 {
		return insertDoc(ctx, db, id)
	}
	_, err := db.ExecContext(ctx, "DELETE FROM docs WHERE id = $1 AND fence <= $2", id, l.Token)
	return err
}

func deleteHelperBad(ctx context.Context, db *sql.DB, l *Lease, id string) error {
	if l.Token == 0 { // want `when l.Token is zero the write falls back to an unfenced deleteDoc`
		return deleteDoc(ctx, db, id)
	}
	_, err := db.ExecContext(ctx, "DELETE FROM docs WHERE id = $1 AND fence <= $2", id, l.Token)
	return err
}

// A nil token is called nil, not zero.
func savePtrBad(ctx context.Context, db *sql.DB, id string, tok *int64) error { // want `fencing token parameter tok of savePtrBad is a pointer`
	if tok == nil { // want `when tok is nil the write falls back to an unfenced db.ExecContext: reject a nil token instead of skipping the fence`
		_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x' WHERE id = $1", id)
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, *tok)
	return err
}

// ok: a nil token is rejected (the pointer parameter is still reported)
func savePtrGood(ctx context.Context, db *sql.DB, id string, tok *int64) error { // want `fencing token parameter tok of savePtrGood is a pointer`
	if tok == nil {
		return sql.ErrNoRows
	}
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, *tok)
	return err
}

// Doc is a gorm model.
type Doc struct {
	ID    string
	Body  string
	Fence int64
}

// gorm writes are judged by the engine like any other write kind.
func gormBad(db *gorm.DB, id, body string, fence int64) error {
	if fence == 0 { // want `when fence is zero the write falls back to an unfenced db.Model\(&Doc\{\}\).Where\("id = \?", id\).Update`
		return db.Model(&Doc{}).Where("id = ?", id).Update("body", body).Error
	}
	return db.Model(&Doc{}).Where("id = ? AND fence < ?", id, fence).Updates(map[string]any{"body": body, "fence": fence}).Error
}

// ok: a zero token is rejected before the gorm write
func gormGood(db *gorm.DB, id, body string, fence int64) error {
	if fence == 0 {
		return errors.New("no fencing token")
	}
	return db.Model(&Doc{}).Where("id = ? AND fence < ?", id, fence).Updates(map[string]any{"body": body, "fence": fence}).Error
}

// A nil token falls back to an unfenced write: the pointer parameter and
// the branch are optionaltoken's, and so is the write on that branch (it
// is Omitted: unfencedwrite leaves it).
func nilFallbackBad(ctx context.Context, db *sql.DB, id string, fence *int64) error { // want `fencing token parameter fence of nilFallbackBad is a pointer`
	if fence == nil { // want `when fence is nil the write falls back to an unfenced db.ExecContext: reject a nil token instead of skipping the fence`
		_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x' WHERE id = $1", id)
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, *fence)
	return err
}

// ok: the token by value, and zero rejected
func nilFallbackGood(ctx context.Context, db *sql.DB, id string, fence int64) error {
	if fence == 0 {
		return errors.New("no fencing token")
	}
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, fence)
	return err
}
