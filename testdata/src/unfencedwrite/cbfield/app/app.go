// Package app fills the election wrapper's RunConfig: its OnStartedLeading
// runs as leader, like client-go's own field (a CallbackFieldFact of
// package election).
package app

import (
	"context"
	"database/sql"

	"unfencedwrite/cbfield/election"
)

func leaderBad(ctx context.Context, db *sql.DB) {
	run := &election.RunConfig{
		Name: "jobs",
		OnStartedLeading: func(ctx context.Context) {
			_, _ = db.ExecContext(ctx, "UPDATE jobs SET leader = 'me' WHERE id = 1") // want `SQL write via db.ExecContext to jobs under the leader election \(OnStartedLeading\) is not fenced`
		},
		OnStoppedLeading: func() {
			// ok: OnStoppedLeading is registered, but not as a lock callback
			_, _ = db.ExecContext(context.Background(), "UPDATE jobs SET leader = NULL WHERE id = 1")
		},
		Describe: func() string {
			// ok: never registered as a callback
			_, _ = db.ExecContext(context.Background(), "UPDATE jobs SET described = true WHERE id = 1")
			return "jobs"
		},
	}
	election.RunOrDie(ctx, run)
}

func leaderGood(ctx context.Context, db *sql.DB) {
	election.RunOrDie(ctx, &election.RunConfig{
		Name: "jobs",
		OnStartedLeading: func(ctx context.Context) {
			var epoch int64
			if err := db.QueryRowContext(ctx, "SELECT transitions FROM leases WHERE name = 'jobs'").Scan(&epoch); err != nil {
				return
			}
			// ok: the write compares a fence with a token
			_, _ = db.ExecContext(ctx, "UPDATE jobs SET leader = 'me', fence = $1 WHERE id = 1 AND fence < $1", Epoch(epoch))
		},
	})
}

// Epoch is the fencing token derived from the Lease's transitions.
//
//fencelint:token
func Epoch(transitions int64) int64 { return transitions }
