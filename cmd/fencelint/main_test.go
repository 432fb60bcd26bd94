package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fencelint/fencelint/analyzer"
	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/analysis/lint"
)

func TestVetProtocol(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-flags"}, true},
		{[]string{"--flags"}, true},
		{[]string{"-V=full"}, true},
		{[]string{"--V=full"}, true},
		{[]string{"-json", "/tmp/go-build1/b001/vet.cfg"}, true},
		{[]string{"-unfencedwrite.foo=x", "-json", "b002/vet.cfg"}, true},
		{nil, false},
		{[]string{"./..."}, false},
		{[]string{"-f", "json", "./..."}, false},
		{[]string{"-explain", "unfencedwrite"}, false},
		{[]string{"-version"}, false},
		{[]string{"-V"}, false},
		{[]string{"vet.cfg", "./..."}, false}, // .cfg only counts as the last argument
		{[]string{"-flagsx"}, false},
	} {
		if got := vetProtocol(tc.args); got != tc.want {
			t.Errorf("vetProtocol(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

// ---- expectations and findings ----------------------------------------

// finding is one diagnostic as the e2e tests compare them: file relative to
// the example module, line, analyzer.
type finding struct {
	Pos      string // "ledger/ledger.go:31"
	Analyzer string
}

func (f finding) String() string { return f.Pos + " " + f.Analyzer }

var expectRE = regexp.MustCompile(`//\s*expect:\s*([a-z_]+(?:\s*,\s*[a-z_]+)*)\s*$`)

// expectations reads the `// expect: ANALYZER[, ANALYZER]` end-of-line
// comments of every .go file under dir.
func expectations(t *testing.T, dir string) map[finding]bool {
	t.Helper()
	want := map[finding]bool{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			m := expectRE.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			for name := range strings.SplitSeq(m[1], ",") {
				want[finding{fmt.Sprintf("%s:%d", filepath.ToSlash(rel), i+1), strings.TrimSpace(name)}] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// parseVetJSON reads go vet -json output: concatenated JSON objects
// {"pkgpath": {"analyzer": [{"posn": "file:line:col", "message": ...}] or
// {"error": "..."}}}. Positions are made relative to dir.
func parseVetJSON(r io.Reader, dir string) (got map[finding][]string, analyzerErrors []string, err error) {
	got = map[finding][]string{}
	dec := json.NewDecoder(r)
	for {
		var pkgs map[string]map[string]json.RawMessage
		if err := dec.Decode(&pkgs); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, nil, fmt.Errorf("decoding go vet -json output: %w", err)
		}
		for pkg, byAnalyzer := range pkgs {
			for name, raw := range byAnalyzer {
				var failure struct {
					Error string `json:"error"`
				}
				if json.Unmarshal(raw, &failure) == nil && failure.Error != "" {
					analyzerErrors = append(analyzerErrors, fmt.Sprintf("%s: %s: %s", pkg, name, failure.Error))
					continue
				}
				var diags []struct {
					Posn    string `json:"posn"`
					Message string `json:"message"`
				}
				if err := json.Unmarshal(raw, &diags); err != nil {
					return nil, nil, fmt.Errorf("%s: %s: %w", pkg, name, err)
				}
				for _, d := range diags {
					pos, err := relPos(dir, d.Posn)
					if err != nil {
						return nil, nil, err
					}
					f := finding{pos, name}
					got[f] = append(got[f], d.Message)
				}
			}
		}
	}
	return got, analyzerErrors, nil
}

// relPos turns "/abs/dir/ledger/ledger.go:31:9" into "ledger/ledger.go:31".
func relPos(dir, posn string) (string, error) {
	file, rest, ok := strings.Cut(posn, ".go:")
	if !ok {
		return "", fmt.Errorf("position %q: no .go file", posn)
	}
	line, _, _ := strings.Cut(rest, ":")
	return relLine(dir, file+".go", line)
}

func relLine(dir, file, line string) (string, error) {
	if filepath.IsAbs(file) {
		rel, err := filepath.Rel(dir, file)
		if err != nil {
			return "", err
		}
		file = rel
	}
	if _, err := strconv.Atoi(line); err != nil {
		return "", fmt.Errorf("position %s:%s: bad line", file, line)
	}
	return filepath.ToSlash(file) + ":" + line, nil
}

// diff returns the expected findings that were not reported and the
// reported ones that were not expected, sorted.
func diff(want map[finding]bool, got map[finding][]string) (missing, unexpected []string) {
	for f := range want {
		if _, ok := got[f]; !ok {
			missing = append(missing, f.String())
		}
	}
	for f, msgs := range got {
		if !want[f] {
			unexpected = append(unexpected, fmt.Sprintf("%s: %s", f, strings.Join(msgs, " | ")))
		}
	}
	slices.Sort(missing)
	slices.Sort(unexpected)
	return missing, unexpected
}

func checkFindings(t *testing.T, route string, want map[finding]bool, got map[finding][]string) {
	t.Helper()
	missing, unexpected := diff(want, got)
	if len(missing) == 0 && len(unexpected) == 0 {
		return
	}
	t.Errorf("%s: findings differ from the // expect: comments in example/\nmissing (%d):\n\t%s\nunexpected (%d):\n\t%s",
		route, len(missing), strings.Join(missing, "\n\t"), len(unexpected), strings.Join(unexpected, "\n\t"))
}

// TestHarness checks the e2e harness itself, without building anything:
// a vet stream with one expected, one unexpected finding and an analyzer
// error must produce exactly those complaints.
func TestHarness(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nfunc f() {\n\tg() // expect: unfencedwrite\n\th() //expect: unfencedwrite, weaktoken\n}\n"
	if err := os.MkdirAll(filepath.Join(dir, "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p", "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	want := expectations(t, dir)
	if len(want) != 3 {
		t.Fatalf("expectations = %v, want 3", want)
	}
	stream := fmt.Sprintf(`{
	"example.com/p": {
		"unfencedwrite": [
			{"posn": "%[1]s/p/p.go:4:2", "end": "%[1]s/p/p.go:4:5", "message": "write without fence"},
			{"posn": "%[1]s/p/p.go:5:2", "message": "write without fence"},
			{"posn": "%[1]s/p/p.go:3:1", "message": "planted"}
		],
		"appcheck": {"error": "boom"}
	}
}
{"example.com/q": {}}
`, filepath.ToSlash(dir))
	got, errs, err := parseVetJSON(strings.NewReader(stream), dir)
	if err != nil {
		t.Fatal(err)
	}
	missing, unexpected := diff(want, got)
	if !slices.Equal(missing, []string{"p/p.go:5 weaktoken"}) {
		t.Errorf("missing = %q", missing)
	}
	if !slices.Equal(unexpected, []string{"p/p.go:3 unfencedwrite: planted"}) {
		t.Errorf("unexpected = %q", unexpected)
	}
	if !slices.Equal(errs, []string{"example.com/p: appcheck: boom"}) {
		t.Errorf("analyzer errors = %q", errs)
	}
}

// ---- end-to-end ---------------------------------------------------------

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	binDir    string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// fencelintBinary builds this package once per test process.
func fencelintBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "fencelint-e2e-")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "fencelint")
		// A unique salt gives this build its own go vet tool ID (see
		// TestVetEndToEnd).
		salt := fmt.Sprintf("-X main.buildSalt=e2e%d", time.Now().UnixNano())
		out, err := exec.Command("go", "build", "-ldflags", salt, "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func exampleDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "example"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// e2eEnv lets the example's real dependencies download through the module
// proxy (CI starts with an empty module cache).
func e2eEnv(extra ...string) []string {
	goflags := strings.TrimSpace("-mod=mod " + os.Getenv("GOFLAGS"))
	return append(os.Environ(), append([]string{"GOFLAGS=" + goflags}, extra...)...)
}

// run executes name in dir and returns stdout, stderr and the exit code.
func run(t *testing.T, dir string, env []string, name string, args ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	// Stop the child a little before the test binary's own deadline, so a
	// slow machine gets a clear failure instead of a timeout panic that
	// leaves go vet running.
	ctx := t.Context()
	if deadline, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline.Add(-20*time.Second))
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	t.Logf("%s %s (in %s): %v", name, strings.Join(args, " "), dir, time.Since(start).Round(time.Millisecond))
	var exit *exec.ExitError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		t.Fatalf("%s %s: stopped before the test deadline after %v (cold runs compile and vet all of example/'s dependencies; use go test -timeout=30m or GOFLAGS=-timeout=30m)\nstderr:\n%s",
			name, strings.Join(args, " "), time.Since(start).Round(time.Second), errb.Bytes())
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("%s: %v", name, err)
	}
	return out.Bytes(), errb.Bytes(), code
}

// TestVetEndToEnd runs fencelint as go vet's -vettool on example/ and
// compares the findings with the // expect: comments. go vet 1.26 caches
// vet results and can replay the facts-only result of a package it first
// saw as a dependency, dropping its findings. Results are keyed by the
// tool's ID, a hash of the executable: the binary is built with a unique
// salt, so no result of an earlier run can be replayed, while compiled
// dependencies (etcd, gRPC, the AWS SDK) stay in the build cache.
// FENCELINT_E2E_FRESH_GOCACHE=1 uses an empty GOCACHE instead.
func TestVetEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fencelint and vets example/ with its real dependencies")
	}
	bin := fencelintBinary(t)
	dir := exampleDir(t)
	var env []string
	if os.Getenv("FENCELINT_E2E_FRESH_GOCACHE") == "1" {
		env = e2eEnv("GOCACHE=" + t.TempDir())
	} else {
		env = e2eEnv()
	}
	stdout, stderr, code := run(t, dir, env, "go", "vet", "-vettool="+bin, "-json", "./...")
	if code != 0 {
		t.Fatalf("go vet exited %d (with -json it exits 0 even with findings):\n%s", code, stderr)
	}
	got, analyzerErrors, err := parseVetJSON(bytes.NewReader(stdout), dir)
	if err != nil {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	for _, e := range analyzerErrors {
		t.Errorf("analyzer failed: %s", e)
	}
	checkFindings(t, "go vet -vettool", expectations(t, dir), got)
}

// lintcmdJSON is one line of fencelint -f json.
type lintcmdJSON struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Location struct {
		File   string `json:"file"`
		Line   int    `json:"line"`
		Column int    `json:"column"`
	} `json:"location"`
	Message string `json:"message"`
	URL     string `json:"url"`
	Related []struct {
		End struct {
			File string `json:"file"`
			Line int    `json:"line"`
		} `json:"end"`
		Message string `json:"message"`
	} `json:"related"`
}

func parseLintJSON(t *testing.T, data []byte) []lintcmdJSON {
	t.Helper()
	var out []lintcmdJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var d lintcmdJSON
		if err := dec.Decode(&d); err != nil {
			if errors.Is(err, io.EOF) {
				return out
			}
			t.Fatalf("decoding -f json output: %v\n%s", err, data)
		}
		out = append(out, d)
	}
}

// TestStandaloneEndToEnd runs the standalone CLI on example/ with -f json
// and -f sarif.
func TestStandaloneEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fencelint and lints example/ with its real dependencies")
	}
	bin := fencelintBinary(t)
	dir := exampleDir(t)
	want := expectations(t, dir)
	env := e2eEnv()

	docsURLs := map[string]string{}
	for _, a := range analyzer.All {
		docsURLs[a.Analyzer.Name] = a.Analyzer.URL
	}
	t.Run("json", func(t *testing.T) {
		stdout, stderr, code := run(t, dir, env, bin, "-f", "json", "./...")
		got := map[finding][]string{}
		for _, d := range parseLintJSON(t, stdout) {
			if d.Code == "compile" || d.Code == "config" {
				t.Errorf("example/ did not load: %s:%d: %s (%s)", d.Location.File, d.Location.Line, d.Message, d.Code)
			}
			if !filepath.IsAbs(d.Location.File) {
				t.Errorf("-f json file %q is not absolute", d.Location.File)
			}
			if d.Severity != "warning" {
				t.Errorf("%s:%d: severity %q, want warning (as in SARIF)", d.Location.File, d.Location.Line, d.Severity)
			}
			for _, r := range d.Related {
				if r.End.File == "" || r.End.Line == 0 {
					t.Errorf("%s:%d: related %q has an empty end", d.Location.File, d.Location.Line, r.Message)
				}
			}
			pos, err := relLine(dir, d.Location.File, strconv.Itoa(d.Location.Line))
			if err != nil {
				t.Fatal(err)
			}
			got[finding{pos, d.Code}] = append(got[finding{pos, d.Code}], d.Message)
			if wantURL := docsURLs[d.Code]; d.URL != wantURL || wantURL == "" {
				t.Errorf("-f json finding %s:%d (%s) has url %q, want %q", d.Location.File, d.Location.Line, d.Code, d.URL, wantURL)
			}
		}
		checkFindings(t, "fencelint -f json", want, got)
		wantCode := exitClean
		if len(want) > 0 {
			wantCode = exitFindings
		}
		if code != wantCode {
			t.Errorf("exit code %d, want %d\nstderr:\n%s", code, wantCode, stderr)
		}
	})

	t.Run("sarif", func(t *testing.T) {
		stdout, stderr, code := run(t, dir, env, bin, "-f", "sarif", "./...")
		if code != exitClean {
			t.Errorf("-f sarif exit code %d, want 0 (findings are results, not failures)\nstderr:\n%s", code, stderr)
		}
		got := checkSARIF(t, stdout)
		checkFindings(t, "fencelint -f sarif", want, got)
	})
}

