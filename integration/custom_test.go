package integration

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gclVersion is the golangci-lint version docs/golangci-lint.md and
// .ci/gcl.sh build against.
const gclVersion = "v2.15.0"

// TestGolangciLintCustom builds a custom golangci-lint the way
// docs/golangci-lint.md tells users to, with `golangci-lint custom` and a
// .custom-gcl.yml whose plugin has `path:` to a fencelint checkout (this
// working tree), and lints testdata/sample with the result.
//
// `golangci-lint custom` always git-clones github.com/golangci/golangci-lint
// at the version tag; as the docs' offline recipe says, the clone is served
// from a local git repository made from the module proxy's copy, through
// git's url.<base>.insteadOf. The golangci-lint that runs `custom` is
// FENCELINT_GCL (any v2 binary has the subcommand). The build takes
// minutes: golangci-lint builds in a new temporary directory every time.
func TestGolangciLintCustom(t *testing.T) {
	slow(t)
	bin := os.Getenv("FENCELINT_GCL")
	if bin == "" {
		needTool(t, "FENCELINT_GCL is not set: build with `bash .ci/gcl.sh DIR` and set FENCELINT_GCL=DIR/custom-gcl")
	}
	if _, err := exec.LookPath("git"); err != nil {
		needTool(t, "git is not on PATH")
	}
	bin, err := filepath.Abs(bin)
	if err != nil {
		t.Fatal(err)
	}
	root := repoRoot(t)
	tmp := t.TempDir()
	gitEnv := []string{
		"GIT_AUTHOR_NAME=fencelint test", "GIT_AUTHOR_EMAIL=test@fencelint.invalid",
		"GIT_COMMITTER_NAME=fencelint test", "GIT_COMMITTER_EMAIL=test@fencelint.invalid",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + filepath.Join(tmp, "gitconfig"),
	}

	// The mirror of github.com/golangci/golangci-lint.git at the tag.
	r := mustRun(t, root, nil, "go", "mod", "download", "-json", "github.com/golangci/golangci-lint/v2@"+gclVersion)
	var mod struct{ Dir string }
	if err := json.Unmarshal([]byte(r.stdout), &mod); err != nil || mod.Dir == "" {
		t.Fatalf("go mod download golangci-lint: %v\n%s", err, r.stdout)
	}
	mirror := filepath.Join(tmp, "gcl-mirror")
	copyTree(t, mod.Dir, mirror, nil)
	for _, args := range [][]string{
		{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", gclVersion}, {"tag", gclVersion},
	} {
		mustRun(t, mirror, gitEnv, "git", append([]string{"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
	}

	// The consumer: the sample module with .custom-gcl.yml as the docs give it.
	dir := filepath.Join(tmp, "consumer")
	copyTree(t, filepath.Join("testdata", "sample"), dir, nil)
	writeFile(t, dir, ".custom-gcl.yml", customGCLYAML(root))
	env := append(gitEnv,
		"GIT_CONFIG_COUNT=1",
		"GIT_CONFIG_KEY_0=url.file://"+mirror+".insteadOf",
		"GIT_CONFIG_VALUE_0=https://github.com/golangci/golangci-lint.git",
	)
	r = run(t, dir, env, bin, "custom", "-v")
	t.Logf("golangci-lint custom: exit %d in %v", r.code, r.took.Round(1e6))
	if r.code != 0 {
		t.Fatalf("golangci-lint custom: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	custom := filepath.Join(dir, "bin", "custom-gcl")
	v := mustRun(t, dir, nil, custom, "version")
	if !strings.Contains(v.stdout+v.stderr, strings.TrimPrefix(gclVersion, "v")+"-custom-gcl") {
		t.Errorf("custom-gcl version = %q, want %s-custom-gcl-<hash>", strings.TrimSpace(v.stdout+v.stderr), gclVersion)
	}

	writeFile(t, dir, ".golangci.yml", gclConfig(""))
	r = run(t, dir, []string{"GOLANGCI_LINT_CACHE=" + t.TempDir()}, custom, "run", "--output.json.path", "stdout", "--show-stats=false", "./...")
	issues := parseIssues(t, r)
	want := lineOf(t, filepath.Join(dir, "ledger", "ledger.go"), "// finding: unfencedwrite")
	if r.code != 1 || len(issues) != 1 || issues[0].FromLinter != "unfencedwrite" || issues[0].Pos.Line != want {
		t.Fatalf("custom-gcl run: exit %d with issues %s, want exit 1 and the unfencedwrite issue at ledger/ledger.go:%d\nstderr:\n%s",
			r.code, fmtIssues(issues), want, r.stderr)
	}
}

// customGCLYAML is the .custom-gcl.yml of docs/golangci-lint.md, with
// path: pointing at checkout.
func customGCLYAML(checkout string) string {
	return `version: ` + gclVersion + `
name: custom-gcl
destination: ./bin
plugins:
  - module: github.com/fencelint/fencelint
    import: github.com/fencelint/fencelint/cmd/gclplugin
    path: ` + checkout + `
`
}
