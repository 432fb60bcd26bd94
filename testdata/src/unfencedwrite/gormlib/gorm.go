// Package gormlib exercises gorm writes under a lease: the chain's Where
// fragments are the write's condition.
package gormlib

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

type Lease struct {
	Resource  string
	Token     int64
	ExpiresAt time.Time
}

type Job struct {
	ID    int64
	State string
	Fence int64
}

func updateBad(ctx context.Context, db *gorm.DB, lease *Lease, id int64) error {
	return db.WithContext(ctx).Model(&Job{}).Where("id = ?", id).Update("state", "done").Error // want `gorm write via db.WithContext\(ctx\).Model\(&Job\{\}\).Where\("id = \?", id\).Update to Job under the Lease held in parameter lease is not fenced: its WHERE does not compare a fence column with the token; compare the stored fence with lease.Token in the write itself`
}

func updateGood(ctx context.Context, db *gorm.DB, lease *Lease, id int64) error {
	// ok: the fence is compared in the statement's own WHERE
	res := db.WithContext(ctx).Model(&Job{}).Where("id = ?", id).Where("fence < ?", lease.Token).
		Updates(map[string]any{"state": "done", "fence": lease.Token})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return errSuperseded
	}
	return nil
}

func orWeakensBad(ctx context.Context, db *gorm.DB, lease *Lease, id int64) error {
	// the Or makes the fence optional
	return db.Model(&Job{}).Where("fence < ?", lease.Token).Or("id = ?", id).Update("state", "done").Error // want `gorm write via .*Update to Job under the Lease held in parameter lease is not fenced`
}

func saveBad(db *gorm.DB, lease *Lease, job *Job) error {
	job.Fence = lease.Token
	return db.Where("fence < ?", lease.Token).Save(job).Error // want `gorm write via db.Where\("fence < \?", lease.Token\).Save to Job under the Lease held in parameter lease is not fenced: gorm's Save re-issues an UPDATE that matched no row as an upsert without the WHERE`
}

func createBad(db *gorm.DB, lease *Lease, job *Job) error {
	return db.Create(job).Error // want `gorm write via db.Create to Job under the Lease held in parameter lease is not fenced: a plain INSERT carries no fencing token`
}

func deleteInlineGood(db *gorm.DB, lease *Lease, id int64) error {
	// ok: inline conditions of Delete are its WHERE
	return db.Delete(&Job{}, "id = ? AND fence < ?", id, lease.Token).Error
}

func execBad(db *gorm.DB, lease *Lease, id int64) error {
	return db.Exec("UPDATE jobs SET state = 'x' WHERE id = ?", id).Error // want `gorm write via db.Exec to jobs under the Lease held in parameter lease is not fenced: its WHERE does not compare a fence column with the token`
}

func execGood(db *gorm.DB, lease *Lease, id int64) error {
	// ok: fenced in its own SQL
	return db.Exec("UPDATE jobs SET state = 'x', fence = ? WHERE id = ? AND fence < ?", lease.Token, id, lease.Token).Error
}

func helperChainUnknown(db *gorm.DB, lease *Lease, id int64) error {
	// ok: the chain is built by a helper we do not look into (unknown, not reported)
	return scoped(db, lease).Where("id = ?", id).Update("state", "done").Error
}

func scoped(db *gorm.DB, lease *Lease) *gorm.DB {
	return db.Where("fence < ?", lease.Token)
}

func readGood(db *gorm.DB, lease *Lease, id int64) (Job, error) {
	// ok: a read
	var j Job
	err := db.Where("id = ?", id).First(&j).Error
	return j, err
}

func lockedRowTxGood(db *gorm.DB, lease *Lease, id int64) error {
	// ok (unknown, not reported): the transaction locks the row
	// (SELECT ... FOR UPDATE) and compares the token in Go before writing
	return db.Transaction(func(tx *gorm.DB) error {
		var j Job
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).First(&j).Error; err != nil {
			return err
		}
		if j.Fence >= lease.Token {
			return errSuperseded
		}
		return tx.Model(&j).Updates(map[string]any{"state": "done", "fence": lease.Token}).Error
	})
}

func txNoRowLockBad(db *gorm.DB, lease *Lease, id int64) error {
	return db.Transaction(func(tx *gorm.DB) error {
		return tx.Model(&Job{}).Where("id = ?", id).Update("state", "done").Error // want `gorm write via tx.Model\(&Job\{\}\).Where\("id = \?", id\).Update to Job under the Lease held in parameter lease is not fenced`
	})
}

var errSuperseded = context.Canceled

func returningBad(db *gorm.DB, lease *Lease, id int64, name string) error {
	// RETURNING changes what comes back, not which rows match
	return db.Model(&Job{}).Clauses(clause.Returning{}).Where("id = ?", id).Update("state", name).Error // want `gorm write via .*Update to Job under the Lease held in parameter lease is not fenced`
}

func returningGood(db *gorm.DB, lease *Lease, id int64, name string) error {
	// ok: fenced, with RETURNING
	res := db.Model(&Job{}).Clauses(clause.Returning{Columns: []clause.Column{{Name: "id"}}}).
		Where("id = ? AND fence < ?", id, lease.Token).Update("state", name)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return errSuperseded
	}
	return nil
}

func otherClauseUnknownGood(db *gorm.DB, lease *Lease, id int64, name string) error {
	// ok: a clause that may add a condition leaves the write unjudged
	return db.Model(&Job{}).Clauses(clause.Eq{Column: "fence", Value: lease.Token}).Where("id = ?", id).Update("state", name).Error
}

func mapRecordedOnlyBad(ctx context.Context, db *gorm.DB, lease *Lease, id int64) error {
	return db.WithContext(ctx).Model(&Job{}).Where("id = ?", id).Updates(map[string]any{"state": "done", "fence": lease.Token}).Error // want `is not fenced: it records lease.Token in fence but its WHERE never compares it`
}

type Audit struct {
	ID  int64
	Job int64
}

func transactionUnitGood(ctx context.Context, db *gorm.DB, lease *Lease, id int64) error {
	return db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&Job{}).Where("id = ? AND fence < ?", id, lease.Token).Updates(map[string]any{"state": "done", "fence": lease.Token})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return gorm.ErrRecordNotFound
		}
		// ok: one transaction with the fenced update, which aborts it on 0 rows
		return tx.Create(&Audit{Job: id}).Error
	})
}

func transactionUnitBad(ctx context.Context, db *gorm.DB, lease *Lease, id int64) error {
	return db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&Job{}).Where("id = ?", id).Update("state", "done").Error; err != nil { // want `gorm write via tx.Model\(&Job\{\}\).Where\("id = \?", id\).Update to Job under the Lease held in parameter lease is not fenced`
			return err
		}
		return tx.Create(&Audit{Job: id}).Error // want `gorm write via tx.Create to Audit under the Lease held in parameter lease is not fenced: a plain INSERT carries no fencing token`
	})
}

func beginUnitGood(ctx context.Context, db *gorm.DB, lease *Lease, id int64) error {
	tx := db.WithContext(ctx).Begin()
	res := tx.Model(&Job{}).Where("id = ? AND fence < ?", id, lease.Token).Updates(map[string]any{"state": "done", "fence": lease.Token})
	if res.Error != nil || res.RowsAffected == 0 {
		tx.Rollback()
		return gorm.ErrRecordNotFound
	}
	// ok: the same transaction as the fenced update
	if err := tx.Create(&Audit{Job: id}).Error; err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit().Error
}
