package releases

import (
	"context"
	"database/sql"
)

// LockInfo describes a lock request.
type LockInfo struct{ Who string }

// Client is an in-house lock client taught by directives.
type Client struct{ table string }

// Lock takes the lock and returns its ID.
//
//fencelint:acquire
func (c *Client) Lock(info *LockInfo) (string, error) { return "", nil }

// Unlock releases the lock with that ID.
//
//fencelint:release
func (c *Client) Unlock(id string) error { return nil }

// Mgr wraps a Client; its Unlock releases the client's lock.
type Mgr struct {
	Client *Client
	db     *sql.DB
}

func (m *Mgr) Unlock(id string) error { return m.Client.Unlock(id) }

// initState takes the client's lock, writes, and releases it through the
// manager that holds the client, from a closure: the lock is released on
// every path, so initState is no acquire wrapper.
func initState(ctx context.Context, db *sql.DB, name string) (*Mgr, error) {
	client := &Client{table: name}
	mgr := &Mgr{Client: client, db: db}
	id, err := client.Lock(&LockInfo{Who: "init"})
	if err != nil {
		return nil, err
	}
	unlock := func(parent error) error {
		if err := mgr.Unlock(id); err != nil {
			return err
		}
		return parent
	}
	if _, err := db.ExecContext(ctx, "UPDATE states SET body = '' WHERE name = $1", name); err != nil { // want `SQL write via db.ExecContext to states under the lock acquired by Lock is not fenced`
		return nil, unlock(err)
	}
	if err := unlock(nil); err != nil {
		return nil, err
	}
	return mgr, nil
}

// ok: initState released its lock; a test that uses the manager it
// returns holds none
func UseStateGood(ctx context.Context, db *sql.DB) error {
	mgr, err := initState(ctx, db, "default")
	if err != nil {
		return err
	}
	_, err = mgr.db.ExecContext(ctx, "UPDATE states SET body = 'x' WHERE name = $1", "default")
	return err
}

// Other is an object that knows nothing of the client, but releases by ID.
type Other struct{}

//fencelint:release
func (o *Other) Unlock(id string) error { return nil }

func ReleaseByIDGood(ctx context.Context, db *sql.DB, o *Other) error {
	client := &Client{}
	id, err := client.Lock(&LockInfo{})
	if err != nil {
		return err
	}
	if err := o.Unlock(id); err != nil {
		return err
	}
	// ok: the lock with that ID was released, by another object
	_, err = db.ExecContext(ctx, "UPDATE states SET body = 'y' WHERE name = $1", "default")
	return err
}

// Another client's Unlock does not release this client's lock.
func OtherClientBad(ctx context.Context, db *sql.DB) error {
	c1, c2 := &Client{}, &Client{}
	if _, err := c1.Lock(&LockInfo{}); err != nil {
		return err
	}
	defer c1.Unlock("")
	_ = c2.Unlock("")
	_, err := db.ExecContext(ctx, "UPDATE states SET body = 'z' WHERE name = $1", "default") // want `SQL write via db.ExecContext to states under the lock acquired by Lock is not fenced`
	return err
}
