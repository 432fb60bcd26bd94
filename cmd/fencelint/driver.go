package main

import (
	"crypto/sha256"
	"encoding/gob"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/fencelint/fencelint/analyzer"
	"github.com/fencelint/fencelint/internal/lazyregexp"
	"golang.org/x/tools/go/buildutil"
	"golang.org/x/tools/go/packages"
	"honnef.co/go/tools/analysis/lint"
	"honnef.co/go/tools/config"
	"honnef.co/go/tools/go/buildid"
	"honnef.co/go/tools/lintcmd/cache"
	"honnef.co/go/tools/lintcmd/runner"
)

// The standalone fast path: phase one of lintTwoPhase (lintcmd's -f
// binary results) comes from fencelint's own driver (analyzer.Lint,
// analyzer/internal/standalone) instead of lintcmd's runner. The driver
// never loads from source a package the engine's relevance test rules
// out; what it returns per package is what lintcmd's runner returns, and
// the code below turns that into lintcmd's results exactly as lintcmd's
// linter does (honnef.co/go/tools v0.8.2 lintcmd/lint.go: failed
// packages, -checks and staticcheck.conf, //lint:ignore matching, merge
// strategies, warnings) and writes them as `-f binary` would. Phase two is
// unchanged: lintcmd's -merge prints them.

// driverDebugEnv (FENCELINT_DEBUG_DRIVER=1) prints the driver's counts.
const driverDebugEnv = "FENCELINT_DEBUG_DRIVER"

// driverCannot names the flag that keeps phase one on lintcmd's runner,
// or "": -matrix (several build configurations read from stdin) and
// -debug.measure-analyzers (the runner's own timing) are lintcmd's alone.
func driverCannot(fs *flag.FlagSet) string {
	if flagValue(fs, "matrix") == "true" {
		return "-matrix"
	}
	if flagValue(fs, "debug.measure-analyzers") != "" {
		return "-debug.measure-analyzers"
	}
	return ""
}

// lintWithDriver runs the driver over fs's patterns and writes lintcmd's
// binary results to w. It returns lintcmd's status for phase one: 0, or 1
// after printing why the run could not start (bad -tags, go list failed,
// no cache).
func lintWithDriver(fs *flag.FlagSet, lifted []string, w io.Writer, show func(string)) int {
	res, status := driverResult(fs, lifted, show)
	if status != 0 {
		return status
	}
	return writeBinary(w, res)
}

