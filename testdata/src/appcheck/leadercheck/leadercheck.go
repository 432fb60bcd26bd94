// Package leadercheck: work gated on "am I the leader?" asked in Go, with
// the election running elsewhere. The leader that pauses after the check
// writes after a new leader was elected.
package leadercheck

import (
	"context"
	"database/sql"
	"errors"
	"sync/atomic"
)

type Elector interface {
	IsLeader(ctx context.Context) (bool, error)
	Run(ctx context.Context) error
}

type Worker struct {
	elector  Elector
	db       *sql.DB
	isLeader atomic.Bool
	amLeader bool
}

type User struct {
	Active bool
}

var errStale = errors.New("stale")

func (w *Worker) reportBad(ctx context.Context) error {
	ok, err := w.elector.IsLeader(ctx) // want `client-side lease check w.elector.IsLeader\(ctx\) guards the SQL write via w.db.ExecContext to reports: a paused holder passes it and writes anyway; the leadership checked by IsLeader\(\) gives no token to fence with`
	if err != nil || !ok {
		return err
	}
	_, err = w.db.ExecContext(ctx, `UPDATE reports SET runs = runs + 1 WHERE id = 1`)
	return err
}

// ok: the write compares a token it is given, in its own WHERE
func (w *Worker) reportGood(ctx context.Context, fenceToken int64) error {
	ok, err := w.elector.IsLeader(ctx)
	if err != nil || !ok {
		return err
	}
	res, err := w.db.ExecContext(ctx, `UPDATE reports SET runs = runs + 1, fence = $1 WHERE id = 1 AND fence < $1`, fenceToken)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	return nil
}

func (w *Worker) atomicFlagBad(ctx context.Context) error {
	if !w.isLeader.Load() { // want `in-memory ownership flag w.isLeader.Load\(\) guards the SQL write via w.db.ExecContext to jobs`
		return nil
	}
	_, err := w.db.ExecContext(ctx, `DELETE FROM jobs WHERE done`)
	return err
}

func (w *Worker) fieldFlagBad(ctx context.Context) error {
	if w.amLeader { // want `in-memory ownership flag w.amLeader guards the SQL write via w.db.ExecContext to jobs`
		_, err := w.db.ExecContext(ctx, `DELETE FROM jobs WHERE done`)
		return err
	}
	return nil
}

// ok: the write runs whether or not this process leads
func (w *Worker) notGatedGood(ctx context.Context) error {
	if w.isLeader.Load() {
		_, _ = w.db.ExecContext(ctx, `SELECT 1`)
	}
	_, err := w.db.ExecContext(ctx, `UPDATE heartbeats SET beats = beats + 1 WHERE id = 1`)
	return err
}

// ok: an active user is not leadership
func (w *Worker) activeUserGood(ctx context.Context, u *User) error {
	if !u.Active {
		return nil
	}
	_, err := w.db.ExecContext(ctx, `UPDATE users SET visits = visits + 1 WHERE id = 1`)
	return err
}