// checkSARIF checks the fields GitHub code scanning needs and returns the
// results as findings (artifact URIs are relative to the working directory).
func checkSARIF(t *testing.T, data []byte) map[finding][]string {
	t.Helper()
	var log struct {
		Version string `json:"version"`
		Schema  string `json:"$schema"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID      string `json:"id"`
						HelpURI string `json:"helpUri"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results *[]struct {
				RuleID  string `json:"ruleId"`
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("-f sarif output is not JSON: %v\n%s", err, data)
	}
	if log.Version != "2.1.0" {
		t.Errorf("version = %q, want 2.1.0", log.Version)
	}
	if !strings.Contains(log.Schema, "sarif-schema-2.1.0") {
		t.Errorf("$schema = %q", log.Schema)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	r := log.Runs[0]
	if r.Tool.Driver.Name != "fencelint" {
		t.Errorf("tool.driver.name = %q, want fencelint", r.Tool.Driver.Name)
	}
	urls := map[string]string{}
	for _, a := range analyzer.All {
		urls[a.Analyzer.Name] = a.Analyzer.URL
	}
	seen := map[string]bool{}
	for _, rule := range r.Tool.Driver.Rules {
		seen[rule.ID] = true
		if rule.HelpURI != urls[rule.ID] || !strings.HasSuffix(rule.HelpURI, "/docs/"+rule.ID+".md") {
			t.Errorf("rule %q helpUri = %q, want %q (docs/%s.md)", rule.ID, rule.HelpURI, urls[rule.ID], rule.ID)
		}
	}
	for name := range urls {
		if !seen[name] {
			t.Errorf("no SARIF rule for analyzer %s", name)
		}
	}
	if r.Results == nil {
		t.Fatal("runs[0].results missing (SARIF: absent means the tool did not run)")
	}
	for _, inv := range r.Invocations {
		if !inv.ExecutionSuccessful {
			t.Error("invocations[].executionSuccessful = false")
		}
	}
	got := map[finding][]string{}
	for i, res := range *r.Results {
		if res.RuleID == "" || res.Message.Text == "" || len(res.Locations) == 0 {
			t.Errorf("result %d lacks ruleId, message.text or locations: %+v", i, res)
			continue
		}
		loc := res.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URI == "" || loc.Region.StartLine <= 0 {
			t.Errorf("result %d lacks artifactLocation.uri or region.startLine: %+v", i, loc)
			continue
		}
		pos := fmt.Sprintf("%s:%d", loc.ArtifactLocation.URI, loc.Region.StartLine)
		got[finding{pos, res.RuleID}] = append(got[finding{pos, res.RuleID}], res.Message.Text)
	}
	return got
}

// TestStandaloneExitCodes pins the documented exit codes on small
// throwaway modules: 0 clean, 1 findings, 2 packages that do not load.
// fencelint's analyzers report nothing on these; the finding is lintcmd's
// own report of a //lint:ignore directive that matched nothing, which
// counts like any analyzer finding.
func TestStandaloneExitCodes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fencelint")
	}
	bin := fencelintBinary(t)
	for _, tc := range []struct {
		name, src string
		format    string
		code      int
		stdout    string // substring
	}{
		{"clean", "package m\n\nfunc F() int { return 1 }\n", "text", exitClean, ""},
		{"finding", "package m\n\nfunc F() int {\n\t//lint:ignore unfencedwrite nothing to ignore\n\treturn 1\n}\n", "text", exitFindings, "m.go:4:2: this linter directive didn't match anything"},
		{"finding-sarif", "package m\n\nfunc F() int {\n\t//lint:ignore unfencedwrite nothing to ignore\n\treturn 1\n}\n", "sarif", exitClean, `"ruleId":"staticcheck"`},
		{"type-error", "package m\n\nfunc F() int { return \"x\" }\n", "text", exitFailure, "m.go:3:23: cannot use \"x\""},
		{"type-error-json", "package m\n\nfunc F() int { return \"x\" }\n", "json", exitFailure, `"code":"compile"`},
		{"type-error-sarif", "package m\n\nfunc F() int { return \"x\" }\n", "sarif", exitFailure, `"executionSuccessful":false`},
		{"syntax-error", "package m\n\nfunc F() int { return 1\n", "text", exitFailure, "(compile)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.26\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "m.go"), []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			stdout, stderr, code := run(t, dir, os.Environ(), bin, "-f", tc.format, "./...")
			if code != tc.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			if !strings.Contains(string(stdout), tc.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tc.stdout, stdout)
			}
		})
	}
	t.Run("no-module", func(t *testing.T) {
		// go list fails outright: lintcmd prints the error, no diagnostics.
		_, stderr, code := run(t, t.TempDir(), append(os.Environ(), "GO111MODULE=on"), bin, "./...")
		if code != exitFailure {
			t.Errorf("exit code %d, want %d\nstderr:\n%s", code, exitFailure, stderr)
		}
	})
	t.Run("bad-format", func(t *testing.T) {
		_, _, code := run(t, t.TempDir(), os.Environ(), bin, "-f", "xml", "./...")
		if code != exitFailure {
			t.Errorf("exit code %d, want %d", code, exitFailure)
		}
	})
}

