// Package gen writes a synthetic, lock-heavy Go module for fencelint's
// benchmarks: N functions spread over packages of PerPkg functions each,
// using database/sql and an in-house lease type (type Lease struct{Token
// int64 ...}, recognised by fencelint's lease heuristic), mixing fenced and
// unfenced writes, acquire/release, deferred releases, transactions,
// closures and goroutines, with-lock callbacks, cross-package write helpers
// (facts) and intra-package call chains. Nothing but the standard library is
// imported, so the module builds offline.
package gen

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// ModulePath is the generated module's path.
const ModulePath = "example.com/fencebench"

// Config says what to generate.
type Config struct {
	N        int // functions in the svc packages (not counting locks/ and store/)
	PerPkg   int // functions per package (default 500)
	PerFile  int // functions per file (default 100)
	GiantOps int // if > 0, add package giant/ with one function of GiantOps writes
}

// Templates is the number of function shapes; function i has shape i%Templates.
const Templates = 10

// Write generates the module into dir (created if needed) and returns the
// import paths of the generated svc packages.
func Write(dir string, c Config) ([]string, error) {
	if c.PerPkg <= 0 {
		c.PerPkg = 500
	}
	if c.PerFile <= 0 {
		c.PerFile = 100
	}
	files := map[string]string{
		"go.mod":         "module " + ModulePath + "\n\ngo 1.26\n",
		"locks/locks.go": locksSrc,
		"store/store.go": storeSrc,
	}
	if c.GiantOps > 0 {
		files["giant/giant.go"] = giantSrc(c.GiantOps)
	}
	var pkgs []string
	for start := 0; start < c.N; start += c.PerPkg {
		end := min(start+c.PerPkg, c.N)
		name := fmt.Sprintf("p%04d", start/c.PerPkg)
		pkgs = append(pkgs, ModulePath+"/svc/"+name)
		for fs := start; fs < end; fs += c.PerFile {
			fe := min(fs+c.PerFile, end)
			var b bytes.Buffer
			fmt.Fprintf(&b, "// Synthetic benchmark code written by fencelint bench/gen (deliberately\n// without a \"Code generated\" header: lintcmd hides findings in generated files).\n\npackage %s\n\n", name)
			b.WriteString("import (\n\t\"context\"\n\t\"database/sql\"\n\t\"errors\"\n\n\t\"" + ModulePath + "/locks\"\n\t\"" + ModulePath + "/store\"\n)\n\n")
			b.WriteString("var (\n\t_ = errors.New\n\t_ = store.Save\n\t_ locks.Lease\n\t_ context.Context\n\t_ *sql.DB\n)\n")
			for i := fs; i < fe; i++ {
				writeFunc(&b, i, start)
			}
			files[filepath.Join("svc", name, fmt.Sprintf("f%06d.go", fs))] = b.String()
		}
	}
	for rel, src := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			return nil, err
		}
	}
	return pkgs, nil
}

// Unfenced is the number of unfenced writes (expected unfencedwrite
// findings) among functions [0, n): shapes 1, 3 and 8 have one each.
func Unfenced(n int) int {
	c := 0
	for i := 0; i < n; i++ {
		switch i % Templates {
		case 1, 3, 8:
			c++
		}
	}
	return c
}

