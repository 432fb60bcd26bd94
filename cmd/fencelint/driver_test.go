package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/bench/gen"
)

// sameFindingsCodebase is a tree the standalone identity test lints, with
// the environment it needs: the codebases of the go vet driver's
// TestSameFindings (analyzer/internal/vetdriver), which checks the go vet
// route the same way.
type sameFindingsCodebase struct {
	name, dir string
	env       []string
	patterns  []string
	minLines  int // at least this many findings: the comparison is not vacuous
}

func sameFindingsCodebases(t *testing.T) []sameFindingsCodebase {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	n := 10000
	if s := os.Getenv("FENCELINT_TEST_GEN"); s != "" {
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	genDir := filepath.Join(t.TempDir(), "gen")
	if _, err := gen.Write(genDir, gen.Config{N: n}); err != nil {
		t.Fatal(err)
	}
	cbs := []sameFindingsCodebase{
		// testdata/src is a GOPATH tree with stubs of every library rules/ knows.
		{"testdata", filepath.Join(root, "testdata", "src"), []string{"GO111MODULE=off", "GOPATH=" + filepath.Join(root, "testdata"), "GOFLAGS="}, []string{"./..."}, 300},
		{"example", filepath.Join(root, "example"), []string{"GOFLAGS=-mod=mod"}, []string{"./..."}, 5},
		{fmt.Sprintf("gen%d", n), genDir, []string{"GOFLAGS="}, []string{"./..."}, n / 10},
	}
	if os.Getenv("FENCELINT_TEST_SOAK") == "1" {
		// The soak set: std and this module, where nothing may be reported.
		cbs = append(cbs, sameFindingsCodebase{"soak", root, []string{"GOFLAGS="}, []string{"std", "./..."}, 0})
	}
	return cbs
}

var driverStatsRE = regexp.MustCompile(`fencelint: fast path: (\d+) packages, (\d+) cached, (\d+) analysed, (\d+) never loaded`)

// driverStats runs the CLI with the driver's counts on and returns them
// with the output.
type driverStats struct{ packages, cached, analysed, irrelevant int }

func parseDriverStats(t *testing.T, stderr []byte) driverStats {
	t.Helper()
	m := driverStatsRE.FindSubmatch(stderr)
	if m == nil {
		t.Fatalf("the fast path did not run (no %s line):\n%s", driverDebugEnv, stderr)
	}
	n := func(i int) int { v, _ := strconv.Atoi(string(m[i])); return v }
	return driverStats{n(1), n(2), n(3), n(4)}
}

// TestStandaloneSameFindings lints every codebase with the fast path off
// (FENCELINT_FULL=1, and the -full flag: lintcmd's runner loads every
// package) and on (fencelint's driver), the driver first with an empty
// cache and then with the cache warm, and requires byte-identical -f json
// output and exit codes. FENCELINT_TEST_SOAK=1 adds std and this module;
// FENCELINT_TEST_GEN=N sets the generated module's size.
func TestStandaloneSameFindings(t *testing.T) {
	if testing.Short() {
		t.Skip("lints testdata, example/ (real etcd, AWS SDK) and gen10k four times each")
	}
	bin := fencelintBinary(t)
	for _, cb := range sameFindingsCodebases(t) {
		t.Run(cb.name, func(t *testing.T) {
			cacheDir := t.TempDir()
			env := func(extra ...string) []string {
				return append(append(os.Environ(), cb.env...), extra...)
			}
			args := append([]string{"-f", "json"}, cb.patterns...)

			refOut, refErr, refCode := run(t, cb.dir, env("STATICCHECK_CACHE="+filepath.Join(cacheDir, "full"), fullEnv+"=1"), bin, args...)
			if refCode != exitClean && refCode != exitFindings {
				t.Fatalf("full run exited %d:\n%s", refCode, refErr)
			}
			if n := bytes.Count(refOut, []byte("\n")); n < cb.minLines {
				t.Fatalf("full run printed %d findings, want at least %d:\n%s", n, cb.minLines, refOut)
			}

			// -full is FENCELINT_FULL=1.
			flagOut, flagErr, flagCode := run(t, cb.dir, env("STATICCHECK_CACHE="+filepath.Join(cacheDir, "full-flag")), bin, append([]string{"-full"}, args...)...)
			if flagCode != refCode || !bytes.Equal(flagOut, refOut) {
				t.Errorf("-full: exit %d, want %d; output differs from %s=1's:\n%s\nstderr:\n%s", flagCode, refCode, fullEnv, firstLineDiff(refOut, flagOut), flagErr)
			}
			if bytes.Contains(flagErr, []byte("fast path:")) {
				t.Errorf("-full ran the driver:\n%s", flagErr)
			}

			fast := filepath.Join(cacheDir, "fast")
			for _, pass := range []string{"cold", "warm"} {
				got, stderr, code := run(t, cb.dir, env("STATICCHECK_CACHE="+fast, driverDebugEnv+"=1"), bin, args...)
				if code != refCode {
					t.Errorf("fast path (%s cache): exit %d, want %d\n%s", pass, code, refCode, stderr)
				}
				if !bytes.Equal(got, refOut) {
					t.Errorf("fast path (%s cache): -f json output differs from the full run's:\n%s", pass, firstLineDiff(refOut, got))
				}
				st := parseDriverStats(t, stderr)
				t.Logf("fast path (%s cache): %+v", pass, st)
				switch {
				case pass == "cold" && (st.cached != 0 || st.irrelevant == 0):
					t.Errorf("cold cache: %+v; want nothing replayed and some package never loaded", st)
				case pass == "warm" && st.cached != st.packages:
					t.Errorf("warm cache: %+v; want every package replayed", st)
				}
			}
		})
	}
}

// firstLineDiff describes the first line where a and b differ.
func firstLineDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d (of %d and %d):\n  want %s\n  got  %s", i+1, len(al), len(bl), x, y)
		}
	}
	return "no line differs"
}

