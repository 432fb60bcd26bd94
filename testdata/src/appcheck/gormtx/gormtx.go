// Package gormtx: a token compared in Go before a gorm write. Without a row
// lock it is a read-then-compare race; with SELECT ... FOR UPDATE in the
// same transaction the row cannot change between the check and the write.
package gormtx

import (
	"errors"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

type Lease struct {
	Token     int64
	ExpiresAt time.Time
}

type Job struct {
	ID    int64
	State string
	Fence int64
}

var errSuperseded = errors.New("superseded")

func readThenCompareBad(db *gorm.DB, lease *Lease, id int64) error {
	return db.Transaction(func(tx *gorm.DB) error {
		var j Job
		if err := tx.Where("id = ?", id).First(&j).Error; err != nil {
			return err
		}
		if j.Fence >= lease.Token { // want `fence check j.Fence >= lease.Token is done in Go before the gorm write`
			return errSuperseded
		}
		return tx.Model(&j).Updates(map[string]any{"state": "done", "fence": lease.Token}).Error
	})
}

func lockedRowGood(db *gorm.DB, lease *Lease, id int64) error {
	// ok: the row is locked (FOR UPDATE) for the rest of the transaction
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