// writeFunc writes function i; pkgStart is the index of its package's first
// function (calls stay inside the package).
func writeFunc(b *bytes.Buffer, i, pkgStart int) {
	t := i % 50 // table suffix
	switch i % Templates {
	case 0: // lease parameter, fenced; calls the previous shape-0 function (a chain)
		fmt.Fprintf(b, "\nfunc F%d(ctx context.Context, db *sql.DB, lease *locks.Lease, id string, amt int64) error {\n", i)
		if i-Templates >= pkgStart {
			fmt.Fprintf(b, "\tif amt > 0 {\n\t\tif err := F%d(ctx, db, lease, id, amt-1); err != nil {\n\t\t\treturn err\n\t\t}\n\t}\n", i-Templates)
		}
		fmt.Fprintf(b, "\t_, err := db.ExecContext(ctx, \"UPDATE t%d SET balance = balance - $1, fence = $3 WHERE id = $2 AND fence < $3\", amt, id, lease.Token)\n\treturn err\n}\n", t)
	case 1: // lease parameter, unfenced
		fmt.Fprintf(b, "\nfunc F%d(ctx context.Context, db *sql.DB, lease locks.Lease, id string) error {\n", i)
		fmt.Fprintf(b, "\t_, err := db.ExecContext(ctx, \"UPDATE t%d SET state = 'x' WHERE id = $1\", id)\n\treturn err\n}\n", t)
	case 2: // acquire, deferred release, token through a local
		fmt.Fprintf(b, `
func F%d(ctx context.Context, l *locks.Locker, db *sql.DB, id string) error {
	lease, err := l.Acquire(ctx, "r%d/"+id)
	if err != nil {
		_, _ = db.ExecContext(ctx, "INSERT INTO lock_failures (id) VALUES ($1)", id)
		return err
	}
	defer l.Release(ctx, lease)
	tok := lease.Token
	_, err = db.ExecContext(ctx, "UPDATE t%d SET state = 'done', fence = ? WHERE id = ? AND fence < ?", tok, id, tok)
	return err
}
`, i, i, t)
	case 3: // acquire, unfenced write in a goroutine closure
		fmt.Fprintf(b, `
func F%d(ctx context.Context, l *locks.Locker, db *sql.DB, id string) error {
	lease, err := l.Acquire(ctx, id)
	if err != nil {
		return err
	}
	defer l.Release(ctx, lease)
	done := make(chan error, 1)
	go func() {
		_, err := db.ExecContext(ctx, "UPDATE t%d SET state = 'y' WHERE id = $1", id)
		done <- err
	}()
	return <-done
}
`, i, t)
	case 4: // transaction fenced by its first statement
		fmt.Fprintf(b, `
func F%d(ctx context.Context, db *sql.DB, lease *locks.Lease, from, to string, amt int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, "UPDATE t%d SET balance = balance - $1, fence = $3 WHERE id = $2 AND fence < $3", amt, from, lease.Token)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errors.New("superseded")
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO transfers (src, dst, amount) VALUES ($1, $2, $3)", from, to, amt); err != nil {
		return err
	}
	return tx.Commit()
}
`, i, t)
	case 5: // token parameter, fenced, and a fenced cross-package helper
		fmt.Fprintf(b, `
func F%d(ctx context.Context, db *sql.DB, id string, fencingToken int64) error {
	if _, err := db.ExecContext(ctx, "UPDATE t%d SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, fencingToken); err != nil {
		return err
	}
	return store.SaveAt(ctx, db, id, %d, fencingToken)
}
`, i, t, i)
	case 6: // loop and branches; writes before the acquire and after the release
		fmt.Fprintf(b, `
func F%d(ctx context.Context, l *locks.Locker, db *sql.DB, ids []string) error {
	for k, id := range ids {
		if _, err := db.ExecContext(ctx, "UPDATE t%d SET state = 'queued' WHERE id = $1", id); err != nil {
			return err
		}
		lease, err := l.Acquire(ctx, id)
		if err != nil {
			continue
		}
		switch {
		case k%%3 == 0:
			_, err = db.ExecContext(ctx, "UPDATE t%d SET n = n + 1, fence = $2 WHERE id = $1 AND fence <= $2", id, lease.Token)
		case k%%3 == 1:
			var v int64
			err = db.QueryRowContext(ctx, "SELECT n FROM t%d WHERE id = $1", id).Scan(&v)
		}
		_ = l.Release(ctx, lease)
		if err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, "UPDATE t%d SET state = 'idle' WHERE id = $1", id); err != nil {
			return err
		}
	}
	return nil
}
`, i, t, t, t, t)
	case 7: // with-lock helper callback, fenced
		fmt.Fprintf(b, `
func F%d(ctx context.Context, l *locks.Locker, db *sql.DB, id string) error {
	return l.WithLease(ctx, "w%d", func(ctx context.Context, lease *locks.Lease) error {
		_, err := db.ExecContext(ctx, "UPDATE t%d SET v = v + 1, fence = $2 WHERE id = $1 AND fence < $2", id, lease.Token)
		return err
	})
}
`, i, i, t)
	case 8: // unfenced cross-package write helper under an acquired lease
		fmt.Fprintf(b, `
func F%d(ctx context.Context, l *locks.Locker, db *sql.DB, id string) error {
	lease, err := l.Acquire(ctx, id)
	if err != nil {
		return err
	}
	defer l.Release(ctx, lease)
	if err := store.Save(ctx, db, id, %d); err != nil {
		return err
	}
	return store.SaveAt(ctx, db, id, %d, lease.Token)
}
`, i, i, i)
	case 9: // no lock at all: plain writes and reads
		fmt.Fprintf(b, `
func F%d(ctx context.Context, db *sql.DB, id string, op int) (int64, error) {
	var v int64
	switch op {
	case 0:
		_, err := db.ExecContext(ctx, "DELETE FROM t%d WHERE id = $1", id)
		return 0, err
	case 1:
		err := db.QueryRowContext(ctx, "SELECT v FROM t%d WHERE id = $1", id).Scan(&v)
		return v, err
	default:
		_, err := db.ExecContext(ctx, "INSERT INTO t%d (id, v) VALUES ($1, $2)", id, op)
		return int64(op), err
	}
}
`, i, t, t, t)
	}
}

