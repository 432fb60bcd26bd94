package createlock

import (
	"context"
	"database/sql"
	"errors"

	"github.com/go-zookeeper/zk"
)

var errHeld = errors.New("held")

// ZKLock is a hand-rolled ZooKeeper lock: an ephemeral node that exists
// while its holder's session lives.
type ZKLock struct {
	conn *zk.Conn
	path string
}

func (l *ZKLock) Lock() error {
	_, err := l.conn.Create(l.path, []byte("me"), zk.FlagEphemeral, zk.WorldACL(zk.PermAll))
	if errors.Is(err, zk.ErrNodeExists) {
		return errHeld
	}
	return err
}

func (l *ZKLock) Unlock() error {
	return l.conn.Delete(l.path, -1)
}

func reportUnderZKLock(ctx context.Context, l *ZKLock, db *sql.DB) error {
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, err := db.ExecContext(ctx, `UPDATE reports SET done = true WHERE id = 1`) // want `SQL write via db.ExecContext to reports under the ZooKeeper lock object created by Lock is not fenced: its WHERE does not compare a fence column with the token; the ZooKeeper lock object created by Lock gives no token to fence with`
	return err
}

func afterZKUnlock(ctx context.Context, l *ZKLock, db *sql.DB) error {
	if err := l.Lock(); err != nil {
		return err
	}
	if err := l.Unlock(); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE reports SET seen = true WHERE id = 1`) // ok: after Unlock
	return err
}

// register creates an ephemeral node for membership: not a lock (its
// name says no acquire), so no scope.
func register(ctx context.Context, conn *zk.Conn, db *sql.DB, id string) error {
	if _, err := conn.Create("/members/"+id, nil, zk.FlagEphemeral, zk.WorldACL(zk.PermAll)); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE members SET up = true WHERE id = $1`, id) // ok: no lock is held here
	return err
}

// lockQueue creates the lock recipe's sequential node: the queue, not the
// lock itself.
func lockQueue(ctx context.Context, conn *zk.Conn, db *sql.DB) error {
	if _, err := conn.Create("/locks/q-", nil, zk.FlagEphemeral|zk.FlagSequence, zk.WorldACL(zk.PermAll)); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE jobs SET queued = true WHERE id = 1`) // ok: a queue node is not the lock
	return err
}
