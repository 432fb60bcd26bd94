package declared

import (
	"context"
	"database/sql"
)

// Elector hands leadership over by a notification: the code that runs as
// leader takes no lock itself. Its term is the fencing token.
type Elector struct {
	db   *sql.DB
	term int64 //fencelint:token
}

// runLeader runs while e is the leader.
//
//fencelint:holds leadership
func (e *Elector) runLeader(ctx context.Context, id string) error {
	_, err := e.db.ExecContext(ctx, "UPDATE jobs SET state = 'discarded' WHERE id = $1", id) // want `SQL write via e.db.ExecContext to jobs under the leadership lock held in runLeader is not fenced: its WHERE does not compare a fence column with the token; compare the stored fence with e.term in the write itself$`
	return err
}

// runLeaderGood is runLeader's twin: the write compares the term.
//
//fencelint:holds leadership
func (e *Elector) runLeaderGood(ctx context.Context, id string) error {
	// ok: fenced by the receiver's token field
	_, err := e.db.ExecContext(ctx, "UPDATE jobs SET state = 'discarded', term = $2 WHERE id = $1 AND term <= $2", id, e.term)
	return err
}

// notLeader has no directive: it is not a scope, so its write is nobody's.
func (e *Elector) notLeader(ctx context.Context, id string) error {
	// ok: not under a lock fencelint knows of
	_, err := e.db.ExecContext(ctx, "UPDATE jobs SET state = 'x' WHERE id = $1", id)
	return err
}

// StateClient's caller holds the state lock across Lock(), Put() and
// Unlock(); the client itself has no token.
type StateClient struct{ db *sql.DB }

//fencelint:holds
func (c *StateClient) Put(ctx context.Context, data []byte) error {
	_, err := c.db.ExecContext(ctx, "UPDATE state SET data = $1 WHERE name = 'default'", data) // want `under the lock held in Put is not fenced: .*the lock held in Put gives no token to fence with: mint a counter .*; if the lock does hand out a token, pass it in and name it \(//fencelint:holds token=PARAM\) or mark the receiver's token field or method //fencelint:token; see https://`
	return err
}

// Get's twin of Put only reads.
//
//fencelint:holds
func (c *StateClient) Get(ctx context.Context) ([]byte, error) {
	var b []byte
	// ok: a read is not a write
	err := c.db.QueryRowContext(ctx, "SELECT data FROM state WHERE name = 'default'").Scan(&b)
	return b, err
}

// shardWork runs under a shard's ownership, with the shard's range ID as
// the token, passed in.
//
//fencelint:holds shard token=rangeID
func shardWork(ctx context.Context, db *sql.DB, shard string, rangeID int64) error {
	_, err := db.ExecContext(ctx, "UPDATE shards SET owner = 'me' WHERE id = $1", shard) // want `under the shard lock held in shardWork is not fenced: .*; compare the stored fence with rangeID in the write itself$`
	return err
}

//fencelint:holds shard token=rangeID
func shardWorkGood(ctx context.Context, db *sql.DB, shard string, rangeID int64) error {
	// ok: fenced by the token parameter
	_, err := db.ExecContext(ctx, "UPDATE shards SET owner = 'me', range_id = $2 WHERE id = $1 AND range_id <= $2", shard, rangeID)
	return err
}

// saveAt is fenced by whatever its caller passes as gen.
func (c *StateClient) saveAt(ctx context.Context, data []byte, gen int64) error {
	_, err := c.db.ExecContext(ctx, "UPDATE state SET data = $1, gen = $2 WHERE name = 'default' AND gen < $2", data, gen)
	return err
}

// PutAt's lock has no token, so the gen it passes on fences nothing: the
// message says the lock gives none, not that a token missed the helper.
//
//fencelint:holds
func (c *StateClient) PutAt(ctx context.Context, data []byte, gen int64) error {
	return c.saveAt(ctx, data, gen) // want `storage write via c.saveAt under the lock held in PutAt is not fenced: no fencing token reaches saveAt's fence parameter; the lock held in PutAt gives no token to fence with: mint a counter`
}

//fencelint:holds state token=gen
func (c *StateClient) PutAtGood(ctx context.Context, data []byte, gen int64) error {
	// ok: the held lock's token reaches the helper's fence parameter
	return c.saveAt(ctx, data, gen)
}
