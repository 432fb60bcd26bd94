// Package util holds an application's own runners: functions that run a
// func literal and return its error (golang-migrate's CasRestoreOnErr, a
// home-grown retry).
package util

import (
	"errors"
	"sync/atomic"
	"time"
)

var ErrLocked = errors.New("locked")

// CasRestoreOnErr runs f when lock moves from o to n, and moves it back
// when f fails.
func CasRestoreOnErr(lock *atomic.Bool, o, n bool, casErr error, f func() error) error {
	if !lock.CompareAndSwap(o, n) {
		return casErr
	}
	if err := f(); err != nil {
		lock.Store(o)
		return err
	}
	return nil
}

// Retry runs fn until it succeeds, at most n times.
func Retry(n int, fn func() error) error {
	var err error
	for i := 0; i < n; i++ {
		if err = fn(); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}
