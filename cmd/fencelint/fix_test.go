package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFix runs fencelint -fix on a small module and checks the edit
// fencepredicate suggests was applied.
func TestFix(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fencelint and runs go vet -fix")
	}
	bin := fencelintBinary(t)
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/fixtest\n\ngo 1.26.0\n")
	const before = `package fixtest

import (
	"context"
	"database/sql"
	"errors"
)

type Lease struct{ Token int64 }

func debit(ctx context.Context, db *sql.DB, lease Lease, id string, amt int64) error {
	res, err := db.ExecContext(ctx, "UPDATE acct SET bal = bal - $1, fence = $3 WHERE id = $2 AND fence > $3", amt, id, lease.Token)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errors.New("superseded")
	}
	return nil
}
`
	write("fix.go", before)
	_, stderr, code := run(t, dir, e2eEnv(), bin, "-fix", "./...")
	if code != 0 {
		t.Fatalf("fencelint -fix exited %d:\n%s", code, stderr)
	}
	got, err := os.ReadFile(filepath.Join(dir, "fix.go"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(before, "AND fence > $3", "AND fence < $3", 1)
	if string(got) != want {
		t.Errorf("after -fix:\n%s\nwant:\n%s", got, want)
	}
}
