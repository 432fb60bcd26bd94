// Package releases: a release made through a closure, through the unlock
// func an acquire returned, or through another object that holds the lock
// ends the lock scope (issue 18 item 6), so a function that takes a lock
// and releases it is not an acquire wrapper and its callers hold nothing.
package releases

import (
	"context"
	"database/sql"
	"errors"
	"log"

	"go.etcd.io/etcd/client/v3/concurrency"
)

// saveDeferredClosure releases in a deferred closure.
func saveDeferredClosure(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) error {
	m := concurrency.NewMutex(s, "/locks/acct")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer func() { _ = m.Unlock(ctx) }()
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", id) // want `SQL write via db.ExecContext to accounts under the etcd mutex is not fenced`
	return err
}

// ok: saveDeferredClosure released its lock; its caller holds none
func AfterDeferredClosureGood(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) error {
	if err := saveDeferredClosure(ctx, s, db, id); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE audit SET seen = 1 WHERE id = $1", id)
	return err
}

// saveReleaseFunc releases through a local func value, on every path.
func saveReleaseFunc(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) error {
	m := concurrency.NewMutex(s, "/locks/acct")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	release := func(parent error) error {
		if err := m.Unlock(ctx); err != nil {
			return err
		}
		return parent
	}
	if _, err := db.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", id); err != nil { // want `SQL write via db.ExecContext to accounts under the etcd mutex is not fenced`
		return release(err)
	}
	if err := release(nil); err != nil {
		return err
	}
	// ok: written after the release
	_, err := db.ExecContext(ctx, "UPDATE audit SET seen = 1 WHERE id = $1", id)
	return err
}

// ok: saveReleaseFunc released its lock; its caller holds none
func AfterReleaseFuncGood(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) error {
	if err := saveReleaseFunc(ctx, s, db, id); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE audit SET seen = 2 WHERE id = $1", id)
	return err
}

// A closure that releases nothing does not end the scope.
func NotAReleaseBad(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) error {
	m := concurrency.NewMutex(s, "/locks/acct")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	done := func() { log.Println("debited", id) }
	done()
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", id) // want `SQL write via db.ExecContext to accounts under the etcd mutex is not fenced`
	return err
}

// take returns the unlock func of the lock it takes: it is an acquire
// wrapper, and calling the func it returns releases.
func take(ctx context.Context, s *concurrency.Session) (func(), error) {
	m := concurrency.NewMutex(s, "/locks/acct")
	if err := m.Lock(ctx); err != nil {
		return nil, err
	}
	return func() { _ = m.Unlock(ctx) }, nil
}

func ReturnedUnlock(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) error {
	unlock, err := take(ctx, s)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", id) // want `SQL write via db.ExecContext to accounts under the etcd mutex is not fenced`
	unlock()
	if err != nil {
		return err
	}
	// ok: written after the returned unlock func ran
	_, err = db.ExecContext(ctx, "UPDATE audit SET seen = 3 WHERE id = $1", id)
	return err
}

// saveDeferredUnlock defers the unlock func take returned.
func saveDeferredUnlock(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) error {
	unlock, err := take(ctx, s)
	if err != nil {
		return err
	}
	defer unlock()
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", id) // want `SQL write via db.ExecContext to accounts under the etcd mutex is not fenced`
	return err
}

// ok: saveDeferredUnlock released its lock; its caller holds none
func AfterDeferredUnlockGood(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) error {
	if err := saveDeferredUnlock(ctx, s, db, id); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE audit SET seen = 4 WHERE id = $1", id)
	return err
}

// saveJoinedUnlock calls the unlock func take returned inside a deferred
// closure that keeps its error (pressly/goose's provider: defer func() {
// retErr = multierr.Append(retErr, cleanup()) }()).
func saveJoinedUnlock(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) (retErr error) {
	unlock, err := take(ctx, s)
	if err != nil {
		return err
	}
	defer func() {
		unlock()
		retErr = errors.Join(retErr, errors.New("unlocked"))
	}()
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", id) // want `SQL write via db.ExecContext to accounts under the etcd mutex is not fenced`
	return err
}

// ok: saveJoinedUnlock released its lock; its caller holds none
func AfterJoinedUnlockGood(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) error {
	if err := saveJoinedUnlock(ctx, s, db, id); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE audit SET seen = 5 WHERE id = $1", id)
	return err
}

// saveMethodValue releases through a method value held in a variable.
func saveMethodValue(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) error {
	m := concurrency.NewMutex(s, "/locks/acct")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	unlock := m.Unlock
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", id) // want `SQL write via db.ExecContext to accounts under the etcd mutex is not fenced`
	if uerr := unlock(ctx); uerr != nil {
		return uerr
	}
	return err
}

// ok: saveMethodValue released its lock; its caller holds none
func AfterMethodValueGood(ctx context.Context, s *concurrency.Session, db *sql.DB, id string) error {
	if err := saveMethodValue(ctx, s, db, id); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE audit SET seen = 5 WHERE id = $1", id)
	return err
}
