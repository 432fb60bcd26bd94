// Package noret: a call that never returns (os.Exit, log.Fatal, t.Fatal,
// or a wrapper of one, here or in another package) ends the path it is
// on, so a loop whose rejection branch calls one does not retry.
package noret

import (
	"context"
	"database/sql"
	"log"
	"os"
	"testing"
	"time"

	"silentreject/noret/die"
)

type Lease struct {
	Token     int64
	ExpiresAt time.Time
}

const beat = "UPDATE jobs SET seen = seen + 1, fence = $2 WHERE id = $1 AND fence <= $2"

func fatalGood(ctx context.Context, db *sql.DB, lease *Lease, id string) {
	for {
		// ok: a rejection ends the process: log.Fatalf does not return
		res, err := db.ExecContext(ctx, beat, id, lease.Token)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		if n, _ := res.RowsAffected(); n == 0 {
			log.Fatalf("job %s: superseded by a newer holder", id)
		}
		time.Sleep(10 * time.Second)
	}
}

func loggedBad(ctx context.Context, db *sql.DB, lease *Lease, id string) {
	for {
		res, err := db.ExecContext(ctx, beat, id, lease.Token) // want `fenced write via db.ExecContext is re-issued after the fence rejected it \(0 rows\)`
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		if n, _ := res.RowsAffected(); n == 0 {
			log.Printf("job %s: superseded by a newer holder", id)
		}
		time.Sleep(10 * time.Second)
	}
}

// fatal wraps os.Exit: it never returns.
func fatal(format string, args ...any) {
	log.Printf(format, args...)
	os.Exit(2)
}

// abort calls fatal: a wrapper of a wrapper.
func abort(id string) { fatal("job %s: superseded", id) }

func localWrapperGood(ctx context.Context, db *sql.DB, lease *Lease, id string) {
	for {
		// ok: fatal wraps os.Exit
		res, err := db.ExecContext(ctx, beat, id, lease.Token)
		if err != nil {
			continue
		}
		if n, _ := res.RowsAffected(); n == 0 {
			fatal("job %s: superseded", id)
		}
		time.Sleep(10 * time.Second)
	}
}

func wrapperChainGood(ctx context.Context, db *sql.DB, lease *Lease, id string) {
	for {
		// ok: abort calls fatal, which wraps os.Exit
		res, err := db.ExecContext(ctx, beat, id, lease.Token)
		if err != nil {
			continue
		}
		if n, _ := res.RowsAffected(); n == 0 {
			abort(id)
		}
		time.Sleep(10 * time.Second)
	}
}

func importedWrapperGood(ctx context.Context, db *sql.DB, lease *Lease, id string) {
	for {
		// ok: die.Now, in another package, exits
		res, err := db.ExecContext(ctx, beat, id, lease.Token)
		if err != nil {
			continue
		}
		if n, _ := res.RowsAffected(); n == 0 {
			die.Now("job %s: superseded", id)
		}
		time.Sleep(10 * time.Second)
	}
}

// warnOrExit returns when code is 0: not a no-return wrapper.
func warnOrExit(code int) {
	if code != 0 {
		os.Exit(code)
	}
	log.Print("carrying on")
}

func conditionalExitBad(ctx context.Context, db *sql.DB, lease *Lease, id string) {
	for {
		res, err := db.ExecContext(ctx, beat, id, lease.Token) // want `fenced write via db.ExecContext is re-issued after the fence rejected it`
		if err != nil {
			continue
		}
		if n, _ := res.RowsAffected(); n == 0 {
			warnOrExit(0)
		}
		time.Sleep(10 * time.Second)
	}
}

func importedReturningBad(ctx context.Context, db *sql.DB, lease *Lease, id string) {
	for {
		res, err := db.ExecContext(ctx, beat, id, lease.Token) // want `fenced write via db.ExecContext is re-issued after the fence rejected it`
		if err != nil {
			continue
		}
		if n, _ := res.RowsAffected(); n == 0 {
			die.Unless(err) // err is nil here: Unless returns
		}
		time.Sleep(10 * time.Second)
	}
}

// shout panics, but its deferred recover resumes the caller.
func shout(msg string) {
	defer func() { _ = recover() }()
	panic(msg)
}

func recoveredPanicBad(ctx context.Context, db *sql.DB, lease *Lease, id string) {
	for {
		res, err := db.ExecContext(ctx, beat, id, lease.Token) // want `fenced write via db.ExecContext is re-issued after the fence rejected it`
		if err != nil {
			continue
		}
		if n, _ := res.RowsAffected(); n == 0 {
			shout("superseded")
		}
		time.Sleep(10 * time.Second)
	}
}

// unreachable always panics: it never returns.
func unreachable(msg string) { panic(msg) }

func panicWrapperGood(ctx context.Context, db *sql.DB, lease *Lease, id string) {
	for {
		// ok: unreachable always panics
		res, err := db.ExecContext(ctx, beat, id, lease.Token)
		if err != nil {
			continue
		}
		if n, _ := res.RowsAffected(); n == 0 {
			unreachable("superseded")
		}
		time.Sleep(10 * time.Second)
	}
}

func testFatalGood(t *testing.T, ctx context.Context, db *sql.DB, lease *Lease, id string) {
	for i := 0; i < 3; i++ {
		// ok: t.Fatalf stops the test's goroutine
		res, err := db.ExecContext(ctx, beat, id, lease.Token)
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			t.Fatalf("job %s: superseded", id)
		}
	}
}

func testErrorBad(t *testing.T, ctx context.Context, db *sql.DB, lease *Lease, id string) {
	for i := 0; i < 3; i++ {
		res, err := db.ExecContext(ctx, beat, id, lease.Token) // want `fenced write via db.ExecContext is re-issued after the fence rejected it`
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			t.Errorf("job %s: superseded", id)
		}
	}
}

func tbFatalGood(tb testing.TB, ctx context.Context, db *sql.DB, lease *Lease, id string) {
	for i := 0; i < 3; i++ {
		// ok: tb.Fatalf, through the testing.TB interface, stops the test's goroutine
		res, err := db.ExecContext(ctx, beat, id, lease.Token)
		if err != nil {
			tb.Fatal(err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			tb.Fatalf("job %s: superseded", id)
		}
	}
}

func tbLogBad(tb testing.TB, ctx context.Context, db *sql.DB, lease *Lease, id string) {
	for i := 0; i < 3; i++ {
		res, err := db.ExecContext(ctx, beat, id, lease.Token) // want `fenced write via db.ExecContext is re-issued after the fence rejected it`
		if err != nil {
			tb.Fatal(err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			tb.Logf("job %s: superseded", id)
		}
	}
}
