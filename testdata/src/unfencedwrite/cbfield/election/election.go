// Package election is an application's own wrapper of client-go's leader
// election, as kube-vip's pkg/election is: its RunConfig carries the
// callbacks and RunOrDie hands them to leaderelection.
package election

import (
	"context"
	"database/sql"

	"k8s.io/client-go/tools/leaderelection"
)

// RunConfig is the application's election config.
type RunConfig struct {
	Name             string
	OnStartedLeading func(context.Context)
	OnStoppedLeading func()
	// Describe is a func field never registered as a callback.
	Describe func() string
}

// RunOrDie runs client-go's leader election with run's callbacks.
func RunOrDie(ctx context.Context, run *RunConfig) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Name: run.Name,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: run.OnStartedLeading,
			OnStoppedLeading: run.OnStoppedLeading,
		},
	})
}

// sameFileBad: a RunConfig filled in the package that declares it.
func sameFileBad(ctx context.Context, db *sql.DB) {
	RunOrDie(ctx, &RunConfig{
		Name: "jobs",
		OnStartedLeading: func(ctx context.Context) {
			_, _ = db.ExecContext(ctx, "UPDATE jobs SET leader = 'me' WHERE id = 1") // want `SQL write via db.ExecContext to jobs under the leader election \(OnStartedLeading\) is not fenced`
		},
	})
}
