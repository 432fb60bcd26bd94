package libs

import (
	"context"
	"database/sql"

	coordinationv1 "k8s.io/api/coordination/v1"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// The Lease's transition counters are client-go leader election's
// tokens: read from the lock's record or from the Lease object.

func leaderRecordGood(ctx context.Context, db *sql.DB, lock *resourcelock.LeaseLock) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock: lock,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				rec, _, err := lock.Get(ctx)
				if err != nil {
					return
				}
				// ok: fenced with the record's LeaderTransitions
				_, _ = db.ExecContext(ctx, "UPDATE cluster SET leader_data = 'x', epoch = $1 WHERE id = 1 AND epoch < $1", rec.LeaderTransitions)
			},
		},
	})
}

func leaseObjectGood(ctx context.Context, db *sql.DB, lease *coordinationv1.Lease) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				// ok: fenced with the Lease's LeaseTransitions
				_, _ = db.ExecContext(ctx, "UPDATE cluster SET leader_data = 'x', epoch = $1 WHERE id = 1 AND epoch < $1", *lease.Spec.LeaseTransitions)
			},
		},
	})
}

func leaseObjectBad(ctx context.Context, db *sql.DB, lease *coordinationv1.Lease) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				// the holder identity is no token
				_, _ = db.ExecContext(ctx, "UPDATE cluster SET leader_data = 'x', owner = $1 WHERE id = 1", *lease.Spec.HolderIdentity) // want `SQL write via db.ExecContext to cluster under the leader election \(OnStartedLeading\) is not fenced: its WHERE does not compare a fence column with the token`
			},
		},
	})
}
