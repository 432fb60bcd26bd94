package main

import (
	"bytes"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"honnef.co/go/tools/lintcmd/runner"
)

// fixSrc has one finding with a suggested fix (fencepredicate: a reversed
// fence comparison, line 12) and one without (unfencedwrite, line 23).
const fixSrc = `package fixtest

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

func credit(ctx context.Context, db *sql.DB, lease Lease, id string) error {
	_, err := db.ExecContext(ctx, "UPDATE acct SET bal = 0 WHERE id = $1", id)
	return err
}
`

var fixedSrc = strings.Replace(fixSrc, "AND fence > $3", "AND fence < $3", 1)

// fixModule writes a module with the given files and returns its directory.
func fixModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/fixtest\n\ngo 1.26.0\n"
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// goLogger puts a go wrapper first on PATH that logs each invocation's
// arguments to the returned file and runs the real go command.
func goLogger(t *testing.T) (env []string, log string) {
	t.Helper()
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	log = filepath.Join(bin, "go.log")
	script := "#!/bin/sh\necho \"$*\" >> " + log + "\nexec " + realGo + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH")), log
}

// TestFix runs fencelint -fix on a small module: the fencepredicate fix is
// applied, the unfencedwrite finding that has no fix is printed and makes
// the run exit 1, and go vet is not involved.
func TestFix(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fencelint")
	}
	bin := fencelintBinary(t)
	dir := fixModule(t, map[string]string{"fix.go": fixSrc})
	env, log := goLogger(t)

	for round := 1; round <= 2; round++ {
		stdout, stderr, code := run(t, dir, env, bin, "-fix", "./...")
		if code != exitFindings {
			t.Errorf("round %d: exit %d, want %d (a finding without a fix remains)\nstderr:\n%s", round, code, exitFindings, stderr)
		}
		got, err := os.ReadFile(filepath.Join(dir, "fix.go"))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != fixedSrc {
			t.Errorf("round %d: after -fix:\n%s\nwant:\n%s", round, got, fixedSrc)
		}
		if !strings.Contains(string(stdout), "fix.go:23:12: SQL write via db.ExecContext") || !strings.Contains(string(stdout), "(unfencedwrite)") {
			t.Errorf("round %d: stdout lacks the unfixed unfencedwrite finding:\n%s", round, stdout)
		}
		if strings.Contains(string(stdout), "fencepredicate") {
			t.Errorf("round %d: stdout still reports the fixed fencepredicate finding:\n%s", round, stdout)
		}
		want := "fencelint: -fix: applied 1 fix in 1 file; 1 finding left unfixed"
		if round == 2 {
			want = "fencelint: -fix: applied 0 fixes in 0 files; 1 finding left unfixed"
		}
		if !strings.Contains(string(stderr), want) {
			t.Errorf("round %d: stderr lacks %q:\n%s", round, want, stderr)
		}
	}
	calls, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(calls)) {
		if strings.HasPrefix(line, "vet") || strings.HasPrefix(line, "build") {
			t.Errorf("-fix ran go %s", strings.TrimSpace(line))
		}
	}

	t.Run("all-fixed", func(t *testing.T) {
		only := fixSrc[:strings.Index(fixSrc, "func credit")]
		dir := fixModule(t, map[string]string{"fix.go": only})
		stdout, stderr, code := run(t, dir, os.Environ(), bin, "-fix", "-f", "json", "./...")
		if code != exitClean || len(bytes.TrimSpace(stdout)) != 0 {
			t.Errorf("exit %d, want 0 and no findings; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
	})

	t.Run("no-lint-run", func(t *testing.T) {
		for _, args := range [][]string{{"-fix", "-f", "binary", "./..."}, {"-fix", "-merge"}} {
			_, stderr, code := run(t, dir, os.Environ(), bin, args...)
			if code != exitFailure || !strings.Contains(string(stderr), "-fix needs a lint run") {
				t.Errorf("%q: exit %d, want %d with a usage message\nstderr:\n%s", args, code, exitFailure, stderr)
			}
		}
	})

	t.Run("load-error", func(t *testing.T) {
		dir := fixModule(t, map[string]string{"fix.go": fixSrc, "bad.go": "package fixtest\n\nvar x int = \"x\"\n"})
		_, stderr, code := run(t, dir, os.Environ(), bin, "-fix", "./...")
		if code != exitFailure {
			t.Errorf("exit %d, want %d\nstderr:\n%s", code, exitFailure, stderr)
		}
		got, _ := os.ReadFile(filepath.Join(dir, "fix.go"))
		if string(got) != fixSrc {
			t.Errorf("-fix edited a package that did not type-check:\n%s", got)
		}
		if !strings.Contains(string(stderr), "applied no fix: packages did not load") {
			t.Errorf("stderr does not say why nothing was fixed:\n%s", stderr)
		}
	})
}

// TestApplyFixes checks which fixes applyFixes applies and which findings
// it keeps: overlapping, out-of-range and cgo fixes are kept as findings,
// a duplicate of an applied fix (another build configuration) is dropped.
func TestApplyFixes(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.go")
	src := "package a\n\nvar x = 1 + 2\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cgoFile := filepath.Join(dir, "c.go")
	if err := os.WriteFile(cgoFile, []byte("package a\n\nimport \"C\"\n\nvar y = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pos := func(f string, line, col int) token.Position {
		return token.Position{Filename: f, Line: line, Column: col}
	}
	fix := func(msg, f string, line, col, endCol int, text string) diagnostic {
		var d diagnostic
		d.Category, d.Message = "fake", msg
		d.Position = pos(f, line, col)
		d.SuggestedFixes = []runner.SuggestedFix{{TextEdits: []runner.TextEdit{{Position: pos(f, line, col), End: pos(f, line, endCol), NewText: []byte(text)}}}}
		return d
	}
	var plain diagnostic
	plain.Category, plain.Message = "fake", "no fix"
	results := []lintResult{
		{Diagnostics: []diagnostic{
			fix("one", file, 3, 9, 10, "10"),    // 1 -> 10
			fix("overlap", file, 3, 9, 14, "3"), // overlaps "one"
			fix("two", file, 3, 13, 14, "20"),   // 2 -> 20
			fix("outside", file, 9, 1, 2, "x"),  // no line 9
			fix("cgo", cgoFile, 5, 9, 10, "4"),  // file imports "C"
			plain,
		}},
		{Diagnostics: []diagnostic{fix("one", file, 3, 9, 10, "10")}}, // same fix, second build
	}
	var log bytes.Buffer
	out, err := applyFixes(&log, results)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	if want := "package a\n\nvar x = 10 + 20\n"; string(got) != want {
		t.Errorf("a.go = %q, want %q", got, want)
	}
	var left []string
	for _, r := range out {
		for _, d := range r.Diagnostics {
			left = append(left, d.Message)
		}
	}
	if strings.Join(left, ",") != "overlap,outside,cgo,no fix" {
		t.Errorf("findings left = %q, want overlap, outside, cgo, no fix", left)
	}
	for _, want := range []string{"overlaps another", "outside the file", `c.go imports "C"`, "applied 3 fixes in 1 file; 4 findings left unfixed"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}
