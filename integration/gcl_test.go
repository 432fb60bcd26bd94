package integration

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzer"
)

// TestGolangciLint runs a custom golangci-lint v2 with fencelint's module
// plugins (cmd/gclplugin) on testdata/sample. Build the binary first and
// name it in FENCELINT_GCL:
//
//	bash .ci/gcl.sh "$DIR" && FENCELINT_GCL="$DIR/custom-gcl" go test -run GolangciLint -v ./integration/
//
// The test does not build golangci-lint itself: a cold build takes minutes
// and belongs to CI's cache-aware setup step, not to go test's timeout.
func TestGolangciLint(t *testing.T) {
	slow(t)
	bin := os.Getenv("FENCELINT_GCL")
	if bin == "" {
		needTool(t, "FENCELINT_GCL is not set: build with `bash .ci/gcl.sh DIR` and set FENCELINT_GCL=DIR/custom-gcl")
	}
	bin, err := filepath.Abs(bin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("FENCELINT_GCL: %v", err)
	}

	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "sample"), dir, nil)
	ledger := filepath.Join(dir, "ledger", "ledger.go")
	cfg := filepath.Join(dir, ".golangci.yml")
	// A private cache per test run: golangci-lint caches results per
	// package, and the plugin in the binary may have changed.
	env := []string{"GOLANGCI_LINT_CACHE=" + t.TempDir()}
	lint := func(t *testing.T, settings string) result {
		t.Helper()
		writeFile(t, dir, ".golangci.yml", gclConfig(settings))
		r := run(t, dir, env, bin, "run", "-c", cfg, "--output.json.path", "stdout", "--show-stats=false", "./...")
		t.Logf("%s run: exit %d in %v", filepath.Base(bin), r.code, r.took.Round(1e6))
		return r
	}

	t.Run("linters", func(t *testing.T) {
		writeFile(t, dir, ".golangci.yml", gclConfig(""))
		r := mustRun(t, dir, env, bin, "linters", "-c", cfg)
		for _, a := range analyzer.All {
			if !strings.Contains(r.stdout, a.Analyzer.Name+":") {
				t.Errorf("`linters` does not list %s:\n%s", a.Analyzer.Name, r.stdout)
			}
		}
	})

	t.Run("finding and nolint", func(t *testing.T) {
		r := lint(t, "")
		want := lineOf(t, ledger, "// finding: unfencedwrite")
		issues := parseIssues(t, r)
		if r.code != 1 || len(issues) != 1 {
			t.Fatalf("exit %d with %d fencelint issues, want exit 1 with the one on line %d (the //nolint:unfencedwrite copy suppressed):\n%s\nstderr:\n%s",
				r.code, len(issues), want, fmtIssues(issues), r.stderr)
		}
		got := issues[0]
		if got.FromLinter != "unfencedwrite" || got.Pos.Filename != "ledger/ledger.go" || got.Pos.Line != want ||
			!strings.Contains(got.Text, "is not fenced") {
			t.Errorf("issue %s, want unfencedwrite at ledger/ledger.go:%d with \"is not fenced\"", fmtIssues(issues), want)
		}
	})

	t.Run("without nolint both copies are reported", func(t *testing.T) {
		// Proves the suppression above is //nolint's doing.
		orig, err := os.ReadFile(ledger)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.WriteFile(ledger, orig, 0o644) })
		writeFile(t, dir, "ledger/ledger.go", strings.Replace(string(orig), "//nolint:unfencedwrite", "// was nolint", 1))
		r := lint(t, "")
		issues := parseIssues(t, r)
		if r.code != 1 || len(issues) != 2 {
			t.Fatalf("exit %d with issues %s, want exit 1 and 2 unfencedwrite issues\nstderr:\n%s", r.code, fmtIssues(issues), r.stderr)
		}
	})

	t.Run("uniq-by-line hides a second finding on the line", func(t *testing.T) {
		// A reversed fence whose result is discarded: fencepredicate (at
		// the SQL) and silentreject (at the call) on one line.
		writeFile(t, dir, "sameline/sameline.go", sameLine)
		t.Cleanup(func() { os.RemoveAll(filepath.Join(dir, "sameline")) })
		line := lineOf(t, filepath.Join(dir, "sameline", "sameline.go"), "fence_token > $3")
		onLine := func(issues []gclIssue) []gclIssue {
			var out []gclIssue
			for _, is := range issues {
				if is.Pos.Filename == "sameline/sameline.go" && is.Pos.Line == line {
					out = append(out, is)
				}
			}
			return out
		}
		r := lint(t, "")
		if got := onLine(parseIssues(t, r)); len(got) != 1 {
			t.Errorf("default config: %d issues on sameline.go:%d, want 1 (uniq-by-line keeps the first): %s", len(got), line, fmtIssues(got))
		}
		// As docs/golangci-lint.md writes it.
		writeFile(t, dir, ".golangci.yml", gclConfig("")+"issues:\n  uniq-by-line: false\n")
		r = run(t, dir, env, bin, "run", "-c", cfg, "--output.json.path", "stdout", "--show-stats=false", "./...")
		got := onLine(parseIssues(t, r))
		if len(got) != 2 || got[0].FromLinter == got[1].FromLinter {
			t.Errorf("uniq-by-line: false: issues on sameline.go:%d %s, want fencepredicate and silentreject", line, fmtIssues(got))
		}
	})

	t.Run("unknown settings key", func(t *testing.T) {
		r := lint(t, "bogus: true")
		if r.code == 0 || r.code == 1 || !strings.Contains(r.stderr, `unknown field "bogus"`) {
			t.Errorf("exit %d, want a failed run (not 0 or 1) naming the unknown field; stderr:\n%s", r.code, r.stderr)
		}
	})

	t.Run("flags setting", func(t *testing.T) {
		// The analyzers define no flags: a flags: map is an unknown key.
		r := lint(t, "flags:\n  nosuch: \"1\"")
		if r.code == 0 || r.code == 1 || !strings.Contains(r.stderr, `unknown field "flags"`) {
			t.Errorf("exit %d, want a failed run (not 0 or 1) naming the flags key; stderr:\n%s", r.code, r.stderr)
		}
	})

	t.Run("misspelt linter", func(t *testing.T) {
		// golangci-lint's own check, as docs/golangci-lint.md says: a
		// typo in enable fails the run instead of linting nothing.
		writeFile(t, dir, ".golangci.yml", strings.Replace(gclConfig(""), "    - unfencedwrite\n", "    - unfencedwrit\n", 1))
		r := run(t, dir, env, bin, "run", "-c", cfg, "./...")
		if r.code == 0 || r.code == 1 || !strings.Contains(r.stderr, "unknown linters: 'unfencedwrit'") {
			t.Errorf("exit %d, want a failed run naming the unknown linter; stderr:\n%s", r.code, r.stderr)
		}
	})
}

