package gormout

import "gorm.io/gorm"

// A compare-and-set on the row's version is rejected as 0 rows too: a
// caller that returns only the error never learns its write lost.

type Stock struct {
	ID      int64
	Count   int64
	Version int64
}

func versionCASErrorOnlyBad(db *gorm.DB, lease Lease, id, count, version int64) error {
	return db.Model(&Stock{}).Where("id = ? AND version = ?", id, version).Updates(Stock{Count: count, Version: version + 1}).Error // want `fenced write via .*Updates never compares RowsAffected: gorm reports a write the fence rejected as 0 rows, not as an error; abort when it is 0`
}

func versionCASRowsGood(db *gorm.DB, lease Lease, id, count, version int64) error {
	// ok: 0 rows means another writer moved the version on
	res := db.Model(&Stock{}).Where("id = ? AND version = ?", id, version).Updates(Stock{Count: count, Version: version + 1})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return ErrSuperseded
	}
	return nil
}
