package gormlib

import (
	"errors"

	"github.com/go-redsync/redsync/v4"
	"gorm.io/gorm"
)

// Optimistic concurrency on the row's own version column: an UPDATE whose
// WHERE requires the version it read and whose SET moves the version on
// matches no row once anyone else has written, so a stale holder's write
// is rejected by the store (as a ZooKeeper Set with the version of its
// Get is). Comparing the version without moving it, or comparing a
// constant, is no compare-and-set.

type Inventory struct {
	ID      int64
	Goods   int64
	Stocks  int64
	Version int64 `gorm:"column:version"`
}

var errConflict = errors.New("conflict")

func structCASGood(db *gorm.DB, rs *redsync.Redsync, goods, n int64) error {
	m := rs.NewMutex("goods")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	var inv Inventory
	if err := db.Where("goods = ?", goods).First(&inv).Error; err != nil {
		return err
	}
	// ok: the WHERE requires the version read and the struct moves it on
	if r := db.Model(&Inventory{}).Where("goods = ? AND version = ?", goods, inv.Version).Updates(Inventory{Stocks: inv.Stocks - n, Version: inv.Version + 1}); r.RowsAffected == 0 {
		return errConflict
	}
	return nil
}

func structNoBumpBad(db *gorm.DB, rs *redsync.Redsync, goods, n int64) error {
	m := rs.NewMutex("goods")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	var inv Inventory
	if err := db.Where("goods = ?", goods).First(&inv).Error; err != nil {
		return err
	}
	if r := db.Model(&Inventory{}).Where("goods = ? AND version = ?", goods, inv.Version).Updates(Inventory{Stocks: inv.Stocks - n}); r.RowsAffected == 0 { // want `gorm write via .*Updates to Inventory under the redsync mutex is not fenced: its WHERE does not compare a fence column with the token`
		return errConflict
	}
	return nil
}

func mapCASGood(db *gorm.DB, rs *redsync.Redsync, goods, n, version int64) error {
	m := rs.NewMutex("goods")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	// ok: version = ? moved on to version+1 in the same UPDATE
	r := db.Model(&Inventory{}).Where("goods = ?", goods).Where("version = ?", version).Updates(map[string]any{"stocks": n, "version": version + 1})
	if r.Error != nil {
		return r.Error
	}
	if r.RowsAffected == 0 {
		return errConflict
	}
	return nil
}

func sqlCASGood(db *gorm.DB, rs *redsync.Redsync, goods, n, version int64) error {
	m := rs.NewMutex("goods")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	// ok: SET version = version + 1 ... AND version = ?
	r := db.Exec("UPDATE inventory SET stocks = stocks - ?, version = version + 1 WHERE goods = ? AND version = ?", n, goods, version)
	if r.RowsAffected == 0 {
		return errConflict
	}
	return r.Error
}

func sqlNoBumpBad(db *gorm.DB, rs *redsync.Redsync, goods, n, version int64) error {
	m := rs.NewMutex("goods")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	r := db.Exec("UPDATE inventory SET stocks = stocks - ? WHERE goods = ? AND version = ?", n, goods, version) // want `gorm write via db.Exec to inventory under the redsync mutex is not fenced: its WHERE does not compare a fence column with the token`
	if r.RowsAffected == 0 {
		return errConflict
	}
	return r.Error
}

func sqlSameValueBad(db *gorm.DB, rs *redsync.Redsync, goods, version int64) error {
	m := rs.NewMutex("goods")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	r := db.Exec("UPDATE inventory SET stocks = 0, version = ? WHERE goods = ? AND version = ?", version, goods, version) // want `gorm write via db.Exec to inventory under the redsync mutex is not fenced`
	if r.RowsAffected == 0 {
		return errConflict
	}
	return r.Error
}

func sqlConstantBad(db *gorm.DB, rs *redsync.Redsync, goods int64) error {
	m := rs.NewMutex("goods")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	r := db.Exec("UPDATE inventory SET stocks = 0, version = version + 1 WHERE goods = ? AND version = 3", goods) // want `gorm write via db.Exec to inventory under the redsync mutex is not fenced`
	if r.RowsAffected == 0 {
		return errConflict
	}
	return r.Error
}

func sqlOrdinalExprGood(db *gorm.DB, rs *redsync.Redsync, goods, version int64) error {
	m := rs.NewMutex("goods")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	// ok: the new version is the compared one plus one
	r := db.Exec("UPDATE inventory SET stocks = 0, version = ? + 1 WHERE goods = ? AND version = ?", version, goods, version)
	if r.RowsAffected == 0 {
		return errConflict
	}
	return r.Error
}
