package libs

import (
	"context"
	"database/sql"

	"k8s.io/client-go/tools/leaderelection"
)

// runAsLeader runs tasks as leader: its OnStartedLeading only forwards to
// the func parameter (stolostron/search-indexer's runLeaderElection).
func runAsLeader(ctx context.Context, tasks func(context.Context), onStop func()) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(c context.Context) { tasks(c) },
			OnStoppedLeading: onStop,
		},
	})
}

// runAsLeaderDirect registers the parameter itself.
func runAsLeaderDirect(ctx context.Context, tasks func(context.Context)) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{OnStartedLeading: tasks},
	})
}

func leaderForwardedBad(ctx context.Context, db *sql.DB) {
	runAsLeader(ctx, func(c context.Context) {
		_, _ = db.ExecContext(c, "DELETE FROM resources WHERE cluster = $1", "c1") // want `SQL write via db.ExecContext to resources under the lock held by runAsLeader is not fenced`
	}, func() {
		// ok: OnStoppedLeading is not a lock scope
		_, _ = db.ExecContext(context.Background(), "DELETE FROM resources WHERE cluster = $1", "c1")
	})
}

func leaderDirectBad(ctx context.Context, db *sql.DB) {
	runAsLeaderDirect(ctx, func(c context.Context) {
		_, _ = db.ExecContext(c, "UPDATE cluster SET leader_data = 'x' WHERE id = 1") // want `SQL write via db.ExecContext to cluster under the lock held by runAsLeaderDirect is not fenced`
	})
}

// onStop only ever runs after leadership is lost.
func runOnStop(ctx context.Context, onStop func()) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{OnStoppedLeading: func() { onStop() }},
	})
}

func leaderStoppedGood(ctx context.Context, db *sql.DB) {
	runOnStop(ctx, func() {
		// ok: runs when leadership is lost, not under it
		_, _ = db.ExecContext(context.Background(), "DELETE FROM resources WHERE cluster = $1", "c1")
	})
}
