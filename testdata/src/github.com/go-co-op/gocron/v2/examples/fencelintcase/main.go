// Command fencelintcase is an application inside gocron's own module, as
// gocron's examples/elector is: it is analysed like any user code, while
// the library's root package (its executor: the Locker.Lock and deferred
// Unlock around each run, the reflective calls of the task and listeners)
// is the library's bookkeeping and is not. Not a library stub: the stub
// check skips it (see caseDirs in analyzer/internal/fencetest).
package main

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/go-co-op/gocron/v2"
)

type elector struct{ leader bool }

func (e elector) IsLeader(context.Context) error {
	if e.leader {
		return nil
	}
	return errors.New("not leader")
}

func schedule(db *sql.DB) error {
	s, err := gocron.NewScheduler(gocron.WithDistributedElector(elector{leader: true}))
	if err != nil {
		return err
	}
	_, err = s.NewJob(gocron.DurationJob(time.Second), gocron.NewTask(func(ctx context.Context) {
		_, _ = db.ExecContext(ctx, "UPDATE counters SET n = n + 1 WHERE id = 1") // want `SQL write via db.ExecContext to counters under the gocron distributed locker is not fenced`
	}))
	return err
}

func main() { _ = schedule(nil) }
