// Package gormout: gorm reports a write its WHERE rejected as
// RowsAffected == 0, not as an error.
package gormout

import (
	"errors"

	"gorm.io/gorm"
)

type Lease struct{ Token int64 }

type Job struct {
	ID    int64
	State string
	Fence int64
}

var ErrSuperseded = errors.New("superseded")

func errorOnlyBad(db *gorm.DB, lease Lease, id int64) error {
	return db.Model(&Job{}).Where("id = ? AND fence < ?", id, lease.Token).Updates(map[string]any{"state": "done", "fence": lease.Token}).Error // want `fenced write via .*Updates never compares RowsAffected: gorm reports a write the fence rejected as 0 rows, not as an error; abort when it is 0`
}

func discardedBad(db *gorm.DB, lease Lease, id int64) {
	db.Model(&Job{}).Where("id = ? AND fence < ?", id, lease.Token).Update("fence", lease.Token) // want `the result of fenced write via .*Update is discarded`
}

func rowsGood(db *gorm.DB, lease Lease, id int64) error {
	// ok: 0 rows aborts
	res := db.Model(&Job{}).Where("id = ? AND fence < ?", id, lease.Token).Update("fence", lease.Token)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return ErrSuperseded
	}
	return nil
}

func retryBad(db *gorm.DB, lease Lease, id int64) error {
	for i := 0; i < 3; i++ {
		res := db.Model(&Job{}).Where("id = ? AND fence < ?", id, lease.Token).Update("fence", lease.Token) // want `fenced write via .*Update is re-issued after the fence rejected it \(0 rows\)`
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			continue
		}
		return nil
	}
	return ErrSuperseded
}

func returnedGood(db *gorm.DB, lease Lease, id int64) *gorm.DB {
	// ok: the caller gets the whole result
	return db.Model(&Job{}).Where("id = ? AND fence < ?", id, lease.Token).Update("fence", lease.Token)
}
