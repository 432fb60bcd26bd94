package integration

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// needTool skips (or, with FENCELINT_INTEGRATION=require, fails) the test
// when a prerequisite is missing.
func needTool(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("FENCELINT_INTEGRATION") == "require" {
		t.Fatalf("FENCELINT_INTEGRATION=require: "+format, args...)
	}
	t.Skipf(format, args...)
}

// slow skips the test under -short.
func slow(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("integration test: skipped under -short")
	}
}

// result is one finished command.
type result struct {
	code           int
	stdout, stderr string
	took           time.Duration
}

// run runs name args in dir with env appended to the test's environment.
// A non-zero exit is a result, not an error; failing to start is fatal.
func run(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String(), took: time.Since(start)}
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
		}
		r.code = ee.ExitCode()
	}
	return r
}

// mustRun is run that fails the test on a non-zero exit.
func mustRun(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	r := run(t, dir, env, name, args...)
	if r.code != 0 {
		t.Fatalf("%s %s: exit %d\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r
}

// repoRoot is the fencelint module root (the parent of this directory).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("fencelint module root: %v", err)
	}
	return root
}

// copyTree copies the regular files under src for which keep(rel) is true
// into dst, keeping modes' executable bits.
func copyTree(t *testing.T, src, dst string, keep func(rel string, d fs.DirEntry) bool) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if rel != "." && keep != nil && !keep(rel, d) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		return copyFile(path, filepath.Join(dst, rel))
	})
	if err != nil {
		t.Fatal(err)
	}
}

func copyFile(src, dst string) error {
	info, err := os.Stat(src)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, info.Mode().Perm()|0o200)
}

// writeFile writes content to dir/rel, creating directories.
func writeFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	path := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// lineOf returns the 1-based line of the first line of file containing marker.
func lineOf(t *testing.T, file, marker string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, marker) {
			return i + 1
		}
	}
	t.Fatalf("%s: no line contains %q", file, marker)
	return 0
}
