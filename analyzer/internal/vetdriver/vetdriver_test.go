package vetdriver_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fencelint/fencelint/analyzer"
	"github.com/fencelint/fencelint/analyzer/internal/vetdriver"
	"github.com/fencelint/fencelint/bench/gen"
	"golang.org/x/tools/go/analysis/unitchecker"
)

// The test binary is also the vettool of the go vet runs these tests start:
// with modeEnv set it behaves as fencelint's old vet path (unitchecker) or
// its new one (this driver), and go vet's result cache is kept apart by
// saltEnv, mixed into each run's -V=full tool ID.
const (
	modeEnv = "VETDRIVER_TEST_MODE" // "unitchecker" or "driver"
	saltEnv = "VETDRIVER_TEST_SALT"
)

func TestMain(m *testing.M) {
	switch os.Getenv(modeEnv) {
	case "unitchecker":
		if slices.Contains(os.Args[1:], "-V=full") {
			// unitchecker would hash the executable, which the driver's
			// runs share: salt its ID too.
			exe, _ := os.Executable()
			fmt.Printf("%s version devel comments-go-here buildID=%x\n", exe, sha256.Sum256([]byte("unitchecker "+os.Getenv(saltEnv))))
			os.Exit(0)
		}
		unitchecker.Main(analyzer.Analyzers()...)
	case "driver":
		vetdriver.SetVersionSalt(os.Getenv(saltEnv))
		analyzer.VetMain()
	}
	os.Exit(m.Run())
}

func self(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// tool runs the test binary as the vettool in mode, with extra env.
func tool(t *testing.T, mode string, env []string, args ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	cmd := exec.Command(self(t), args...)
	cmd.Env = append(os.Environ(), append([]string{modeEnv + "=" + mode}, env...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), errb.Bytes(), code
}

// TestFlags: go vet learns the tool's flags from -flags and passes through
// only those; the driver must describe exactly unitchecker's. The test
// binary's own -test.* flags, which unitchecker lists because it uses the
// global flag set, are taken out of its answer.
func TestFlags(t *testing.T) {
	want, _, code := tool(t, "unitchecker", nil, "-flags")
	if code != 0 {
		t.Fatalf("unitchecker -flags exited %d", code)
	}
	var flags []struct {
		Name  string
		Bool  bool
		Usage string
	}
	if err := json.Unmarshal(want, &flags); err != nil {
		t.Fatal(err)
	}
	flags = slices.DeleteFunc(flags, func(f struct {
		Name  string
		Bool  bool
		Usage string
	}) bool {
		return strings.HasPrefix(f.Name, "test.")
	})
	want, _ = json.MarshalIndent(flags, "", "\t")
	got, _, code := tool(t, "driver", nil, "-flags")
	if code != 0 {
		t.Fatalf("driver -flags exited %d", code)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("-flags:\n%s\nwant (unitchecker's):\n%s", got, want)
	}
	for _, a := range analyzer.Analyzers() {
		if !bytes.Contains(got, []byte(strconv.Quote(a.Name))) {
			t.Errorf("-flags does not list -%s", a.Name)
		}
	}
}

// TestVersion: -V=full is go vet's cache key. It must have the shape cmd/go
// parses, hash the executable, and differ with the fast path off.
func TestVersion(t *testing.T) {
	re := regexp.MustCompile(`^(\S+) version devel comments-go-here buildID=([0-9a-f]{64})\n$`)
	fast, _, _ := tool(t, "driver", nil, "-V=full")
	m := re.FindSubmatch(fast)
	if m == nil {
		t.Fatalf("-V=full printed %q", fast)
	}
	if string(m[1]) != self(t) {
		t.Errorf("-V=full names %s, want the executable %s", m[1], self(t))
	}
	data, err := os.ReadFile(self(t))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%x", sha256.Sum256(data)); string(m[2]) != want {
		t.Errorf("-V=full build ID %s, want the executable's hash %s", m[2], want)
	}
	full, _, _ := tool(t, "driver", []string{vetdriver.FullEnv + "=1"}, "-V=full")
	if mf := re.FindSubmatch(full); mf == nil || bytes.Equal(mf[2], m[2]) {
		t.Errorf("with %s=1, -V=full printed %q; want another build ID than %s", vetdriver.FullEnv, full, m[2])
	}
	salted, _, _ := tool(t, "driver", []string{saltEnv + "=x"}, "-V=full")
	if bytes.Equal(salted, fast) {
		t.Errorf("the test salt does not change -V=full")
	}
}

// vet runs go vet -vettool=<this test binary> in dir, the vettool in
// mode, with a fresh tool ID: no result of an earlier run can be replayed.
func vet(t *testing.T, dir, mode string, env []string, args ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"vet", "-vettool=" + self(t)}, args...)...)
	cmd.Dir = dir
	salt := fmt.Sprintf("%s-%d", mode, time.Now().UnixNano())
	cmd.Env = append(os.Environ(), append([]string{modeEnv + "=" + mode, saltEnv + "=" + salt}, env...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	t.Logf("%s: go vet %s (%s %s): %v", dir, strings.Join(args, " "), mode, strings.Join(env, " "), time.Since(start).Round(time.Millisecond))
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), errb.Bytes(), code
}

