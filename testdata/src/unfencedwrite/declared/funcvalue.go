package declared

import (
	"context"
	"database/sql"
)

// Config holds the write and the acquire as func values, as river's
// Config.Insert does: calls through the fields mean what the directives
// say.
type Config struct {
	// Insert writes a job, fenced by seq.
	Insert func(ctx context.Context, job string, seq int64) error //fencelint:write token=seq
	// Take takes the named lock and returns its fencing token.
	Take func(ctx context.Context, key string) (int64, error) //fencelint:acquire
	// Log is not declared: calls through it are nothing.
	Log func(ctx context.Context, msg string) error
}

func insertBad(ctx context.Context, cfg *Config, o *Office) error {
	t, err := o.Issue(ctx, "jobs")
	if err != nil {
		return err
	}
	defer t.Release(ctx)
	return cfg.Insert(ctx, "job", 7) // want `storage write via cfg.Insert under the lease Ticket from Issue is not fenced: no fencing token reaches Insert's fence parameter; compare the stored fence with the lease's Seq in the write itself$`
}

func insertGood(ctx context.Context, cfg *Config, o *Office) error {
	t, err := o.Issue(ctx, "jobs")
	if err != nil {
		return err
	}
	defer t.Release(ctx)
	// ok: the lease's token reaches the field's fence parameter
	return cfg.Insert(ctx, "job", int64(t.Seq))
}

func logGood(ctx context.Context, cfg *Config, o *Office) error {
	t, err := o.Issue(ctx, "jobs")
	if err != nil {
		return err
	}
	defer t.Release(ctx)
	// ok: an undeclared func field is not a write
	return cfg.Log(ctx, "x")
}

func takeBad(ctx context.Context, cfg Config, db *sql.DB, id string) error {
	tok, err := cfg.Take(ctx, "acct")
	if err != nil {
		return err
	}
	_ = tok
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", id) // want `under the lock acquired by Take is not fenced: its WHERE does not compare a fence column with the token; compare the stored fence with tok in the write itself$`
	return err
}

func takeGood(ctx context.Context, cfg Config, db *sql.DB, id string) error {
	tok, err := cfg.Take(ctx, "acct")
	if err != nil {
		return err
	}
	// ok: fenced with the token the field's acquire returned
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = 0, fence = $2 WHERE id = $1 AND fence < $2", id, tok)
	return err
}

// Publish holds the write in a package variable.
//
//fencelint:write
var Publish func(ctx context.Context, topic string, seq int64) error

//fencelint:holds token=seq
func publishBad(ctx context.Context, seq int64) error {
	return Publish(ctx, "jobs", 1) // want `storage write via Publish under the lock held in publishBad is not fenced: no fencing token is passed to Publish; compare the stored fence with seq in the write itself$`
}

//fencelint:holds token=seq
func publishGood(ctx context.Context, seq int64) error {
	// ok: the token is passed
	return Publish(ctx, "jobs", seq)
}
