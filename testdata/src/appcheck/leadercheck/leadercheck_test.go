package leadercheck

import (
	"context"
	"testing"
)

// ok: a test asks the fake elector and writes fixtures
func TestReport(t *testing.T) {
	w := &Worker{}
	ctx := context.Background()
	if ok, _ := w.elector.IsLeader(ctx); ok {
		_, _ = w.db.ExecContext(ctx, `DELETE FROM reports`)
	}
}
