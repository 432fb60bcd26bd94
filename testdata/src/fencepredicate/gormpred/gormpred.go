// Package gormpred exercises fence conditions of gorm chains: the chain's
// Where fragments are the condition, the finisher's values what it records.
package gormpred

import (
	"context"
	"time"

	"gorm.io/gorm"
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

func mapNotRecordedBad(ctx context.Context, db *gorm.DB, lease *Lease, id int64) error {
	return db.WithContext(ctx).Model(&Job{}).Where("id = ? AND fence < ?", id, lease.Token).Updates(map[string]any{"state": "done"}).Error // want `fence condition of db.WithContext\(ctx\).Model\(&Job\{\}\).Where\("id = \? AND fence < \?", id, lease.Token\).Updates compares fence with the token but never records it`
}

func mapRecordedGood(ctx context.Context, db *gorm.DB, lease *Lease, id int64) error {
	// ok: the values map records the token in the compared column
	return db.WithContext(ctx).Model(&Job{}).Where("id = ? AND fence < ?", id, lease.Token).Updates(map[string]any{"state": "done", "fence": lease.Token}).Error
}

func structValuesGood(ctx context.Context, db *gorm.DB, lease *Lease, id int64) error {
	// ok: the struct literal's Fence field records the token in the compared column
	return db.WithContext(ctx).Model(&Job{}).Where("id = ? AND fence < ?", id, lease.Token).Updates(Job{State: "done", Fence: lease.Token}).Error
}

func structNotRecordedBad(ctx context.Context, db *gorm.DB, lease *Lease, id int64) error {
	return db.WithContext(ctx).Model(&Job{}).Where("id = ? AND fence < ?", id, lease.Token).Updates(Job{State: "done"}).Error // want `Updates compares fence with the token but never records it: the storage never learns the newest token`
}

func reversedBad(ctx context.Context, db *gorm.DB, lease *Lease, id int64) error {
	return db.WithContext(ctx).Model(&Job{}).Where("id = ? AND fence > ?", id, lease.Token).Updates(map[string]any{"state": "done", "fence": lease.Token}).Error // want `is reversed: fence > \? lets a stale holder's older token through`
}