// driverResult runs the driver over fs's patterns and returns its results
// as lintcmd's runner would have them before -f binary writes them, with
// lintcmd's status for phase one (see lintWithDriver).
func driverResult(fs *flag.FlagSet, lifted []string, show func(string)) (lintResult, int) {
	stop, err := startProfiles(fs)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return lintResult{}, 1
	}
	defer stop()

	tags := flagValue(fs, "tags")
	if tags != "" {
		// lintcmd validates -tags first: go/packages would fail obscurely.
		tf := buildutil.TagsFlag{}
		if err := tf.Set(tags); err != nil {
			fmt.Fprintln(os.Stderr, fmt.Errorf("invalid value %q for flag -tags: %s", tags, err))
			return lintResult{}, 1
		}
	}
	goVersion, err := strconv.Unquote(flagValue(fs, "go"))
	if err != nil {
		goVersion = flagValue(fs, "go")
	}
	var checks []string
	if v := strings.Trim(flagValue(fs, "checks"), `"`); v != "" {
		for c := range strings.SplitSeq(v, ",") {
			checks = append(checks, strings.TrimSpace(c))
		}
	}
	c, err := cache.Default()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return lintResult{}, 1
	}
	salt, err := toolSalt()
	if err != nil {
		fmt.Fprintln(os.Stderr, fmt.Errorf("could not compute salt for cache: %s", err))
		return lintResult{}, 1
	}
	cache.SetSalt(salt)
	as := lintcmdAnalyzers(analyzer.All)
	setDefaultChecks(as)

	var flagValues []string
	for _, name := range lifted {
		flagValues = append(flagValues, name+"="+flagValue(fs, name))
	}
	opts := analyzer.LintOptions{
		Patterns:  fs.Args(),
		Tests:     flagValue(fs, "tests") == "true",
		Tags:      tags,
		GoVersion: goVersion,
		Checks:    checks,
		Cache:     c,
		Salt:      strings.Join(flagValues, "\n"),
	}
	for _, a := range as {
		opts.Analyzers = append(opts.Analyzers, a.Analyzer)
	}
	var latest struct {
		sync.Mutex
		s analyzer.LintStats
	}
	// The GC policy may let the heap grow toward what the output will
	// hold (gcpolicy.go).
	opts.Progress = func(s analyzer.LintStats) {
		outputReserve.Store(reserveFor(s.Findings, s.InitialDone, s.Initial))
	}
	if show != nil {
		show("fencelint: loading packages (go list)")
		reserve := opts.Progress
		opts.Progress = func(s analyzer.LintStats) {
			reserve(s)
			latest.Lock()
			latest.s = s
			latest.Unlock()
		}
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			t := time.NewTicker(500 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-done:
					return
				case <-t.C:
					latest.Lock()
					s := latest.s
					latest.Unlock()
					if s.Packages > 0 {
						show(fmt.Sprintf("fencelint: analysed %d/%d packages (%d/%d named, the rest dependencies)", s.Done, s.Packages, s.InitialDone, s.Initial))
					}
				}
			}
		})
		defer func() { close(done); wg.Wait() }()
	}

	results, stats, err := analyzer.Lint(opts, false)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return lintResult{}, 1
	}
	if os.Getenv(driverDebugEnv) != "" {
		fmt.Fprintf(os.Stderr, "fencelint: fast path: %d packages, %d cached, %d analysed, %d never loaded\n", stats.Packages, stats.Cached, stats.Analysed, stats.Irrelevant)
	}
	if len(results) == 0 {
		for _, pattern := range opts.Patterns {
			fmt.Fprintf(os.Stderr, "warning: %q matched no packages\n", pattern)
		}
	}
	res, err := lintResultOf(results, as)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return lintResult{}, 1
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(os.Stderr, "warning:", w)
	}
	defer c.Close()
	return res, 0
}

// toolSalt is the salt lintcmd gives its cache, and so the driver's: the
// executable's Go build ID, or the SHA-256 of the executable when it has
// none (a new build never replays an old build's results).
func toolSalt() ([]byte, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	if id, err := buildid.ReadFile(exe); err == nil {
		return []byte(id), nil
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	return sum[:], nil
}

// setDefaultChecks is what lintcmd's Execute does before linting: the
// configuration of a package without staticcheck.conf enables every
// analyzer but the non-default ones.
func setDefaultChecks(as []*lint.Analyzer) {
	checks := []string{"all"}
	for _, a := range as {
		if a.Doc.NonDefault {
			checks = append(checks, "-"+a.Analyzer.Name)
		}
	}
	config.DefaultConfig.Checks = checks
}

// startProfiles starts what lintcmd's -debug.cpuprofile and -debug.trace
// start around a lint run, and returns what stops them and writes
// -debug.memprofile.
func startProfiles(fs *flag.FlagSet) (func(), error) {
	var stops []func()
	if path := flagValue(fs, "debug.cpuprofile"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return nil, err
		}
		stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
	}
	if path := flagValue(fs, "debug.trace"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		if err := trace.Start(f); err != nil {
			return nil, err
		}
		stops = append(stops, func() { trace.Stop(); f.Close() })
	}
	return func() {
		for _, stop := range stops {
			stop()
		}
		if path := flagValue(fs, "debug.memprofile"); path != "" {
			if f, err := os.Create(path); err == nil {
				runtime.GC()
				pprof.WriteHeapProfile(f)
				f.Close()
			}
		}
	}, nil
}

