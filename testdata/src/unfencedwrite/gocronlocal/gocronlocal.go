// Package gocronlocal schedules jobs without a distributed locker.
package gocronlocal

import (
	"context"
	"database/sql"
	"time"

	"github.com/go-co-op/gocron/v2"
)

func scheduleGood(db *sql.DB) error {
	s, err := gocron.NewScheduler()
	if err != nil {
		return err
	}
	_, err = s.NewJob(gocron.DurationJob(time.Minute), gocron.NewTask(func(ctx context.Context) {
		// ok: a single-process scheduler holds no distributed lock
		_, _ = db.ExecContext(ctx, "UPDATE reports SET runs = runs + 1 WHERE id = 1")
	}))
	return err
}
