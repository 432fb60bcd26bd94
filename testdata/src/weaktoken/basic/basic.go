// Package basic exercises weak token sources reaching token positions.
package basic

import (
	"context"
	"database/sql"
	"math/rand"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Lease is lease-shaped: its name ends in Lease and it has an int Token.
type Lease struct {
	Resource  string
	Token     int64
	ExpiresAt time.Time
}

func clockFenceBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	tok := time.Now().UnixNano() // want `time.Now\(\).UnixNano\(\) is not a monotonic fencing token: wall-clock time is not monotonic across hosts and can step backwards; it is used as the fence of SQL write via db.ExecContext`
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, tok)
	return err
}

func leaseFenceGood(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	// ok: the lease's own token
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, lease.Token)
	return err
}

func redislockBad(ctx context.Context, rc *redislock.Client, db *sql.DB, id string) error {
	lock, err := rc.Obtain(ctx, "docs/"+id, time.Minute, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	_, err = db.ExecContext(ctx, "UPDATE docs SET body = 'x', owner = $2 WHERE id = $1 AND owner < $2", id, lock.Token()) // want `lock.Token\(\) is not a monotonic fencing token: redislock's Token\(\) is 16 random bytes, not ordered across grants`
	return err
}

func redsyncBad(ctx context.Context, m *redsync.Mutex, pool *pgxpool.Pool, id string) error {
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.Unlock()
	_, err := pool.Exec(ctx, "UPDATE docs SET fence = $2 WHERE id = $1 AND fence < $2", id, m.Value()) // want `m.Value\(\) is not a monotonic fencing token: redsync's Value\(\) is 16 random bytes`
	return err
}

func uuidBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	_, err := db.ExecContext(ctx, "UPDATE docs SET fence = $2 WHERE id = $1 AND fence < $2", id, uuid.NewString()) // want `uuid.NewString\(\) is not a monotonic fencing token: a UUID is random`
	return err
}

func etcdRevisionGood(ctx context.Context, m *concurrency.Mutex, db *sql.DB, id string) error {
	// ok: a Raft revision is monotonic
	_, err := db.ExecContext(ctx, "UPDATE docs SET fence = $2 WHERE id = $1 AND fence < $2", id, m.Header().Revision)
	return err
}

type Locker struct {
	cli *clientv3.Client
	s   *concurrency.Session
	rdb *redis.Client
}

func (l *Locker) AcquireClockBad(ctx context.Context, res string) (*Lease, error) {
	return &Lease{Resource: res, Token: time.Now().UnixNano()}, nil // want `time.Now\(\).UnixNano\(\) is not a monotonic fencing token: .*; it is used as the token of lease Lease`
}

func (l *Locker) AcquireRevisionGood(ctx context.Context, m *concurrency.Mutex, res string) (*Lease, error) {
	if err := m.Lock(ctx); err != nil {
		return nil, err
	}
	// ok: the mutex's Raft revision
	return &Lease{Resource: res, Token: m.Header().Revision}, nil
}

func (l *Locker) AcquireLeaseIDBad(ctx context.Context, res string) (*Lease, error) {
	lease := &Lease{Resource: res}
	lease.Token = int64(l.s.Lease()) // want `l.s.Lease\(\) is not a monotonic fencing token: an etcd LeaseID is the member id plus a counter, not ordered across servers or restarts`
	return lease, nil
}

func (l *Locker) AcquireGrantBad(ctx context.Context, res string) (*Lease, error) {
	g, err := l.cli.Grant(ctx, 30)
	if err != nil {
		return nil, err
	}
	return &Lease{Resource: res, Token: int64(g.ID)}, nil // want `g.ID is not a monotonic fencing token: an etcd LeaseID`
}

const acquireLua = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', tonumber(ARGV[2])) then
  return redis.call('INCR', KEYS[2])
end
return 0`

func (l *Locker) AcquireIncrBad(ctx context.Context, res string) (*Lease, error) {
	tok, err := l.rdb.Eval(ctx, acquireLua, []string{res, res + ":fence"}, "me", 30000).Int64() // want `l.rdb.Eval's INCR result is not a monotonic fencing token: INCR is monotonic on one shard but can regress after an asynchronous failover`
	if err != nil || tok == 0 {
		return nil, err
	}
	return &Lease{Resource: res, Token: tok}, nil
}

const setLua = `return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`

func (l *Locker) AcquireScriptGood(ctx context.Context, res string, epoch int64) (*Lease, error) {
	if err := l.rdb.Eval(ctx, setLua, []string{res}, "me", 30000).Err(); err != nil {
		return nil, err
	}
	// ok: the epoch comes from the caller, not from the script
	return &Lease{Resource: res, Token: epoch}, nil
}

//fencelint:acquire
func acquireRandom(ctx context.Context, res string) (int64, error) {
	return rand.Int63(), nil // want `rand.Int63\(\) is not a monotonic fencing token: a random number is not ordered across grants; it is used as the token returned by acquire acquireRandom`
}

func ignored(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	//fencelint:ignore weaktoken single host, clock is monotonic here by construction
	tok := time.Now().UnixNano()
	_, err := db.ExecContext(ctx, "UPDATE docs SET fence = $2 WHERE id = $1 AND fence < $2", id, tok)
	return err
}

// mintClockBad mints its own token outside any lock scope and fences with
// it: the stored fence is compared with, and set to, a wall-clock reading.
func mintClockBad(ctx context.Context, db *sql.DB, id string) error {
	tok := time.Now().UnixNano() // want `time.Now\(\).UnixNano\(\) is not a monotonic fencing token: wall-clock time .*; it is used as the fence of SQL write via db.ExecContext`
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, tok)
	return err
}

func mintUUIDBad(ctx context.Context, db *sql.DB, id string) error {
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, rand.Int63()) // want `rand.Int63\(\) is not a monotonic fencing token: a random number`
	return err
}

// ok: outside a lock scope a clock compared but never recorded in that
// column is a time filter, not a fence
func mintedFilterGood(ctx context.Context, db *sql.DB, id string) error {
	cutoff := time.Now().Unix()
	_, err := db.ExecContext(ctx, "UPDATE docs SET state = 'stale' WHERE id = $1 AND updated_at < $2", id, cutoff)
	return err
}

// ok: the fence comes from the caller, who holds the lease
func passedFenceGood(ctx context.Context, db *sql.DB, id string, fence int64) error {
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, fence)
	return err
}
