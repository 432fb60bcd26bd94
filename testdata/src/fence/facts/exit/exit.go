// Package exit has nothing lock-related: the engine's fast path skips it
// and it gets no package fact, but its no-return wrappers are exported.
package exit

import (
	"log"
	"os"
	"testing"
)

// Fatal never returns.
func Fatal(v ...any) { // want Fatal:"noreturn"
	log.Print(v...)
	os.Exit(1)
}

// Check returns when err is nil: no fact.
func Check(err error) {
	if err != nil {
		Fatal(err)
	}
}

// Stop calls Fatal: a wrapper of a wrapper.
func Stop() { Fatal("stop") } // want Stop:"noreturn"

// Recovered panics into its own recover: it returns.
func Recovered() {
	defer func() { _ = recover() }()
	panic("x")
}

type T struct{}

// Die is a method that never returns.
func (T) Die() { panic("die") } // want Die:"noreturn"

func unexported() { os.Exit(3) } // want unexported:"noreturn"

// Fail stops a test through the testing.TB interface.
func Fail(tb testing.TB, err error) { // want Fail:"noreturn"
	tb.Helper()
	tb.Fatal(err)
}

// call through a func value: not known to end anything.
func viaValue(f func()) { f() }
