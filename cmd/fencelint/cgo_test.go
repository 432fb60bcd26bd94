package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// cgoSrc is a package file that imports "C": one unfenced write (line 17),
// one suppressed by //fencelint:ignore (line 23) and one fenced write whose
// result is discarded (line 29).
const cgoSrc = `package cgot

// #include <stdlib.h>
import "C"

import (
	"context"
	"database/sql"
	"unsafe"
)

type Lease struct{ Token int64 }

func debit(ctx context.Context, db *sql.DB, lease Lease, id string) error {
	p := C.malloc(8)
	defer C.free(unsafe.Pointer(p))
	_, err := db.ExecContext(ctx, "UPDATE acct SET bal = 0 WHERE id = $1", id)
	return err
}

func credit(ctx context.Context, db *sql.DB, lease Lease, id string) error {
	//fencelint:ignore unfencedwrite reconciled by the nightly job
	_, err := db.ExecContext(ctx, "UPDATE acct SET bal = 1 WHERE id = $1", id)
	C.free(nil)
	return err
}

func fenced(ctx context.Context, db *sql.DB, lease Lease, id string) error {
	_, err := db.ExecContext(ctx, "UPDATE acct SET bal = 0, fence = $2 WHERE id = $1 AND fence < $2", id, lease.Token)
	return err
}
`

var cgoWant = map[finding]bool{
	{"w.go:17", "unfencedwrite"}: true,
	{"w.go:29", "silentreject"}:  true,
}

// cgoModule writes a module holding w.go (cgoSrc) and x.go, which imports
// net if withNet: net has cgo files of its own, which go vet lists as
// ignored, with cgo off, when it analyses net for facts.
func cgoModule(t *testing.T, withNet bool) string {
	t.Helper()
	dir := t.TempDir()
	x := "package cgot\n"
	if withNet {
		x += "\nimport _ \"net\"\n"
	}
	for name, body := range map[string]string{
		"go.mod": "module example.com/cgot\n\ngo 1.26.0\n",
		"w.go":   cgoSrc,
		"x.go":   x,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestCgoEndToEnd lints a file that imports "C" through the CLI and
// through go vet -a: cmd/cgo's translation carries a "Code generated"
// header, which once made every finding in such a file vanish. With cgo
// disabled both routes name the file they could not analyse on stderr.
func TestCgoEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fencelint and runs cgo")
	}
	cc, _ := exec.Command("go", "env", "CC").Output()
	if _, err := exec.LookPath(strings.Fields(string(cc) + " gcc")[0]); err != nil {
		t.Skipf("no C compiler: %v", err)
	}
	bin := fencelintBinary(t)
	dir := cgoModule(t, false)
	env := append(os.Environ(), "CGO_ENABLED=1")

	t.Run("cli", func(t *testing.T) {
		stdout, stderr, code := run(t, dir, env, bin, "-f", "json", "./...")
		got := map[finding][]string{}
		for _, d := range parseLintJSON(t, stdout) {
			pos, err := relLine(dir, d.Location.File, strconv.Itoa(d.Location.Line))
			if err != nil {
				t.Fatal(err)
			}
			got[finding{pos, d.Code}] = append(got[finding{pos, d.Code}], d.Message)
		}
		checkFindings(t, "fencelint on a cgo file", cgoWant, got)
		if code != exitFindings {
			t.Errorf("exit %d, want %d\nstderr:\n%s", code, exitFindings, stderr)
		}
	})
	t.Run("vet", func(t *testing.T) {
		stdout, stderr, code := run(t, dir, env, "go", "vet", "-a", "-vettool="+bin, "-json", "./...")
		if code != 0 {
			t.Fatalf("go vet exited %d:\n%s", code, stderr)
		}
		got, errs, err := parseVetJSON(bytes.NewReader(stdout), dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(errs) > 0 {
			t.Errorf("analyzer errors: %q", errs)
		}
		checkFindings(t, "go vet -a on a cgo file", cgoWant, got)
	})

	noCgo := append(os.Environ(), "CGO_ENABLED=0")
	dir = cgoModule(t, true)
	const warning = `w.go not analysed: it imports "C" and cgo is disabled`
	t.Run("cli-cgo-disabled", func(t *testing.T) {
		_, stderr, _ := run(t, dir, noCgo, bin, "./...")
		if !strings.Contains(string(stderr), "fencelint: "+warning) {
			t.Errorf("stderr does not name w.go:\n%s", stderr)
		}
		if n := strings.Count(string(stderr), "not analysed"); n != 1 {
			t.Errorf("stderr names %d files, want only w.go:\n%s", n, stderr)
		}
	})
	t.Run("vet-cgo-disabled", func(t *testing.T) {
		_, stderr, _ := run(t, dir, noCgo, "go", "vet", "-a", "-vettool="+bin, "./...")
		if !strings.Contains(string(stderr), warning) {
			t.Errorf("stderr does not name w.go:\n%s", stderr)
		}
		if n := strings.Count(string(stderr), "not analysed"); n != 1 {
			t.Errorf("stderr names %d files, want only w.go (not the dependencies' cgo files):\n%s", n, stderr)
		}
	})
}