// units splits go vet -json output, one JSON object per package in the
// order packages finished, into the objects' bytes, sorted.
func units(t *testing.T, data []byte) []string {
	t.Helper()
	var out []string
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go vet -json output: %v\n%s", err, data)
		}
		out = append(out, string(raw))
	}
	slices.Sort(out)
	return out
}

// codebase is a tree go vet runs on, with the environment it needs.
type codebase struct {
	name, dir string
	env       []string
	minDiags  int      // at least this many diagnostics: the comparison is not vacuous
	patterns  []string // default ./...
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func codebases(t *testing.T) []codebase {
	root := repoRoot(t)
	n := 10000
	if s := os.Getenv("VETDRIVER_TEST_GEN"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	genDir := filepath.Join(t.TempDir(), "gen")
	if _, err := gen.Write(genDir, gen.Config{N: n}); err != nil {
		t.Fatal(err)
	}
	cbs := []codebase{
		// testdata/src is a GOPATH tree (analysistest's layout), with stubs
		// of every library rules/ knows.
		{"testdata", filepath.Join(root, "testdata", "src"), []string{"GO111MODULE=off", "GOPATH=" + filepath.Join(root, "testdata"), "GOFLAGS="}, 300, nil},
		// example/ requires the real etcd, pgx, AWS SDK and go-redis.
		{"example", filepath.Join(root, "example"), []string{"GOFLAGS=-mod=mod"}, 10, nil},
		{fmt.Sprintf("gen%d", n), genDir, []string{"GOFLAGS="}, n / 10, nil},
	}
	if os.Getenv("VETDRIVER_TEST_SOAK") == "1" {
		// The soak set: std and this module (x/tools, staticcheck, pgx as
		// dependencies), where nothing may be reported; what is compared is
		// every package's {} and the facts that lead there.
		cbs = append(cbs, codebase{"soak", root, []string{"GOFLAGS="}, 0, []string{"std", "./..."}})
	}
	return cbs
}

// TestSameFindings runs go vet -json over every codebase three times
// (VETDRIVER_TEST_SOAK=1 adds std and this module; VETDRIVER_TEST_GEN=N
// sets the size of the generated module, default 10000):
// with unitchecker (fencelint's previous vet path), with this driver, and
// with this driver's fast path off. The per-package outputs must be
// byte-identical.
func TestSameFindings(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet over testdata, example/ (real etcd, AWS SDK) and gen10k, three times each")
	}
	for _, cb := range codebases(t) {
		t.Run(cb.name, func(t *testing.T) {
			var ref []string
			for _, m := range []struct {
				name, mode string
				env        []string
			}{
				{"unitchecker", "unitchecker", nil},
				{"driver", "driver", nil},
				{"driver " + vetdriver.FullEnv + "=1", "driver", []string{vetdriver.FullEnv + "=1"}},
			} {
				patterns := cb.patterns
				if patterns == nil {
					patterns = []string{"./..."}
				}
				stdout, stderr, code := vet(t, cb.dir, m.mode, append(slices.Clip(cb.env), m.env...), append([]string{"-json"}, patterns...)...)
				if code != 0 {
					t.Fatalf("%s: go vet -json exited %d:\n%s", m.name, code, stderr)
				}
				got := units(t, stdout)
				if ref == nil {
					ref = got
					if n := bytes.Count(stdout, []byte(`"posn"`)); n < cb.minDiags {
						t.Fatalf("unitchecker reported %d positions, want at least %d:\n%s", n, cb.minDiags, stdout)
					}
					continue
				}
				if !slices.Equal(got, ref) {
					t.Errorf("%s: -json output differs from unitchecker's:\n%s", m.name, firstDiff(ref, got))
				}
			}
		})
	}
}

// TestTextOutput: without -json go vet prints the tool's stderr and fails
// when there are findings; the driver's text (here with -c=1 context
// lines) and exit code must be unitchecker's.
func TestTextOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	root := repoRoot(t)
	env := []string{"GO111MODULE=off", "GOPATH=" + filepath.Join(root, "testdata"), "GOFLAGS="}
	dir := filepath.Join(root, "testdata", "src")
	pkgs := []string{"-c=1", "./unfencedwrite/...", "./fencepredicate/...", "./appcheck/..."}
	_, want, wantCode := vet(t, dir, "unitchecker", env, pkgs...)
	_, got, gotCode := vet(t, dir, "driver", env, pkgs...)
	if wantCode != 1 || gotCode != wantCode {
		t.Errorf("exit codes: driver %d, unitchecker %d; want 1 for both", gotCode, wantCode)
	}
	sortLines := func(b []byte) []string {
		// go vet prints packages as they finish, and a # header per package.
		ls := strings.Split(strings.TrimSpace(string(b)), "\n")
		slices.Sort(ls)
		return ls
	}
	w, g := sortLines(want), sortLines(got)
	if len(w) < 50 {
		t.Fatalf("unitchecker printed only %d lines:\n%s", len(w), want)
	}
	if !slices.Equal(w, g) {
		t.Errorf("text output differs:\n%s", firstDiff(w, g))
	}
}

