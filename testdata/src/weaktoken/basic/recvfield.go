package basic

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"go.etcd.io/etcd/client/v3/concurrency"
)

// A worker that takes its lock in Lock and keeps "the token" in a field
// for its other methods: the field is as strong as what Lock stores in it.

type clockWorker struct {
	sess  *concurrency.Session
	db    *sql.DB
	m     *concurrency.Mutex
	fence int64
}

func (w *clockWorker) Lock(ctx context.Context) error {
	w.m = concurrency.NewMutex(w.sess, "/locks/worker")
	if err := w.m.Lock(ctx); err != nil {
		return err
	}
	w.fence = time.Now().UnixNano()
	return nil
}

func (w *clockWorker) Unlock(ctx context.Context) error { return w.m.Unlock(ctx) }

func (w *clockWorker) Save(ctx context.Context, id, body string) error {
	res, err := w.db.ExecContext(ctx, "UPDATE docs SET body = $1, fence = $3 WHERE id = $2 AND fence < $3", body, id, w.fence) // want `w.fence is not a monotonic fencing token: wall-clock time`
	return checkRows(res, err)
}

type revWorker struct {
	sess  *concurrency.Session
	db    *sql.DB
	m     *concurrency.Mutex
	fence int64
}

func (w *revWorker) Lock(ctx context.Context) error {
	w.m = concurrency.NewMutex(w.sess, "/locks/worker")
	if err := w.m.Lock(ctx); err != nil {
		return err
	}
	w.fence = w.m.Header().Revision
	return nil
}

func (w *revWorker) Unlock(ctx context.Context) error { return w.m.Unlock(ctx) }

func (w *revWorker) Save(ctx context.Context, id, body string) error {
	// ok: the field holds the mutex's revision
	res, err := w.db.ExecContext(ctx, "UPDATE docs SET body = $1, fence = $3 WHERE id = $2 AND fence < $3", body, id, w.fence)
	return checkRows(res, err)
}

var errSuperseded = errors.New("superseded")

func checkRows(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errSuperseded
	}
	return nil
}
