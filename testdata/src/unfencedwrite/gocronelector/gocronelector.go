// Package gocronelector puts a gocron scheduler under a distributed
// elector: its jobs run as lock scopes without a token.
package gocronelector

import (
	"context"
	"database/sql"
	"time"

	"github.com/go-co-op/gocron/v2"
)

func electedBad(elector gocron.Elector, db *sql.DB) error {
	s, err := gocron.NewScheduler(gocron.WithDistributedElector(elector))
	if err != nil {
		return err
	}
	_, err = s.NewJob(gocron.DurationJob(time.Minute), gocron.NewTask(func(ctx context.Context) {
		_, _ = db.ExecContext(ctx, "UPDATE reports SET runs = runs + 1 WHERE id = 1") // want `SQL write via db.ExecContext to reports under the gocron distributed locker is not fenced: its WHERE does not compare a fence column with the token`
	}))
	return err
}