// giantSrc is one function of ops fenced/unfenced writes under a lease
// parameter: far over the engine's SSA instruction budget.
func giantSrc(ops int) string {
	var b bytes.Buffer
	b.WriteString("// Synthetic benchmark code written by fencelint bench/gen (deliberately\n// without a \"Code generated\" header: lintcmd hides findings in generated files).\n\npackage giant\n\nimport (\n\t\"context\"\n\t\"database/sql\"\n\n\t\"" + ModulePath + "/locks\"\n)\n\n")
	b.WriteString("func Giant(ctx context.Context, db *sql.DB, lease *locks.Lease, id string, op int) error {\n\tvar err error\n\tswitch op {\n")
	for k := 0; k < ops; k++ {
		if k%2 == 0 {
			fmt.Fprintf(&b, "\tcase %d:\n\t\t_, err = db.ExecContext(ctx, \"UPDATE g%d SET v = v + 1, fence = $2 WHERE id = $1 AND fence < $2\", id, lease.Token)\n", k, k%50)
		} else {
			fmt.Fprintf(&b, "\tcase %d:\n\t\t_, err = db.ExecContext(ctx, \"UPDATE g%d SET v = v + 1 WHERE id = $1\", id)\n", k, k%50)
		}
	}
	b.WriteString("\t}\n\treturn err\n}\n")
	return b.String()
}

const locksSrc = `// Package locks is an in-house lease service.
package locks

import (
	"context"
	"database/sql"
	"time"
)

// Lease is lease-shaped: its name ends in Lease and it has an int64 Token.
type Lease struct {
	Resource  string
	Token     int64
	ExpiresAt time.Time
}

// Locker hands out leases stored in a database.
type Locker struct{ db *sql.DB }

// Acquire takes the lease on resource.
func (l *Locker) Acquire(ctx context.Context, resource string) (*Lease, error) {
	var tok int64
	err := l.db.QueryRowContext(ctx, "SELECT nextval('fence_seq')").Scan(&tok)
	if err != nil {
		return nil, err
	}
	return &Lease{Resource: resource, Token: tok, ExpiresAt: time.Now().Add(10 * time.Second)}, nil
}

// Release gives the lease up.
func (l *Locker) Release(ctx context.Context, lease *Lease) error { return nil }

// WithLease runs fn while holding the lease on resource.
func (l *Locker) WithLease(ctx context.Context, resource string, fn func(ctx context.Context, lease *Lease) error) error {
	lease, err := l.Acquire(ctx, resource)
	if err != nil {
		return err
	}
	defer l.Release(ctx, lease)
	return fn(ctx, lease)
}
`

const storeSrc = `// Package store holds write helpers shared by the services.
package store

import (
	"context"
	"database/sql"
)

// Save writes v without any fence.
func Save(ctx context.Context, db *sql.DB, id string, v int) error {
	_, err := db.ExecContext(ctx, "UPDATE kv SET v = $2 WHERE id = $1", id, v)
	return err
}

// SaveAt writes v fenced by fence.
func SaveAt(ctx context.Context, db *sql.DB, id string, v int, fence int64) error {
	_, err := db.ExecContext(ctx, "UPDATE kv SET v = $2, fence = $3 WHERE id = $1 AND fence < $3", id, v, fence)
	return err
}
`
