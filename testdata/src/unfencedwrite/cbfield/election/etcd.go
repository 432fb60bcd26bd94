package election

import (
	"context"
	"database/sql"

	"go.etcd.io/etcd/client/v3/concurrency"
)

// Callbacks are called by an etcd-based election (kube-vip's pkg/etcd).
type Callbacks struct {
	OnStartedLeading func(context.Context)
	OnNewLeader      func(string)
}

type member struct {
	election  *concurrency.Election
	callbacks Callbacks
}

// lead campaigns, then runs the callback as leader.
func (m *member) lead(ctx context.Context, id string) {
	if err := m.election.Campaign(ctx, id); err != nil {
		m.callbacks.OnNewLeader("unknown")
		return
	}
	defer m.election.Resign(ctx)
	m.callbacks.OnStartedLeading(ctx)
}

func runEtcd(ctx context.Context, s *concurrency.Session, db *sql.DB) {
	m := &member{election: concurrency.NewElection(s, "/leader"), callbacks: Callbacks{
		OnStartedLeading: func(ctx context.Context) {
			_, _ = db.ExecContext(ctx, "UPDATE jobs SET leader = 'me' WHERE id = 1") // want `SQL write via db.ExecContext to jobs under the etcd election is not fenced`
		},
		OnNewLeader: func(string) {
			// ok: called when the campaign failed, outside the lock
			_, _ = db.ExecContext(ctx, "UPDATE jobs SET observed = true WHERE id = 1")
		},
	}}
	m.lead(ctx, "me")
}