// sameLine has two findings of different analyzers on one line.
const sameLine = `package sameline

import (
	"context"
	"database/sql"
)

// Lease is lease-shaped: Token is its fencing token.
type Lease struct {
	Resource string
	Token    int64
}

func debitReversed(ctx context.Context, db *sql.DB, lease Lease, account string, amount int64) {
	_, _ = db.ExecContext(ctx, "UPDATE account_balances SET balance = balance - $1, fence_token = $3 WHERE account_id = $2 AND fence_token > $3", amount, account, lease.Token)
}
`

// gclConfig is a .golangci.yml enabling every fencelint analyzer and
// nothing else; settings (YAML, may be empty) go to unfencedwrite.
func gclConfig(settings string) string {
	var b strings.Builder
	b.WriteString("version: \"2\"\nlinters:\n  default: none\n  enable:\n")
	for _, a := range analyzer.All {
		fmt.Fprintf(&b, "    - %s\n", a.Analyzer.Name)
	}
	b.WriteString("  settings:\n    custom:\n")
	for _, a := range analyzer.All {
		fmt.Fprintf(&b, "      %s:\n        type: module\n        description: fencelint %s\n", a.Analyzer.Name, a.Analyzer.Name)
		if a.Analyzer.Name == "unfencedwrite" && settings != "" {
			b.WriteString("        settings:\n")
			for _, line := range strings.Split(settings, "\n") {
				b.WriteString("          " + line + "\n")
			}
		}
	}
	return b.String()
}

// gclIssue is the part of golangci-lint's JSON issue the test reads.
type gclIssue struct {
	FromLinter string
	Text       string
	Pos        struct {
		Filename     string
		Line, Column int
	}
}

// parseIssues decodes golangci-lint's JSON report and returns the issues
// of fencelint's linters.
func parseIssues(t *testing.T, r result) []gclIssue {
	t.Helper()
	var report struct{ Issues []gclIssue }
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil {
		t.Fatalf("golangci-lint JSON (exit %d): %v\nstdout:\n%s\nstderr:\n%s", r.code, err, r.stdout, r.stderr)
	}
	names := map[string]bool{}
	for _, a := range analyzer.All {
		names[a.Analyzer.Name] = true
	}
	var out []gclIssue
	for _, is := range report.Issues {
		if names[is.FromLinter] {
			out = append(out, is)
		}
	}
	return out
}

func fmtIssues(issues []gclIssue) string {
	var b strings.Builder
	b.WriteString("[")
	for i, is := range issues {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s:%d:%d: %s (%s)", is.Pos.Filename, is.Pos.Line, is.Pos.Column, is.Text, is.FromLinter)
	}
	b.WriteString("]")
	return b.String()
}
