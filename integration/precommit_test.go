package integration

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreCommit runs the repository's .pre-commit-hooks.yaml through
// pre-commit, as a consumer repository would: the hook must fail on an
// unfenced write and pass once it is fenced. It tests the current working
// tree, uncommitted changes included: the tree is copied into a temporary
// git repository (a local clone, as docs/pre-commit.md has users point
// repo: at), and the consumer pins it by commit SHA (rev:), since fencelint
// has no release tag; pre-commit clones and builds it (`go install ./...`
// with the system Go; modules come from GOPROXY).
//
// Skipped unless pre-commit and git are on PATH (`bash .ci/precommit.sh`).
func TestPreCommit(t *testing.T) {
	slow(t)
	for _, tool := range []string{"pre-commit", "git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			needTool(t, "%s is not on PATH (bash .ci/precommit.sh installs pre-commit)", tool)
		}
	}
	root := repoRoot(t)
	tmp := t.TempDir()
	env := []string{
		"PRE_COMMIT_HOME=" + filepath.Join(tmp, "pre-commit-home"), // pre-commit's clones and envs
		"STATICCHECK_CACHE=" + filepath.Join(tmp, "fencelint-cache"),
		"GIT_AUTHOR_NAME=fencelint test", "GIT_AUTHOR_EMAIL=test@fencelint.invalid",
		"GIT_COMMITTER_NAME=fencelint test", "GIT_COMMITTER_EMAIL=test@fencelint.invalid",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + filepath.Join(tmp, "gitconfig"),
		// GOPROXY, GOFLAGS, GOCACHE and GOTOOLCHAIN come from the environment.
	}
	git := func(dir string, args ...string) {
		t.Helper()
		mustRun(t, dir, env, "git", append([]string{"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
	}

	// The hook repository: the working tree, committed.
	hook := filepath.Join(tmp, "hook")
	copyWorkTree(t, root, hook)
	if _, err := os.Stat(filepath.Join(hook, ".pre-commit-hooks.yaml")); err != nil {
		t.Fatalf("hook repository: %v", err)
	}
	git(hook, "init", "-q")
	git(hook, "add", "-A")
	git(hook, "commit", "-q", "-m", "fencelint working tree")
	sha := strings.TrimSpace(mustRun(t, hook, env, "git", "rev-parse", "HEAD").stdout)

	// The consumer repository.
	consumer := filepath.Join(tmp, "consumer")
	writeFile(t, consumer, "go.mod", "module example.com/consumer\n\ngo 1.26.0\n")
	writeFile(t, consumer, "billing/billing.go", billing(unfencedDebit))
	// As docs/pre-commit.md writes it: repo is the clone, rev its SHA.
	writeFile(t, consumer, ".pre-commit-config.yaml", "repos:\n"+
		"  - repo: ../hook\n"+ // relative to the consumer, where pre-commit runs
		"    rev: "+sha+"\n"+
		"    hooks:\n"+
		"      - id: fencelint\n")
	git(consumer, "init", "-q")
	git(consumer, "add", "-A")

	preCommit := func() result {
		t.Helper()
		r := run(t, consumer, env, "pre-commit", "run", "--all-files", "--color", "never")
		r.stdout += r.stderr
		return r
	}

	// First run: pre-commit clones the hook repo and installs fencelint.
	r := preCommit()
	t.Logf("unfenced: pre-commit exit %d in %v (includes installing the hook)", r.code, r.took.Round(1e6))
	if r.code != 1 || !strings.Contains(r.stdout, "is not fenced") || !strings.Contains(r.stdout, "(unfencedwrite)") ||
		!strings.Contains(r.stdout, "billing/billing.go:") {
		t.Fatalf("unfenced write: exit %d, want 1 with an unfencedwrite finding in billing/billing.go; output:\n%s", r.code, r.stdout)
	}
	// go install ./... in the hook repository installed fencelint alone.
	bins, _ := filepath.Glob(filepath.Join(tmp, "pre-commit-home", "repo*", "golangenv-*", "bin", "*"))
	var names []string
	for _, b := range bins {
		names = append(names, filepath.Base(b))
	}
	if len(names) != 1 || names[0] != "fencelint" {
		t.Errorf("the hook environment's bin holds %v, want only fencelint", names)
	}

	// Fence the write: the hook passes.
	writeFile(t, consumer, "billing/billing.go", billing(fencedDebit))
	git(consumer, "add", "-A")
	r = preCommit()
	t.Logf("fenced: pre-commit exit %d in %v (hook installed)", r.code, r.took.Round(1e6))
	if r.code != 0 || !strings.Contains(r.stdout, "Passed") {
		t.Fatalf("fenced write: exit %d, want 0 and Passed; output:\n%s", r.code, r.stdout)
	}
}

// The consumer's write, unfenced and fenced. The fenced one also checks
// RowsAffected: discarding the result of a fenced write is silentreject's
// finding (a rejected write would look like success).
const (
	unfencedDebit = `_, err := db.ExecContext(ctx, "UPDATE account_balances SET balance = balance - $1 WHERE account_id = $2", amount, account)
	return err`
	fencedDebit = `res, err := db.ExecContext(ctx, "UPDATE account_balances SET balance = balance - $1, fence_token = $3 WHERE account_id = $2 AND fence_token < $3", amount, account, lease.Token)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrFenced
	}
	return nil`
)

// billing is the consumer's package with the given debit body.
func billing(body string) string {
	return `// Package billing moves money while holding a lease on the account.
package billing

import (
	"context"
	"database/sql"
	"errors"
)

// ErrFenced reports a debit the fence rejected: a newer lease holder wrote.
var ErrFenced = errors.New("billing: debit rejected by fence")

// Lease is a lock grant; Token is its fencing token.
type Lease struct {
	Resource string
	Token    int64
}

// Debit takes amount from account; the caller holds lease on it.
func Debit(ctx context.Context, db *sql.DB, lease Lease, account string, amount int64) error {
	` + body + `
}
`
}

// copyWorkTree copies root's working tree to dst: tracked and untracked
// files that .gitignore does not exclude, never .git or tmp/. Outside a git
// checkout it copies everything but .git, tmp/ and bin/.
func copyWorkTree(t *testing.T, root, dst string) {
	t.Helper()
	skip := func(rel string) bool {
		first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
		return first == ".git" || first == "tmp" || first == "bin"
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Logf("git ls-files failed (%v): copying %s without it", err, root)
		copyTree(t, root, dst, func(rel string, d fs.DirEntry) bool { return !skip(rel) })
		return
	}
	n := 0
	for _, rel := range strings.Split(string(out), "\x00") {
		if rel == "" || skip(rel) {
			continue
		}
		src := filepath.Join(root, rel)
		if info, err := os.Lstat(src); err != nil || !info.Mode().IsRegular() {
			continue // deleted in the working tree, or not a file
		}
		if err := copyFile(src, filepath.Join(dst, rel)); err != nil {
			t.Fatal(err)
		}
		n++
	}
	t.Logf("hook repository: %d files from the working tree of %s", n, root)
}

// TestHookInstallsOnlyFencelint: pre-commit installs the hook with
// `go install ./...` at the repository root, so the only main package there
// must be cmd/fencelint (the bench tools carry the fencelintbench tag).
func TestHookInstallsOnlyFencelint(t *testing.T) {
	root := repoRoot(t)
	r := mustRun(t, root, nil, "go", "list", "-f", "{{if eq .Name \"main\"}}{{.ImportPath}}{{end}}", "./...")
	var mains []string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		if line != "" {
			mains = append(mains, line)
		}
	}
	if len(mains) != 1 || mains[0] != "github.com/fencelint/fencelint/cmd/fencelint" {
		t.Errorf("go install ./... would install %v, want only github.com/fencelint/fencelint/cmd/fencelint", mains)
	}
}
