package gormlib

import (
	"context"

	"gorm.io/gorm"
)

// UpdateColumn and UpdateColumns are Update and Updates without hooks:
// the chain's Where fragments are their condition too.

func updateColumnBad(ctx context.Context, db *gorm.DB, lease *Lease, id int64) error {
	if err := db.Model(&Job{}).Where("id = ?", id).UpdateColumn("state", "done").Error; err != nil { // want `gorm write via db.Model\(&Job\{\}\).Where\("id = \?", id\).UpdateColumn to Job under the Lease held in parameter lease is not fenced: its WHERE does not compare a fence column with the token`
		return err
	}
	return db.Model(&Job{}).Where("id = ?", id).UpdateColumns(map[string]any{"state": "done"}).Error // want `gorm write via db.Model\(&Job\{\}\).Where\("id = \?", id\).UpdateColumns to Job under the Lease held in parameter lease is not fenced: its WHERE does not compare a fence column with the token`
}

func updateColumnGood(ctx context.Context, db *gorm.DB, lease *Lease, id int64) error {
	// ok: the fence is compared in the statement's own WHERE
	if err := db.Model(&Job{}).Where("id = ? AND fence < ?", id, lease.Token).UpdateColumn("fence", lease.Token).Error; err != nil {
		return err
	}
	// ok: as above
	return db.Model(&Job{}).Where("id = ? AND fence < ?", id, lease.Token).
		UpdateColumns(map[string]any{"state": "done", "fence": lease.Token}).Error
}