// lintResultOf is lintcmd's linter.lint over the driver's results (one
// build configuration, no U1000 among the analyzers).
func lintResultOf(results []analyzer.LintResult, as []*lint.Analyzer) (lintResult, error) {
	var out lintResult
	byName := map[string]*lint.Analyzer{}
	var names []string
	for _, a := range as {
		name := strings.ToLower(a.Analyzer.Name)
		byName[name] = a
		names = append(names, name)
	}
	for _, res := range results {
		if res.Failed {
			out.Diagnostics = append(out.Diagnostics, failedDiagnostics(res.Errors)...)
			continue
		}
		if res.Skipped {
			out.Warnings = append(out.Warnings, fmt.Sprintf("skipped package %s because it is too large", res.Package))
			continue
		}
		if !res.Initial {
			continue
		}
		out.CheckedFiles = append(out.CheckedFiles, res.Package.GoFiles...)
		allowed := filterAnalyzerNames(names, lower(res.Config.Checks))
		found, directives, err := res.Load()
		if err != nil {
			return out, err
		}
		var diags []diagnostic
		for _, d := range found {
			if allowed[strings.ToLower(d.Category)] {
				diags = append(diags, diagnostic{Diagnostic: d})
			}
		}
		diags = filterIgnored(diags, directives, allowed)
		for i, d := range diags {
			if a := byName[strings.ToLower(d.Category)]; a != nil {
				diags[i].MergeIf = a.Doc.MergeIf
			}
		}
		out.Diagnostics = append(out.Diagnostics, diags...)
	}
	return out, nil
}

func lower(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	return out
}

// writeBinary writes res as lintcmd's -f binary does: paths relative to
// the working directory and /-separated, offsets of positions (not of
// fixes) zeroed.
func writeBinary(w io.Writer, res lintResult) int {
	relativize(&res)
	if err := gob.NewEncoder(w).Encode(res); err != nil {
		fmt.Fprintf(os.Stderr, "failed writing output: %s\n", err)
		return 2
	}
	return 0
}

// relativize is what lintcmd's -f binary does to res before it encodes it
// (writeBinary); tidyResults undoes the relative paths.
func relativize(res *lintResult) {
	cwd, err := os.Getwd()
	if err != nil {
		cwd = ""
	}
	relPath := func(s string) string {
		if cwd == "" {
			return filepath.ToSlash(s)
		}
		out, err := filepath.Rel(cwd, s)
		if err != nil {
			return filepath.ToSlash(s)
		}
		return filepath.ToSlash(out)
	}
	for i, s := range res.CheckedFiles {
		res.CheckedFiles[i] = relPath(s)
	}
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		d.Position.Filename = relPath(d.Position.Filename)
		d.Position.Offset = 0
		d.End.Filename = relPath(d.End.Filename)
		d.End.Offset = 0
		for j := range d.Related {
			r := &d.Related[j]
			r.Position.Filename = relPath(r.Position.Filename)
			r.Position.Offset = 0
			r.End.Filename = relPath(r.End.Filename)
			r.End.Offset = 0
		}
	}
}

// failedDiagnostics is lintcmd's failed(): a package's load errors as
// diagnostics of category compile (config for parse errors).
func failedDiagnostics(errs []error) []diagnostic {
	var out []diagnostic
	for _, e := range errs {
		switch e := e.(type) {
		case packages.Error:
			msg := e.Msg
			if len(msg) != 0 && msg[0] == '\n' {
				msg = msg[1:]
			}
			cat := "compile"
			if e.Kind == packages.ParseError {
				cat = "config"
			}
			var posn token.Position
			if e.Pos == "" {
				if p, n, err := parsePos(msg); err == nil {
					if abs, err := filepath.Abs(p.Filename); err == nil {
						p.Filename = abs
					}
					posn = p
					msg = msg[n+2:]
				}
			} else {
				var err error
				posn, _, err = parsePos(e.Pos)
				if err != nil {
					// lintcmd panics here; say it instead.
					posn, msg = token.Position{}, e.Pos+": "+msg
				}
			}
			out = append(out, diagnostic{Diagnostic: runner.Diagnostic{Position: posn, Message: msg, Category: cat}})
		default:
			out = append(out, diagnostic{Diagnostic: runner.Diagnostic{Message: e.Error(), Category: "compile"}})
		}
	}
	return out
}

var posRe = lazyregexp.New(`^(?:(.+?):)?(\d+)(?::(\d+)?)?`)