// driverModule writes a module with a relevant package (store: a lease
// type and a SQL write whose fence predicate is reversed, a fencepredicate
// finding), an irrelevant one (util) and one that imports both (app).
func driverModule(t *testing.T) string {
	t.Helper()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"store/store.go": `package store

import (
	"context"
	"database/sql"
	"errors"
)

type Lease struct{ Token int64 }

func Debit(ctx context.Context, db *sql.DB, lease Lease, id string, amt int64) error {
	res, err := db.ExecContext(ctx, "UPDATE acct SET bal = bal - $1, fence = $3 WHERE id = $2 AND fence > $3", amt, id, lease.Token)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errors.New("superseded")
	}
	return nil
}
`,
		"util/util.go": "package util\n\nimport \"strings\"\n\nfunc Upper(s string) string { return strings.ToUpper(s) }\n",
		"app/app.go": `package app

import (
	"context"
	"database/sql"

	"example.com/m/store"
	"example.com/m/util"
)

func Run(ctx context.Context, db *sql.DB, l store.Lease) error {
	return store.Debit(ctx, db, l, util.Upper("a"), 1)
}
`,
	}
	return writeModule(t, files)
}

// TestDriverCache: the driver's per-package cache replays a warm run
// without loading anything, and after one file changes re-analyses only
// what depends on it, with the output of a full run on the edited tree.
func TestDriverCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fencelint")
	}
	bin := fencelintBinary(t)
	dir := driverModule(t)
	cacheDir := t.TempDir()
	env := append(os.Environ(), "GOFLAGS=", "STATICCHECK_CACHE="+cacheDir, driverDebugEnv+"=1")
	full := func() ([]byte, int) {
		out, stderr, code := run(t, dir, append(os.Environ(), "GOFLAGS=", "STATICCHECK_CACHE="+t.TempDir(), fullEnv+"=1"), bin, "-f", "json", "./...")
		if code != exitClean && code != exitFindings {
			t.Fatalf("full run exited %d:\n%s", code, stderr)
		}
		return out, code
	}
	want, wantCode := full()
	if !bytes.Contains(want, []byte(`"code":"fencepredicate"`)) {
		t.Fatalf("full run did not find the reversed predicate:\n%s", want)
	}

	var cold driverStats
	for _, pass := range []string{"cold", "warm"} {
		got, stderr, code := run(t, dir, env, bin, "-f", "json", "./...")
		if code != wantCode || !bytes.Equal(got, want) {
			t.Errorf("%s: exit %d, want %d; output differs from the full run's:\n%s", pass, code, wantCode, firstLineDiff(want, got))
		}
		st := parseDriverStats(t, stderr)
		t.Logf("%s: %+v", pass, st)
		switch pass {
		case "cold":
			cold = st
			// store and app (and their test variants, none here) are
			// relevant; util and every std package are not.
			if st.cached != 0 || st.analysed != 2 || st.irrelevant != st.packages-2 {
				t.Errorf("cold: %+v; want store and app analysed, every other package never loaded", st)
			}
		case "warm":
			if st.cached != st.packages || st.analysed != 0 || st.irrelevant != 0 {
				t.Errorf("warm: %+v; want every package replayed", st)
			}
		}
	}

	// Fix the predicate: the finding goes, store and app (whose inputs
	// include store's export data) are analysed again, nothing else.
	file := filepath.Join(dir, "store", "store.go")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, bytes.Replace(src, []byte("fence > $3"), []byte("fence < $3"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	want, wantCode = full()
	if bytes.Contains(want, []byte(`"code":"fencepredicate"`)) {
		t.Fatalf("full run still finds the fixed predicate:\n%s", want)
	}
	got, stderr, code := run(t, dir, env, bin, "-f", "json", "./...")
	if code != wantCode || !bytes.Equal(got, want) {
		t.Errorf("after the edit: exit %d, want %d; output differs from the full run's:\n%s", code, wantCode, firstLineDiff(want, got))
	}
	st := parseDriverStats(t, stderr)
	t.Logf("after the edit: %+v", st)
	if st.packages != cold.packages || st.analysed != 2 || st.cached != st.packages-2 {
		t.Errorf("after the edit: %+v; want store and app analysed again, every other package replayed", st)
	}
}

// TestDriverLoadErrors: packages that do not load or type-check give the
// full path's diagnostics and exit code 2 (never a panic), whether the
// broken package is relevant (loaded from source) or one the driver never
// loads, and whether it is named or only a dependency.
func TestDriverLoadErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fencelint")
	}
	bin := fencelintBinary(t)
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string // in the text output
	}{
		{"type-error-relevant", map[string]string{
			"m.go": "package m\n\ntype Lease struct{ Token int64 }\n\nfunc F(l Lease) int { return \"x\" }\n",
		}, `cannot use "x"`},
		{"type-error-irrelevant", map[string]string{
			"m.go": "package m\n\nfunc F() int { return \"x\" }\n",
		}, `cannot use "x"`},
		{"syntax-error", map[string]string{
			"m.go": "package m\n\nfunc F() int { return 1\n",
		}, "(compile)"},
		{"missing-import", map[string]string{
			"m.go": "package m\n\nimport \"example.com/m/nothere\"\n\nvar _ = nothere.X\n",
		}, "nothere"},
		{"broken-dependency", map[string]string{
			"m.go":     "package m\n\nimport \"example.com/m/dep\"\n\ntype Lease struct{ Token int64 }\n\nvar _ = dep.X\n",
			"dep/d.go": "package dep\n\nvar X int = \"x\"\n",
		}, `cannot use "x"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.files["go.mod"] = "module example.com/m\n\ngo 1.26\n"
			for name, body := range tc.files {
				path := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, format := range []string{"text", "json"} {
				fullOut, _, fullCode := run(t, dir, append(os.Environ(), "GOFLAGS=", "STATICCHECK_CACHE="+t.TempDir(), fullEnv+"=1"), bin, "-f", format, "./...")
				got, stderr, code := run(t, dir, append(os.Environ(), "GOFLAGS=", "STATICCHECK_CACHE="+t.TempDir(), driverDebugEnv+"=1"), bin, "-f", format, "./...")
				if code != exitFailure || fullCode != exitFailure {
					t.Errorf("-f %s: exit %d (full path %d), want %d\n%s", format, code, fullCode, exitFailure, stderr)
				}
				if bytes.Contains(stderr, []byte("panic")) || bytes.Contains(stderr, []byte("goroutine ")) {
					t.Errorf("-f %s: the driver panicked:\n%s", format, stderr)
				}
				if !bytes.Equal(got, fullOut) {
					t.Errorf("-f %s: output differs from the full path's:\n%s", format, firstLineDiff(fullOut, got))
				}
				if format == "text" && !bytes.Contains(got, []byte(tc.want)) {
					t.Errorf("-f text: output lacks %q:\n%s", tc.want, got)
				}
			}
		})
	}
}

// noReturnModule is a module whose only fact-carrying package, logx, says
// nothing but that Die never returns: dies wraps it (and is loaded, to
// export its own wrapper's fact), quiet imports logx without calling Die
// (and is never loaded), and app's fenced write relies on dies.Fail
// ending the process in its zero-rows branch.
func noReturnModule(t *testing.T) string {
	t.Helper()
	files := map[string]string{
		"go.mod": "module example.com/nr\n\ngo 1.26\n",
		"logx/logx.go": `package logx

import (
	"fmt"
	"os"
)

func Die(msg string) {
	fmt.Println(msg)
	os.Exit(1)
}

func Info(msg string) { fmt.Println(msg) }
`,
		"dies/dies.go": `package dies

import "example.com/nr/logx"

func Fail(msg string) { logx.Die("fail: " + msg) }
`,
		"quiet/quiet.go": `package quiet

import "example.com/nr/logx"

func Note(msg string) { logx.Info("note: " + msg) }
`,
		"app/app.go": `package app

import (
	"context"
	"database/sql"
	"errors"

	"example.com/nr/dies"
	"example.com/nr/quiet"
)

type Lease struct{ Token int64 }

// Save's zero-rows branch ends the process: the loop never re-issues a
// write the fence rejected.
func Save(ctx context.Context, db *sql.DB, l Lease, id string) error {
	quiet.Note("saving")
	for i := 0; i < 3; i++ {
		res, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, l.Token)
		if err != nil {
			continue
		}
		if n, _ := res.RowsAffected(); n == 0 {
			dies.Fail("superseded")
			continue // never reached: were it, the loop would re-issue a rejected write
		}
		return nil
	}
	return errors.New("gave up")
}
`,
	}
	return writeModule(t, files)
}

// TestDriverNoReturnFacts: a NoReturn fact alone makes an importer worth
// loading only where the importer calls the function it is about. quiet
// imports logx (which has one) and is never loaded; dies calls logx.Die
// and is, so that app, whose silentreject verdict depends on dies.Fail
// never returning, gets the full run's output.
func TestDriverNoReturnFacts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fencelint")
	}
	bin := fencelintBinary(t)
	dir := noReturnModule(t)
	st := fullThenFast(t, bin, dir, func(want []byte, wantCode int) {
		if wantCode != exitClean && wantCode != exitFindings {
			t.Fatalf("full run exited %d", wantCode)
		}
		if bytes.Contains(want, []byte(`"code":"silentreject"`)) {
			t.Fatalf("full run reports the write as retried: dies.Fail's NoReturn fact was not used:\n%s", want)
		}
	})
	// logx (it calls os.Exit), dies (it calls logx.Die) and app (it uses
	// database/sql) are loaded; quiet and every std package are not.
	if st.analysed != 3 || st.irrelevant != st.packages-3 {
		t.Errorf("%+v; want logx, dies and app analysed, every other package never loaded", st)
	}
}

// fullThenFast lints dir with -f json twice, the full path first (its
// output and exit code handed to check) and then the fast path, requires
// the same output and exit code, and returns the fast path's counts.
func fullThenFast(t *testing.T, bin, dir string, check func(want []byte, wantCode int)) driverStats {
	t.Helper()
	want, _, wantCode := run(t, dir, append(os.Environ(), "GOFLAGS=", "STATICCHECK_CACHE="+t.TempDir(), fullEnv+"=1"), bin, "-f", "json", "./...")
	check(want, wantCode)
	got, stderr, code := run(t, dir, append(os.Environ(), "GOFLAGS=", "STATICCHECK_CACHE="+t.TempDir(), driverDebugEnv+"=1"), bin, "-f", "json", "./...")
	if code != wantCode || !bytes.Equal(got, want) {
		t.Errorf("exit %d, want %d; output differs from the full run's:\n%s", code, wantCode, firstLineDiff(want, got))
	}
	st := parseDriverStats(t, stderr)
	t.Logf("%+v", st)
	return st
}

// writeModule writes files (path relative to the module root: contents)
// into a new temporary directory and returns it.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// passOnModule writes a module where an implementation's ImplsFact
// reaches the package that calls the interface only through a package the
// driver never loads: impl's sqlStore writes unfenced; wire imports impl
// (whose facts make it relevant) and passes its ImplsFact on; cmd imports
// only wire, so the engine would not analyse it and the driver skips it,
// exporting the ImplsFact in its place (fence.PassOn); app calls
// base.Store.Save under a lock it declares it holds, which only that fact
// resolves.
func passOnModule(t *testing.T) string {
	t.Helper()
	files := map[string]string{
		"go.mod": "module example.com/org/m\n\ngo 1.26\n",
		"base/base.go": `package base

import "context"

type Store interface {
	Save(ctx context.Context, id string) error
}
`,
		"impl/impl.go": `package impl

import (
	"context"
	"database/sql"

	"example.com/org/m/base"
)

type sqlStore struct{ db *sql.DB }

func (s *sqlStore) Save(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE docs SET body = 'x' WHERE id = $1", id)
	return err
}

func New(db *sql.DB) base.Store { return &sqlStore{db} }
`,
		"wire/wire.go": `package wire

import (
	"database/sql"

	"example.com/org/m/base"
	"example.com/org/m/impl"
)

func Open(db *sql.DB) base.Store { return impl.New(db) }
`,
		"cmd/cmd.go": `package cmd

import (
	"example.com/org/m/base"
	"example.com/org/m/wire"
)

func Store() base.Store { return wire.Open(nil) }
`,
		"app/app.go": `package app

import (
	"context"

	"example.com/org/m/base"
	_ "example.com/org/m/cmd"
)

//fencelint:holds jobs token=tok
func Run(ctx context.Context, s base.Store, tok int64) error {
	return s.Save(ctx, "a")
}
`,
	}
	return writeModule(t, files)
}

// TestDriverPassOn: a package that imports nothing but ImplsFacts is
// never loaded, and the ImplsFact it would have passed on is exported in
// its place, so that the interface call above it is judged as in the
// full run.
func TestDriverPassOn(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fencelint")
	}
	bin := fencelintBinary(t)
	dir := passOnModule(t)
	st := fullThenFast(t, bin, dir, func(want []byte, wantCode int) {
		if wantCode != exitFindings || !bytes.Contains(want, []byte(`"code":"unfencedwrite"`)) || !bytes.Contains(want, []byte("app.go")) {
			t.Fatalf("full run (exit %d) does not report app's call of Save through the interface:\n%s", wantCode, want)
		}
	})
	// impl (database/sql), wire (impl's PackageFact) and app (a
	// directive) are loaded; base, cmd and every std package are not.
	if st.analysed != 3 || st.irrelevant != st.packages-3 {
		t.Errorf("%+v; want impl, wire and app analysed, every other package never loaded", st)
	}
}

// TestVetPassOn is TestDriverPassOn under go vet: cmd is skipped there
// too, and its vetx file must carry wire's ImplsFact (PassOn) for app's
// finding; the -json output must be the full path's.
func TestVetPassOn(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fencelint and runs go vet")
	}
	bin := fencelintBinary(t)
	dir := passOnModule(t)
	vet := func(extra ...string) []byte {
		env := append(os.Environ(), "GOFLAGS=", "GOCACHE="+t.TempDir()) // go vet's result cache would replay the other mode's run
		stdout, stderr, code := run(t, dir, append(env, extra...), "go", "vet", "-vettool="+bin, "-json", "./...")
		if code != 0 {
			t.Fatalf("go vet exited %d:\n%s", code, stderr)
		}
		return stdout
	}
	want := vet(fullEnv + "=1")
	if !bytes.Contains(want, []byte("storage write via s.Save")) {
		t.Fatalf("the full path does not report app's call of Save through the interface:\n%s", want)
	}
	if got := vet(); !bytes.Equal(got, want) {
		t.Errorf("go vet -json output differs from the full path's:\n%s", firstLineDiff(want, got))
	}
}