// TestCLI checks the modes fencelint answers itself.
func TestCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fencelint")
	}
	bin := fencelintBinary(t)
	dir := t.TempDir()

	stdout, _, code := run(t, dir, os.Environ(), bin, "-list")
	if code != 0 {
		t.Errorf("-list exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(string(stdout)), "\n")
	if len(lines) != len(analyzer.All) {
		t.Errorf("-list printed %d lines, want %d:\n%s", len(lines), len(analyzer.All), stdout)
	}
	for i, a := range analyzer.All {
		if i < len(lines) && !(strings.HasPrefix(lines[i], a.Analyzer.Name+" ") && strings.HasSuffix(lines[i], a.Doc.Compile().Title)) {
			t.Errorf("-list line %d = %q, want %s and its title", i, lines[i], a.Analyzer.Name)
		}
	}

	for _, a := range analyzer.All {
		stdout, _, code := run(t, dir, os.Environ(), bin, "-explain", a.Analyzer.Name)
		if code != 0 || !strings.Contains(string(stdout), a.Analyzer.URL) || strings.Contains(string(stdout), "staticcheck.dev") {
			t.Errorf("-explain %s: exit %d, output:\n%s", a.Analyzer.Name, code, stdout)
		}
	}
	if _, _, code := run(t, dir, os.Environ(), bin, "-explain", "nosuchanalyzer"); code != exitFailure {
		t.Errorf("-explain of an unknown analyzer: exit %d, want %d", code, exitFailure)
	}
	if _, _, code := run(t, dir, os.Environ(), bin, "-nosuchflag"); code != exitFailure {
		t.Errorf("unknown flag: exit %d, want %d", code, exitFailure)
	}
}

// ---- units ---------------------------------------------------------------

func fakeAnalyzer() *lint.Analyzer {
	a := &lint.Analyzer{
		Analyzer: &analysis.Analyzer{
			Name: "fake",
			Doc:  "fake analyzer",
			Run:  func(*analysis.Pass) (any, error) { return nil, nil },
		},
		Doc: &lint.RawDocumentation{Title: "a fake"},
	}
	a.Analyzer.Flags.String("mode", "strict", "how strict")
	a.Analyzer.Flags.Bool("verbose", false, "say more")
	a.Analyzer.URL = "https://example.com/docs/fake.md"
	return a
}

func TestLiftAnalyzerFlags(t *testing.T) {
	a := fakeAnalyzer()
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	lifted := liftAnalyzerFlags(fs, []*lint.Analyzer{a})
	if !slices.Equal(lifted, []string{"fake.mode", "fake.verbose"}) {
		t.Fatalf("lifted = %q", lifted)
	}
	if err := fs.Parse([]string{"-fake.mode=lax", "-fake.verbose", "./..."}); err != nil {
		t.Fatal(err)
	}
	if got := a.Analyzer.Flags.Lookup("mode").Value.String(); got != "lax" {
		t.Errorf("analyzer flag mode = %q, want lax", got)
	}
	if got := a.Analyzer.Flags.Lookup("verbose").Value.String(); got != "true" {
		t.Errorf("analyzer flag verbose = %q, want true", got)
	}
	if !slices.Equal(fs.Args(), []string{"./..."}) {
		t.Errorf("args = %q", fs.Args())
	}
}

// Flags of required analyzers (the engine's) are lifted too, once each
// even when several analyzers require the same one.
func TestLiftRequiredAnalyzerFlags(t *testing.T) {
	engine := &analysis.Analyzer{Name: "engine", Doc: "engine", Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	engine.Flags.Bool("allfuncs", false, "all functions")
	a, b := fakeAnalyzer(), fakeAnalyzer()
	b.Analyzer = &analysis.Analyzer{Name: "other", Doc: "other", Run: a.Analyzer.Run}
	a.Analyzer.Requires = []*analysis.Analyzer{engine}
	b.Analyzer.Requires = []*analysis.Analyzer{engine}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	lifted := liftAnalyzerFlags(fs, []*lint.Analyzer{a, b})
	if !slices.Equal(lifted, []string{"fake.mode", "fake.verbose", "engine.allfuncs"}) {
		t.Fatalf("lifted = %q", lifted)
	}
	if err := fs.Parse([]string{"-engine.allfuncs"}); err != nil {
		t.Fatal(err)
	}
	if got := engine.Flags.Lookup("allfuncs").Value.String(); got != "true" {
		t.Errorf("engine flag allfuncs = %q, want true", got)
	}
}

func TestSetCacheDir(t *testing.T) {
	base := t.TempDir()
	t.Setenv("STATICCHECK_CACHE", base)
	a := fakeAnalyzer()
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	lifted := liftAnalyzerFlags(fs, []*lint.Analyzer{a})
	fs.Bool("other", false, "")
	if err := fs.Parse([]string{"-other"}); err != nil {
		t.Fatal(err)
	}
	if err := setCacheDir(fs, lifted, false); err != nil {
		t.Fatal(err)
	}
	if got := os.Getenv("STATICCHECK_CACHE"); got != base {
		t.Errorf("no analyzer flags: STATICCHECK_CACHE = %q, want %q", got, base)
	}

	t.Setenv("STATICCHECK_CACHE", base)
	if err := fs.Parse([]string{"-fake.mode=lax"}); err != nil {
		t.Fatal(err)
	}
	if err := setCacheDir(fs, lifted, false); err != nil {
		t.Fatal(err)
	}
	got := os.Getenv("STATICCHECK_CACHE")
	if filepath.Dir(got) != base || !strings.HasPrefix(filepath.Base(got), "flags-") {
		t.Errorf("with analyzer flags: STATICCHECK_CACHE = %q, want %s/flags-HASH", got, base)
	}

	t.Setenv("STATICCHECK_CACHE", "")
	t.Setenv("XDG_CACHE_HOME", base)
	t.Setenv("HOME", base)
	fs2 := flag.NewFlagSet("y", flag.ContinueOnError)
	if err := setCacheDir(fs2, nil, false); err != nil {
		t.Fatal(err)
	}
	if got := os.Getenv("STATICCHECK_CACHE"); filepath.Base(got) != "fencelint" {
		t.Errorf("default STATICCHECK_CACHE = %q, want <user cache dir>/fencelint", got)
	}
}

func TestFixSARIF(t *testing.T) {
	in := `{"version":"2.1.0","$schema":"s","runs":[{"tool":{"driver":{"name":"fencelint","rules":[` +
		`{"id":"fake","helpUri":"https://staticcheck.dev/docs/checks#fake"},{"id":"other","helpUri":"keep"}]}},` +
		`"invocations":[{"executionSuccessful":true}]}]}`
	out, err := fixSARIF([]byte(in), []*lint.Analyzer{fakeAnalyzer()}, func(run map[string]any) {
		run["invocations"].([]any)[0].(map[string]any)["executionSuccessful"] = false
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"helpUri":"https://example.com/docs/fake.md"`,
		`"helpUri":"keep"`,
		`"informationUri":"https://github.com/fencelint/fencelint"`,
		`"results":[]`,
		`"executionSuccessful":false`,
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("fixSARIF output lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "staticcheck.dev") {
		t.Errorf("fixSARIF kept a staticcheck.dev URL:\n%s", out)
	}
	if _, err := fixSARIF([]byte("fencelint (no version)\n"), nil, nil); err == nil {
		t.Error("fixSARIF accepted non-JSON")
	}
}
