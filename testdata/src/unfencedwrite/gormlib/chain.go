package gormlib

import (
	"context"

	"gorm.io/gorm"
)

// The chain methods that neither add a condition nor change what is
// written pass through; Not adds a fragment to the WHERE.

func passThroughBad(ctx context.Context, db *gorm.DB, lease *Lease, id int64) error {
	return db.Debug().Session(&gorm.Session{}).Unscoped().Table("jobs").Select("state").Omit("fence").Order("id").Limit(1).Where("id = ?", id).Update("state", "done").Error // want `gorm write via .*Update to jobs under the Lease held in parameter lease is not fenced: its WHERE does not compare a fence column with the token`
}

func passThroughGood(ctx context.Context, db *gorm.DB, lease *Lease, id int64) error {
	// ok: the fence is compared in the chain's WHERE
	return db.Debug().Session(&gorm.Session{}).Unscoped().Table("jobs").Select("state", "fence").Order("id").Limit(1).
		Where("id = ?", id).Where("fence < ?", lease.Token).Updates(map[string]any{"state": "done", "fence": lease.Token}).Error
}

func notBad(ctx context.Context, db *gorm.DB, lease *Lease, id int64) error {
	return db.Model(&Job{}).Where("id = ?", id).Not("state = ?", "done").Update("state", "done").Error // want `gorm write via .*Update to Job under the Lease held in parameter lease is not fenced: its WHERE does not compare a fence column with the token`
}