func firstDiff(want, got []string) string {
	for i := 0; i < max(len(want), len(got)); i++ {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			return fmt.Sprintf("entry %d of %d/%d:\n got: %s\nwant: %s", i, len(got), len(want), g, w)
		}
	}
	return "(no difference)"
}

// TestSkip drives the tool with hand-written configs whose only file does
// not even parse: a package the relevance test rules out must be answered
// without reading it as Go (exit 0, {} on -json, a vetx file without
// facts), while a relevant one, or any with the fast path off, is parsed
// and fails as unitchecker fails.
func TestSkip(t *testing.T) {
	dir := t.TempDir()
	// sync's vetx file as the driver writes it for a package without facts.
	syncVetx := filepath.Join(dir, "sync.vetx")
	if err := os.WriteFile(syncVetx, []byte("fencelint vetx 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unit := func(name, src string, env ...string) (code int, stdout, vetx []byte, stderr string) {
		t.Helper()
		file := filepath.Join(dir, name+".go")
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg := map[string]any{
			"ID":          "example.com/" + name,
			"ImportPath":  "example.com/" + name,
			"GoVersion":   "go1.26",
			"GoFiles":     []string{file},
			"ImportMap":   map[string]string{"sync": "sync"},
			"PackageFile": map[string]string{},
			"PackageVetx": map[string]string{"sync": syncVetx},
			"VetxOutput":  filepath.Join(dir, name+".vetx"),
			"Stdout":      filepath.Join(dir, name+".stdout"),
		}
		data, _ := json.Marshal(cfg)
		cfgFile := filepath.Join(dir, name+".cfg")
		if err := os.WriteFile(cfgFile, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, errb, code := tool(t, "driver", env, "-json", cfgFile)
		stdout, _ = os.ReadFile(cfg["Stdout"].(string))
		vetx, _ = os.ReadFile(cfg["VetxOutput"].(string))
		return code, stdout, vetx, string(errb)
	}
	const broken = "package p\n\nimport \"sync\"\n\nvar mu sync.Mutex\n\nfunc f( {\n"
	code, stdout, vetx, stderr := unit("plain", broken)
	if code != 0 || string(stdout) != "{}\n" {
		t.Errorf("irrelevant package: exit %d, stdout %q, stderr %s; want 0 and {} without parsing", code, stdout, stderr)
	}
	if string(vetx) != "fencelint vetx 2\n" {
		t.Errorf("irrelevant package: vetx %q, want the header alone (no facts)", vetx)
	}
	for _, c := range []struct {
		name, src string
		env       []string
	}{
		{"directive", "package p\n\n//fencelint:write\nfunc f( {\n", nil},
		{"lease", "package p\n\ntype Lease struct{ Token int64 }\n\nfunc f( {\n", nil},
		{"full", broken, []string{vetdriver.FullEnv + "=1"}},
		{"facts", broken, nil}, // sync's vetx file is not empty: see below
	} {
		header := "fencelint vetx 2\n"
		if c.name == "facts" {
			// sync's own facts include a strong one: the package matters
			// (and the facts, junk here, are read only then).
			header += "S\nx"
		}
		if err := os.WriteFile(syncVetx, []byte(header), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, _, stderr := unit(c.name, c.src, c.env...)
		if code != 1 || !strings.Contains(stderr, "expected") {
			t.Errorf("%s: exit %d, stderr %q; want the parse error and exit 1", c.name, code, stderr)
		}
	}
}

// TestFix: go vet -fix passes -fix to every package of the run, and the
// driver hands such runs to unitchecker; the fix must be applied.
func TestFix(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet -fix")
	}
	dir := t.TempDir()
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
	for name, body := range map[string]string{"go.mod": "module example.com/fixtest\n\ngo 1.26.0\n", "fix.go": before} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, stderr, code := vet(t, dir, "driver", []string{"GOFLAGS="}, "-fix", "./...")
	if code != 0 {
		t.Fatalf("go vet -fix exited %d:\n%s", code, stderr)
	}
	got, err := os.ReadFile(filepath.Join(dir, "fix.go"))
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(before, "AND fence > $3", "AND fence < $3", 1); string(got) != want {
		t.Errorf("after go vet -fix:\n%s\nwant:\n%s", got, want)
	}
}

// TestWrapperBodies: a dependency kept only for the no-return wrappers it
// may declare is type-checked without the other functions' bodies. Its
// vetx file and exit code must be the full path's: an import only a
// dropped body used is no error, and init and generic bodies are kept
// (go/types needs them). A package of the command line (not VetxOnly) is
// checked whole: a type error in any body fails it, as on the full path.
// (go vet runs a dependency only after it compiled.)
func TestWrapperBodies(t *testing.T) {
	out, err := exec.Command("go", "list", "-export", "-f", "{{.ImportPath}} {{.Export}}", "os", "strings").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	importMap, packageFile, packageVetx := map[string]string{}, map[string]string{}, map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, export, _ := strings.Cut(line, " ")
		importMap[path], packageFile[path] = path, export
		packageVetx[path] = filepath.Join(dir, path+".vetx")
		if err := os.WriteFile(packageVetx[path], []byte("fencelint vetx 2\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	unit := func(name, src string, vetxOnly bool, env ...string) (code int, stdout, vetx []byte, stderr string) {
		t.Helper()
		file := filepath.Join(dir, name+".go")
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg := map[string]any{
			"VetxOnly": vetxOnly,
			"ID":       "example.com/" + name, "ImportPath": "example.com/" + name, "GoVersion": "go1.26",
			"GoFiles": []string{file}, "ImportMap": importMap, "PackageFile": packageFile, "PackageVetx": packageVetx,
			"VetxOutput": filepath.Join(dir, name+".vetx"), "Stdout": filepath.Join(dir, name+".stdout"),
		}
		data, _ := json.Marshal(cfg)
		cfgFile := filepath.Join(dir, name+".cfg")
		if err := os.WriteFile(cfgFile, data, 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(cfg["VetxOutput"].(string))
		_, errb, code := tool(t, "driver", env, "-json", cfgFile)
		stdout, _ = os.ReadFile(cfg["Stdout"].(string))
		vetx, _ = os.ReadFile(cfg["VetxOutput"].(string))
		return code, stdout, vetx, string(errb)
	}
	const wrappers = `package w

import (
	"os"
	"strings"
)

// Exit and Stop never return: their bodies are kept.
func Exit(code int) { os.Exit(code) }
func Stop()         { Exit(1) }

type T struct{}

func (T) Die() { panic("die") }

// Upper is the only user of strings but init: dropped.
func Upper(s string) string { return strings.ToUpper(s) }

func init() { _ = strings.ToLower("") }

func Map[E any](s []E, f func(E) E) []E {
	for i := range s {
		s[i] = f(s[i])
	}
	return s
}

type List[E any] struct{ es []E }

func (l *List[E]) Push(e E) { l.es = append(l.es, e) }
`
	for _, c := range []struct {
		name, src string
		vetxOnly  bool
		wantCode  int
	}{
		{"wrappers", wrappers, true, 0},
		{"unusedimport", strings.Replace(wrappers, "func init() { _ = strings.ToLower(\"\") }", "", 1), true, 0},
		{"root", wrappers, false, 0},
		{"typeerror", wrappers + "\nfunc Bad() int { return \"x\" }\n", false, 1},
	} {
		code, stdout, vetx, stderr := unit(c.name, c.src, c.vetxOnly)
		fullCode, fullStdout, fullVetx, fullStderr := unit(c.name, c.src, c.vetxOnly, vetdriver.FullEnv+"=1")
		if code != c.wantCode || fullCode != c.wantCode {
			t.Errorf("%s: exit %d (full path %d), want %d; stderr %s / %s", c.name, code, fullCode, c.wantCode, stderr, fullStderr)
		}
		if !bytes.Equal(stdout, fullStdout) || !bytes.Equal(vetx, fullVetx) || stderr != fullStderr {
			t.Errorf("%s: fast path stdout %q, vetx %q, stderr %q;\nfull path %q, %q, %q", c.name, stdout, vetx, stderr, fullStdout, fullVetx, fullStderr)
		}
		if c.wantCode == 0 && !bytes.Contains(vetx, []byte("Exit")) {
			t.Errorf("%s: vetx %q carries no fact about Exit", c.name, vetx)
		}
	}
	// The bodies are dropped indeed: in a dependency, a body go vet would
	// never hand over broken goes unchecked, and the facts are the same.
	bad := wrappers + "\nfunc Bad() int { return \"x\" }\n"
	code, _, vetx, stderr := unit("dropped", bad, true)
	fullCode, _, _, _ := unit("dropped", bad, true, vetdriver.FullEnv+"=1")
	_, _, goodVetx, _ := unit("dropped", wrappers, true, vetdriver.FullEnv+"=1")
	if code != 0 || fullCode != 1 || !bytes.Equal(vetx, goodVetx) {
		t.Errorf("dependency with a broken dropped body: exit %d (stderr %q), full path %d; vetx equal to the good package's: %v; want 0, 1, true",
			code, stderr, fullCode, bytes.Equal(vetx, goodVetx))
	}
}
