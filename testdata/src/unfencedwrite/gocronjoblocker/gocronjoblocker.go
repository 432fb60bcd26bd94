// Package gocronjoblocker puts one gocron job under a distributed job
// locker: its task runs as a lock scope without a token.
package gocronjoblocker

import (
	"context"
	"database/sql"
	"time"

	"github.com/go-co-op/gocron/v2"
)

func lockedJobBad(s gocron.Scheduler, locker gocron.Locker, db *sql.DB) error {
	_, err := s.NewJob(gocron.DurationJob(time.Minute), gocron.NewTask(func(ctx context.Context) {
		_, _ = db.ExecContext(ctx, "UPDATE reports SET runs = runs + 1 WHERE id = 1") // want `SQL write via db.ExecContext to reports under the gocron distributed locker is not fenced: its WHERE does not compare a fence column with the token`
	}), gocron.WithDistributedJobLocker(locker))
	return err
}