func parsePos(pos string) (token.Position, int, error) {
	if pos == "-" || pos == "" {
		return token.Position{}, 0, nil
	}
	parts := posRe.FindStringSubmatch(pos)
	if parts == nil {
		return token.Position{}, 0, fmt.Errorf("malformed position %q", pos)
	}
	line, _ := strconv.Atoi(parts[2])
	col, _ := strconv.Atoi(parts[3])
	return token.Position{Filename: parts[1], Line: line, Column: col}, len(parts[0]), nil
}

// filterAnalyzerNames is lintcmd's: the analyzers (lower-case names) a
// -checks / staticcheck.conf list enables.
func filterAnalyzerNames(all []string, selection []string) map[string]bool {
	allowed := map[string]bool{}
	for _, check := range selection {
		b := true
		if len(check) > 1 && check[0] == '-' {
			b = false
			check = check[1:]
		}
		switch {
		case check == "*" || check == "all":
			for _, a := range all {
				allowed[a] = b
			}
		case strings.HasSuffix(check, "*"):
			prefix := check[:len(check)-1]
			isCat := strings.IndexFunc(prefix, unicode.IsNumber) == -1
			for _, a := range all {
				idx := strings.IndexFunc(a, unicode.IsNumber)
				if isCat {
					if idx >= 0 && prefix == a[:idx] || idx < 0 && prefix == a {
						allowed[a] = b
					}
				} else if strings.HasPrefix(a, prefix) {
					allowed[a] = b
				}
			}
		default:
			allowed[check] = b
		}
	}
	return allowed
}

// couldHaveMatched is lintcmd's test for reporting an unmatched
// //lint:ignore: the first of its checks that is U1000 (never reported) or
// an enabled analyzer decides.
func couldHaveMatched(ig *lintIgnore, allowed map[string]bool) bool {
	for _, c := range ig.checks {
		if c == "u1000" {
			return false
		}
		if allowed[c] {
			return true
		}
	}
	return false
}

// lintIgnore is a //lint:ignore (line) or //lint:file-ignore (file) directive.
type lintIgnore struct {
	file    string
	line    int // 0 for file-ignore
	checks  []string
	matched bool
	pos     token.Position
}

func (ig *lintIgnore) match(d diagnostic) bool {
	if d.Position.Filename != ig.file || ig.line != 0 && d.Position.Line != ig.line {
		return false
	}
	for _, c := range ig.checks {
		if m, _ := filepath.Match(c, strings.ToLower(d.Category)); m {
			if ig.line != 0 {
				ig.matched = true
			}
			return true
		}
	}
	return false
}

// filterIgnored is lintcmd's: the diagnostics a directive ignores get
// severity ignored; malformed directives and //lint:ignore lines that
// could have matched an enabled analyzer and matched nothing become
// findings.
func filterIgnored(diags []diagnostic, dirs []runner.SerializedDirective, allowed map[string]bool) []diagnostic {
	var ignores []*lintIgnore
	var more []diagnostic
	for _, dir := range dirs {
		switch dir.Command {
		case "ignore", "file-ignore":
		default:
			continue // unknown directive
		}
		if len(dir.Arguments) < 2 {
			more = append(more, diagnostic{Diagnostic: runner.Diagnostic{
				Position: dir.NodePosition,
				Message:  "malformed linter directive; missing the required reason field?",
				Category: "compile",
			}})
			continue
		}
		ig := &lintIgnore{file: dir.NodePosition.Filename, checks: lower(strings.Split(dir.Arguments[0], ","))}
		if dir.Command == "ignore" {
			ig.line, ig.pos = dir.NodePosition.Line, dir.DirectivePosition
		}
		ignores = append(ignores, ig)
	}
	for _, ig := range ignores {
		for i := range diags {
			if ig.match(diags[i]) {
				diags[i].Severity = severityIgnored
			}
		}
		if ig.line != 0 && !ig.matched && couldHaveMatched(ig, allowed) {
			more = append(more, diagnostic{Diagnostic: runner.Diagnostic{
				Position: ig.pos,
				Message:  "this linter directive didn't match anything; should it be removed?",
				Category: "staticcheck",
			}})
		}
	}
	return append(diags, more...)
}
