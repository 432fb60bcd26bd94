package libs

import (
	"context"
	"database/sql"
	"time"

	"github.com/go-co-op/gocron/v2"
)

func scheduleBad(locker gocron.Locker, db *sql.DB) error {
	s, err := gocron.NewScheduler(gocron.WithDistributedLocker(locker))
	if err != nil {
		return err
	}
	_, err = s.NewJob(gocron.DurationJob(time.Minute), gocron.NewTask(func(ctx context.Context) {
		_, _ = db.ExecContext(ctx, "UPDATE reports SET runs = runs + 1 WHERE id = 1") // want `SQL write via db.ExecContext to reports under the gocron distributed locker is not fenced: its WHERE does not compare a fence column with the token; the gocron distributed locker gives no token to fence with: mint a counter in the same atomic step as the grant \(a Lua script that takes the lock and INCRs a counter, or a lock service with a revision or zxid: etcd, ZooKeeper\) and compare it in the write; see https://github.com/fencelint/fencelint/blob/main/docs/unfencedwrite.md#no-token$`
	}))
	return err
}
