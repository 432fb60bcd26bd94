// Package gocronhooks: gocron's executor (runJob in the library's root
// package) calls a job's BeforeJobRuns and AfterJobRuns* event listeners
// while it holds the job's distributed lock, like the task itself;
// AfterLockError runs when the lock was not obtained.
package gocronhooks

import (
	"context"
	"database/sql"
	"time"

	"github.com/go-co-op/gocron/v2"
	"github.com/google/uuid"
)

func hooksBad(locker gocron.Locker, db *sql.DB) error {
	s, err := gocron.NewScheduler(gocron.WithDistributedLocker(locker))
	if err != nil {
		return err
	}
	_, err = s.NewJob(gocron.DurationJob(time.Minute),
		gocron.NewTask(func() {}),
		gocron.WithEventListeners(
			gocron.BeforeJobRuns(func(id uuid.UUID, name string) {
				_, _ = db.ExecContext(context.Background(), "UPDATE runs SET started = 1 WHERE job = 'report'") // want `SQL write via db.ExecContext to runs under the gocron distributed locker is not fenced`
			}),
			gocron.AfterJobRuns(func(id uuid.UUID, name string) {
				_, _ = db.ExecContext(context.Background(), "UPDATE runs SET finished = 1 WHERE job = 'report'") // want `SQL write via db.ExecContext to runs under the gocron distributed locker is not fenced`
			}),
			gocron.AfterJobRunsWithError(func(id uuid.UUID, name string, err error) {
				_, _ = db.ExecContext(context.Background(), "UPDATE runs SET failed = 1 WHERE job = 'report'") // want `SQL write via db.ExecContext to runs under the gocron distributed locker is not fenced`
			}),
		),
	)
	return err
}

func hooksGood(locker gocron.Locker, db *sql.DB) error {
	s, err := gocron.NewScheduler(gocron.WithDistributedLocker(locker))
	if err != nil {
		return err
	}
	_, err = s.NewJob(gocron.DurationJob(time.Minute),
		gocron.NewTask(func() {}),
		gocron.WithEventListeners(
			gocron.AfterLockError(func(id uuid.UUID, name string, err error) {
				// ok: runs when the lock was not obtained, outside it
				_, _ = db.ExecContext(context.Background(), "UPDATE runs SET skipped = skipped + 1 WHERE job = 'report'")
			}),
		),
	)
	return err
}

func moreHooksBad(locker gocron.Locker, db *sql.DB) error {
	s, err := gocron.NewScheduler(gocron.WithDistributedLocker(locker))
	if err != nil {
		return err
	}
	_, err = s.NewJob(gocron.DurationJob(time.Minute),
		gocron.NewTask(func() {}),
		gocron.WithEventListeners(
			gocron.BeforeJobRunsSkipIfBeforeFuncErrors(func(id uuid.UUID, name string) error {
				_, err := db.ExecContext(context.Background(), "UPDATE runs SET claimed = 1 WHERE job = 'report'") // want `SQL write via db.ExecContext to runs under the gocron distributed locker is not fenced`
				return err
			}),
			gocron.AfterJobRunsWithPanic(func(id uuid.UUID, name string, recovered any) {
				_, _ = db.ExecContext(context.Background(), "UPDATE runs SET panicked = 1 WHERE job = 'report'") // want `SQL write via db.ExecContext to runs under the gocron distributed locker is not fenced`
			}),
		),
	)
	return err
}
