package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/fencelint/fencelint/analyzer"
	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/analysis/lint"
	"honnef.co/go/tools/lintcmd"
	"honnef.co/go/tools/lintcmd/runner"
)

// Exit codes of the standalone CLI (documented in doc.go).
const (
	exitClean    = 0 // no finding that -fail selects
	exitFindings = 1 // findings
	exitFailure  = 2 // packages did not load or type-check, bad usage, or a fatal error
)

// fullEnv turns the fast paths off (go vet's and the standalone CLI's).
const fullEnv = "FENCELINT_FULL"

// homepage is the SARIF tool.driver.informationUri.
const homepage = "https://github.com/fencelint/fencelint"

// standalone runs the lintcmd (staticcheck) frontend with fencelint's
// analyzers and returns the process exit code.
func standalone(args []string) int {
	start := time.Now()
	cmd := newCommand()
	fs := cmd.FlagSet()
	list := fs.Bool("list", false, "List fencelint's analyzers (name and title) and exit")
	fix := fs.Bool("fix", false, "Apply the suggested fixes of the findings, then report the findings left unfixed")
	progress := fs.Bool("progress", false, "Print progress (packages loaded and analysed) to stderr; on by default when stderr is a terminal, -progress=false turns it off")
	fenceMapFormat := fs.String("fencemap", "", "Print the fence map of the packages instead of findings: what every lock protects, in `FORMAT` json, md, dot or mermaid (docs/fencemap.md)")
	blindSpots := fs.Bool("blindspots", false, "Print only the calls inside lock scopes fencelint could not see into, with the directive that would teach it (format from -fencemap, default md)")
	full := fs.Bool("full", os.Getenv(fullEnv) == "1", "Analyse every package, dependencies included: turn off the fast path that never loads a package that cannot matter (also "+fullEnv+"=1); the findings are the same")
	lifted := liftAnalyzerFlags(fs, analyzer.All)
	describeFlags(fs)
	cmd.ParseFlags(args) // flag.ExitOnError: a bad flag exits 2

	for _, name := range []string{"checks", "fail"} {
		if err := checkNames(name, flagValue(fs, name), analyzer.Names()); err != nil {
			fmt.Fprintln(os.Stderr, "fencelint:", err)
			return exitFailure
		}
	}

	switch {
	case *fenceMapFormat != "" || *blindSpots:
		return fenceMap(*fenceMapFormat, *blindSpots, fs.Args())
	case *list:
		listAnalyzers(os.Stdout, analyzer.All)
		return exitClean
	case flagValue(fs, "version") == "true" || flagValue(fs, "debug.version") == "true":
		printVersion(os.Stdout, flagValue(fs, "debug.version") == "true")
		return exitClean
	case flagValue(fs, "explain") != "":
		return explain(os.Stdout, os.Stderr, analyzer.All, flagValue(fs, "explain"))
	}
	if err := setCacheDir(fs, lifted, *full); err != nil {
		fmt.Fprintln(os.Stderr, "fencelint:", err)
		return exitFailure
	}

	format := flagValue(fs, "f")
	if flagValue(fs, "list-checks") == "true" || flagValue(fs, "merge") == "true" || format == "binary" {
		if *fix {
			fmt.Fprintln(os.Stderr, "fencelint: -fix needs a lint run: not with -merge, -f binary or -list-checks")
			return exitFailure
		}
		if format == "binary" && flagValue(fs, "list-checks") != "true" && flagValue(fs, "merge") != "true" && !*full && driverCannot(fs) == "" {
			// lintcmd's -f binary results, from the driver.
			return lintWithDriver(fs, lifted, os.Stdout, nil)
		}
		// Modes that print no fresh diagnostics (or, with -merge, only
		// lintcmd's own exit code): lintcmd's behaviour, our SARIF URLs.
		return executeFormatted(cmd, format, nil)
	}
	switch format {
	case "text", "stylish", "json", "sarif", "null":
	default:
		fmt.Fprintf(os.Stderr, "fencelint: unsupported output format %q (want text, stylish, json or sarif)\n", format)
		return exitFailure
	}
	opts := lintOptions{format: format, fix: *fix, full: *full, lifted: lifted, tty: isTerminal(os.Stderr), start: start}
	opts.progress = opts.tty
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "progress" {
			opts.progress = *progress
		}
	})
	return lintTwoPhase(cmd, fs, opts)
}

// lintOptions are the standalone run's choices beyond lintcmd's flags.
type lintOptions struct {
	format   string
	fix      bool      // apply suggested fixes between the phases
	full     bool      // no fast path: lintcmd loads every package itself
	lifted   []string  // the analyzers' flags (-NAME.FLAG), part of the driver's cache key
	progress bool      // show lintcmd's progress on stderr
	tty      bool      // stderr is a terminal
	start    time.Time // for the summary line
}

// buildSalt, set with -ldflags=-X main.buildSalt=..., makes a build's
// content (and so go vet's tool ID, a hash of the executable) unique. The
// end-to-end test uses it to miss go vet's result cache while keeping the
// compile cache warm.
var buildSalt string

func newCommand() *lintcmd.Command {
	cmd := lintcmd.NewCommand("fencelint")
	human, _ := buildVersion(debug.ReadBuildInfo())
	machine := human
	if buildSalt != "" {
		human += "+" + buildSalt
	}
	cmd.SetVersion(human, machine)
	cmd.AddAnalyzers(lintcmdAnalyzers(analyzer.All)...)
	return cmd
}

// lintcmdAnalyzers adapts the analyzers to lintcmd, which files each
// diagnostic under its Category (falling back to the analyzer's name only
// when Category is empty) and then keeps only categories that name an
// enabled check: a diagnostic with a sub-category such as "unfenced" would
// be dropped silently, and //lint:ignore, -checks and -fail match the
// category too. The copies clear Category before lintcmd sees it; go vet and
// other drivers still get the analyzers unchanged.
//
// Only the first analyzer reports ignores naming an unknown analyzer, and
// -checks may leave it out; so every other copy reports them too (cached
// results do not depend on -checks), and readResults keeps one of each.
func lintcmdAnalyzers(as []*lint.Analyzer) []*lint.Analyzer {
	out := make([]*lint.Analyzer, len(as))
	for i, la := range as {
		a := *la.Analyzer // shallow copy: same Requires, FactTypes, flag values
		run := la.Analyzer.Run
		first := i == 0
		a.Run = func(pass *analysis.Pass) (any, error) {
			report := pass.Report
			pass.Report = func(d analysis.Diagnostic) {
				d.Category = ""
				report(d)
			}
			res, err := run(pass)
			if err == nil && !first {
				for _, d := range analyzer.UnknownIgnores(pass) {
					pass.Report(d)
				}
			}
			return res, err
		}
		out[i] = &lint.Analyzer{Doc: la.Doc, Analyzer: &a}
	}
	return out
}

// lintTwoPhase separates "findings" from "packages did not load", which
// lintcmd reports with the same exit status 1: phase one lints with
// lintcmd's own `-f binary` output (gob, what `staticcheck -merge` reads),
// which we inspect for compile/config diagnostics; phase two feeds it to
// `-merge` in the requested format, exactly as `staticcheck -f binary |
// staticcheck -merge -f FORMAT` would. With fix, the suggested fixes of
// phase one's findings are applied in between and the fixed findings left
// out of phase two. Text and stylish output end with a summary line on
// stderr.
func lintTwoPhase(cmd *lintcmd.Command, fs *flag.FlagSet, opts lintOptions) int {
	format := opts.format
	dir, err := os.MkdirTemp("", "fencelint-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "fencelint:", err)
		return exitFailure
	}
	defer os.RemoveAll(dir)

	warnCgoSkipped(os.Stderr, listCgoSkipped(fs.Args(), flagValue(fs, "tags")))

	results, status := phaseOne(cmd, fs, opts, filepath.Join(dir, "results.gob"))
	if status != 0 {
		// Phase one printed why (go list failed, bad -tags, unusable cache, ...).
		return exitFailure
	}
	noCompile := flagValue(fs, "debug.no-compile-errors") == "true"
	loadErrors, badIgnores, err := tidyResults(results, noCompile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fencelint: reading lint results:", err)
		return exitFailure
	}
	mergePath := filepath.Join(dir, "merge.gob")
	if err := checkConfigNames(results); err != nil {
		fmt.Fprintln(os.Stderr, "fencelint:", err)
		return exitFailure
	}
	if opts.fix {
		if loadErrors > 0 {
			fmt.Fprintln(os.Stderr, "fencelint: -fix: applied no fix: packages did not load (reported below), so the findings are incomplete")
		} else {
			fixed, err := applyFixes(os.Stderr, results)
			if err != nil {
				fmt.Fprintln(os.Stderr, "fencelint: -fix:", err)
				return exitFailure
			}
			results = fixed
		}
	}
	if err := writeResults(mergePath, results); err != nil {
		fmt.Fprintln(os.Stderr, "fencelint: writing lint results:", err)
		return exitFailure
	}

	merge := newCommand()
	merge.ParseFlags([]string{
		"-merge",
		"-f", format,
		"-fail", strings.Trim(flagValue(fs, "fail"), `"`),
		"-show-ignored=" + flagValue(fs, "show-ignored"),
		"-debug.no-compile-errors=" + flagValue(fs, "debug.no-compile-errors"),
		mergePath,
	})
	status = executeFormatted(merge, format, func(run map[string]any) {
		if loadErrors > 0 {
			for _, inv := range asSlice(run["invocations"]) {
				if m, ok := inv.(map[string]any); ok {
					m["executionSuccessful"] = false
				}
			}
		}
	})
	if format == "text" || format == "stylish" {
		fmt.Fprintln(os.Stderr, summary(results, flagValue(fs, "show-ignored") == "true", time.Since(opts.start)))
	}
	if badIgnores > 0 {
		fmt.Fprintf(os.Stderr, "fencelint: %d //fencelint:ignore directive(s) name an unknown analyzer (reported above): a typo there disables nothing and suppresses nothing\n", badIgnores)
	}
	if loadErrors > 0 || badIgnores > 0 {
		return exitFailure
	}
	return status
}

// phaseOne returns the lint run's results as lintcmd's -f binary output
// carries them (relative paths, no position offsets) and lintcmd's status
// (non-zero after it printed why the run could not start): from
// fencelint's driver (driver.go), in memory, or, with -full or a flag only
// lintcmd's runner handles, from lintcmd itself, through its -f binary
// output in the file binPath.
func phaseOne(cmd *lintcmd.Command, fs *flag.FlagSet, opts lintOptions, binPath string) ([]lintResult, int) {
	if !opts.full && driverCannot(fs) == "" {
		var show func(string)
		if opts.progress {
			p := &progress{out: os.Stderr, tty: opts.tty}
			defer p.clear()
			var mu sync.Mutex
			show = func(msg string) {
				mu.Lock()
				defer mu.Unlock()
				p.show(msg)
			}
		}
		res, status := driverResult(fs, opts.lifted, show)
		if status != 0 {
			return nil, status
		}
		// Only the results are live now: give the driver's heap back
		// before phase two encodes them for -merge, so that the two
		// phases' heaps do not add up in the peak RSS.
		debug.FreeOSMemory()
		relativize(&res)
		return []lintResult{res}, 0
	}
	if err := fs.Set("f", "binary"); err != nil {
		panic(err) // lintcmd defines -f as a string flag
	}
	bin, err := os.Create(binPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fencelint:", err)
		return nil, exitFailure
	}
	execute := cmd.Execute
	if opts.progress {
		execute = func() int { return withProgress(os.Stderr, opts.tty, cmd.Execute) }
	}
	status := withStdout(bin, execute)
	if err := bin.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "fencelint:", err)
		return nil, exitFailure
	}
	if status != 0 {
		return nil, status
	}
	results, err := readResults(binPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fencelint: reading lint results:", err)
		return nil, exitFailure
	}
	return results, 0
}

// lintResult and diagnostic mirror the unexported types lintcmd gob-encodes
// in `-f binary` mode (honnef.co/go/tools v0.8.2 lintcmd/lint.go); gob
// matches fields by name.
type lintResult struct {
	CheckedFiles []string
	Diagnostics  []diagnostic
	Warnings     []string
}

type diagnostic struct {
	runner.Diagnostic
	Severity  uint8 // 0 error, 1 warning, 2 ignored
	MergeIf   lint.MergeStrategy
	BuildName string
}

const severityIgnored = 2

// readResults reads lintcmd's binary results from src, one per build
// configuration.
func readResults(src string) ([]lintResult, error) {
	in, err := os.Open(src)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	var results []lintResult
	br := bufio.NewReader(in)
	for {
		// lintcmd writes one self-contained gob stream per build
		// configuration, and reads them back with one decoder each.
		var res lintResult
		if err := gob.NewDecoder(br).Decode(&res); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, err
		}
		results = append(results, res)
	}
	return results, nil
}

// tidyResults counts the diagnostics that mean "this package did not load
// or type-check" (lintcmd's categories compile and config) and those on a
// //fencelint:ignore naming an unknown analyzer (a usage error), keeping
// one of each bad ignore, and makes the paths absolute again (-f binary
// makes them relative for cross-machine merging; the json and stylish
// formats print absolute paths when lintcmd lints directly).
func tidyResults(results []lintResult, noCompileErrors bool) (loadErrors, badIgnores int, err error) {
	cwd, err := os.Getwd()
	if err != nil {
		return 0, 0, err
	}
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(cwd, filepath.FromSlash(p))
	}
	counted := map[[2]string]bool{} // position and message of bad ignores
	for ri := range results {
		res := &results[ri]
		for i := range res.Diagnostics {
			d := &res.Diagnostics[i]
			switch d.Category {
			case "compile":
				if !noCompileErrors {
					loadErrors++
				}
			case "config":
				loadErrors++
			}
		}
		// Keep one finding per bad ignore: the one of the analyzer first
		// in contract order (unfencedwrite when it ran).
		keep := map[[2]string]int{}
		for i, d := range res.Diagnostics {
			if !strings.HasPrefix(d.Message, analyzer.UnknownIgnoreMessage) {
				continue
			}
			k := [2]string{d.Position.String(), d.Message}
			if j, ok := keep[k]; !ok || contractRank(d.Category) < contractRank(res.Diagnostics[j].Category) {
				keep[k] = i
			}
		}
		kept := res.Diagnostics[:0]
		for i, d := range res.Diagnostics {
			if strings.HasPrefix(d.Message, analyzer.UnknownIgnoreMessage) {
				k := [2]string{d.Position.String(), d.Message}
				if keep[k] != i {
					continue // the same directive, reported by another analyzer
				}
				if d.Severity != severityIgnored && !counted[k] {
					counted[k] = true
					badIgnores++
				}
			}
			kept = append(kept, d)
		}
		res.Diagnostics = kept
		for i := range res.Diagnostics {
			d := &res.Diagnostics[i]
			d.Position.Filename = abs(d.Position.Filename)
			d.End.Filename = abs(d.End.Filename)
			for j := range d.Related {
				d.Related[j].Position.Filename = abs(d.Related[j].Position.Filename)
				d.Related[j].End.Filename = abs(d.Related[j].End.Filename)
			}
			for j := range d.SuggestedFixes {
				for k := range d.SuggestedFixes[j].TextEdits {
					e := &d.SuggestedFixes[j].TextEdits[k]
					e.Position.Filename = abs(e.Position.Filename)
					e.End.Filename = abs(e.End.Filename)
				}
			}
		}
		for i, f := range res.CheckedFiles {
			res.CheckedFiles[i] = abs(f)
		}
	}
	return loadErrors, badIgnores, nil
}

// writeResults writes results to dst in lintcmd's binary format, one gob
// stream per build configuration, for -merge.
func writeResults(dst string, results []lintResult) error {
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	defer out.Close()
	for _, res := range results {
		if err := gob.NewEncoder(out).Encode(res); err != nil {
			return err
		}
	}
	return out.Close()
}

// contractRank is the index of the analyzer named name in analyzer.All.
func contractRank(name string) int {
	if i := slices.Index(analyzer.Names(), name); i >= 0 {
		return i
	}
	return len(analyzer.All)
}

// executeFormatted runs cmd. With -f sarif it captures the log and points
// each rule's helpUri at fencelint's documentation instead of the
// staticcheck.dev page lintcmd hard-codes; edit may adjust each run further.
// With -f json it adds each finding's docs URL (addJSONURLs).
func executeFormatted(cmd *lintcmd.Command, format string, edit func(run map[string]any)) int {
	if format != "sarif" && format != "json" {
		return cmd.Execute()
	}
	if format == "json" {
		// Line by line from the captured file: an 80,001-finding output
		// is 46 MB, which a buffer would hold whole and copy as it grows.
		// Severity first: its rewriter re-encodes each line, and would
		// drop the url field added after it.
		fixer := newJSONLineFixer(analyzer.All)
		status, err := captureStdout(cmd.Execute, func(r io.Reader) error { return fixer.copy(os.Stdout, r) })
		if err != nil {
			fmt.Fprintln(os.Stderr, "fencelint:", err)
			return exitFailure
		}
		return status
	}
	var buf bytes.Buffer
	status, err := captureStdout(cmd.Execute, func(r io.Reader) error {
		_, err := buf.ReadFrom(r)
		return err
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "fencelint:", err)
		return exitFailure
	}
	fixed, err := fixSARIF(buf.Bytes(), analyzer.All, edit)
	if err != nil {
		// Not a SARIF log (e.g. -version): pass it through unchanged.
		os.Stdout.Write(buf.Bytes())
		return status
	}
	os.Stdout.Write(fixed)
	return status
}

// fixSARIF rewrites a SARIF log written by lintcmd: rules' helpUri becomes
// the analyzer's URL (docs/NAME.md), the driver's informationUri our home
// page, and an absent results array an empty one (absent means "the tool
// did not run" in SARIF 2.1.0, section 3.14.23).
func fixSARIF(data []byte, as []*lint.Analyzer, edit func(run map[string]any)) ([]byte, error) {
	var log map[string]any
	if err := json.Unmarshal(data, &log); err != nil {
		return nil, err
	}
	runs, ok := log["runs"].([]any)
	if !ok {
		return nil, errors.New("SARIF log without runs")
	}
	urls := map[string]string{}
	for _, a := range as {
		urls[a.Analyzer.Name] = a.Analyzer.URL
	}
	for _, r := range runs {
		run, ok := r.(map[string]any)
		if !ok {
			continue
		}
		if tool, ok := run["tool"].(map[string]any); ok {
			if driver, ok := tool["driver"].(map[string]any); ok {
				driver["informationUri"] = homepage
				for _, rule := range asSlice(driver["rules"]) {
					if rule, ok := rule.(map[string]any); ok {
						if url, ok := urls[fmt.Sprint(rule["id"])]; ok {
							rule["helpUri"] = url
						}
					}
				}
			}
		}
		if _, ok := run["results"]; !ok {
			run["results"] = []any{}
		}
		if edit != nil {
			edit(run)
		}
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(log); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// jsonDiagnostic is one line of lintcmd's -f json output, fields in its
// order.
type jsonDiagnostic struct {
	Code     string          `json:"code"`
	Severity string          `json:"severity,omitempty"`
	Location json.RawMessage `json:"location"`
	End      json.RawMessage `json:"end"`
	Message  string          `json:"message"`
	Related  json.RawMessage `json:"related,omitempty"`
}

// fixJSONSeverity sets the severity of each analyzer's findings in
// lintcmd's JSON lines to the analyzer's documented severity, the level
// SARIF gives its rule ("warning" for every fencelint analyzer). lintcmd
// writes "error" for the analyzers in -fail and "warning" for the rest, so
// the two formats disagreed; -fail decides the exit status, not the
// severity. Other codes (compile, config, staticcheck) keep lintcmd's
// value. Lines that do not decode pass through unchanged.
func fixJSONSeverity(data []byte, as []*lint.Analyzer) []byte {
	level := map[string]string{}
	for _, a := range as {
		level[a.Analyzer.Name] = severityLevel(a.Doc.Severity)
	}
	var out bytes.Buffer
	for line := range bytes.Lines(data) {
		var d jsonDiagnostic
		if json.Unmarshal(line, &d) != nil || level[d.Code] == "" {
			out.Write(line)
			continue
		}
		d.Severity = level[d.Code]
		enc := json.NewEncoder(&out) // Encode ends the line
		if enc.Encode(d) != nil {
			out.Write(line)
		}
	}
	return out.Bytes()
}

// severityLevel is the SARIF level lintcmd gives a rule of this severity.
func severityLevel(s lint.Severity) string {
	switch s {
	case lint.SeverityError:
		return "error"
	case lint.SeverityInfo, lint.SeverityHint:
		return "note"
	default:
		return "warning"
	}
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

// withStdout runs fn with os.Stdout replaced by f: lintcmd's formatters
// write to whatever os.Stdout is when they run.
func withStdout(f *os.File, fn func() int) int {
	old := os.Stdout
	os.Stdout = f
	defer func() { os.Stdout = old }()
	return fn()
}

// captureStdout runs fn with os.Stdout going to a temporary file, then
// hands use that file's contents from the start.
func captureStdout(fn func() int, use func(io.Reader) error) (int, error) {
	f, err := os.CreateTemp("", "fencelint-stdout-")
	if err != nil {
		return 0, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	status := withStdout(f, fn)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return status, err
	}
	return status, use(f)
}

// liftAnalyzerFlags exposes each analyzer's own flags, and those of the
// analyzers it requires (the engine's -fencelint_fence.allfuncs), which
// lintcmd ignores, as -NAME.FLAG (go vet's spelling), sharing the
// analyzer's flag.Value. It returns the lifted names.
func liftAnalyzerFlags(fs *flag.FlagSet, as []*lint.Analyzer) []string {
	var names []string
	seen := map[*analysis.Analyzer]bool{}
	var lift func(a *analysis.Analyzer)
	lift = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		a.Flags.VisitAll(func(f *flag.Flag) {
			name := a.Name + "." + f.Name
			usage := f.Usage
			if strings.HasPrefix(a.Name, "fencelint_") {
				usage = "(shared engine) " + usage
			}
			fs.Var(f.Value, name, usage)
			names = append(names, name)
		})
		for _, r := range a.Requires {
			lift(r)
		}
	}
	for _, a := range as {
		lift(a.Analyzer)
	}
	return names
}

// setCacheDir points lintcmd's result cache (STATICCHECK_CACHE) at
// <user cache dir>/fencelint unless the user chose a directory. lintcmd's
// cache key covers the binary, the package and staticcheck.conf but not
// analyzer flags, so runs with analyzer flags set use a subdirectory keyed
// by their values.
func setCacheDir(fs *flag.FlagSet, lifted []string, full bool) error {
	dir := os.Getenv("STATICCHECK_CACHE")
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil // lintcmd reports the missing cache directory itself
		}
		dir = filepath.Join(base, "fencelint")
	}
	var set []string
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains(lifted, f.Name) {
			set = append(set, f.Name+"="+f.Value.String())
		}
	})
	if len(set) > 0 {
		slices.Sort(set)
		sum := sha256.Sum256([]byte(strings.Join(set, "\n")))
		dir = filepath.Join(dir, "flags-"+hex.EncodeToString(sum[:8]))
	}
	if full {
		// lintcmd's runner keeps its own entries: the full path is the
		// reference the fast path is compared with, and its cache stays
		// apart from the driver's (whose keys differ anyway).
		dir = filepath.Join(dir, "full")
	}
	return os.Setenv("STATICCHECK_CACHE", dir)
}

func listAnalyzers(w io.Writer, as []*lint.Analyzer) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, a := range as {
		fmt.Fprintf(tw, "%s\t%s\n", a.Analyzer.Name, a.Doc.Compile().Title)
	}
	tw.Flush()
}

func explain(stdout, stderr io.Writer, as []*lint.Analyzer, name string) int {
	for _, a := range as {
		if strings.EqualFold(a.Analyzer.Name, name) {
			fmt.Fprint(stdout, a.Doc.Compile().String())
			fmt.Fprintf(stdout, "\nOnline documentation\n    %s\n", a.Analyzer.URL)
			return exitClean
		}
	}
	fmt.Fprintf(stderr, "fencelint: -explain: unknown analyzer %q%s (fencelint -list shows them)\n", name, didYouMean(name))
	return exitFailure
}

func didYouMean(name string) string {
	if s := analyzer.Suggest(name); s != "" {
		return "; did you mean " + s + "?"
	}
	return ""
}

// checkNames checks the analyzer list of -checks or -fail (value as
// lintcmd's list flag prints it: quoted, comma-separated). lintcmd ignores
// names that match no analyzer, so a typo ran nothing (-checks) or failed
// on nothing (-fail) and exited 0. Accepted: all, * and inherit, a
// known name or a glob (path.Match syntax) matching one, each optionally
// negated with a leading -. An empty -checks runs nothing and is refused;
// an empty -fail (findings never fail the run) is allowed.
func checkNames(flagName, value string, known []string) error {
	value = strings.Trim(value, `"`)
	if value == "" {
		if flagName == "checks" {
			return fmt.Errorf("-checks is empty: it would run no analyzer (fencelint -list shows them)")
		}
		return nil
	}
	for elem := range strings.SplitSeq(value, ",") {
		name := strings.TrimPrefix(strings.TrimSpace(elem), "-")
		switch name {
		case "all", "*", "inherit":
			continue
		case "":
			return fmt.Errorf("-%s=%s: empty analyzer name", flagName, value)
		}
		matched := false
		for _, k := range known {
			if ok, err := path.Match(strings.ToLower(name), k); err == nil && ok {
				matched = true
				break
			}
		}
		if !matched {
			return fmt.Errorf("-%s: unknown analyzer %q%s (fencelint -list shows them)", flagName, name, didYouMean(name))
		}
	}
	return nil
}

func flagValue(fs *flag.FlagSet, name string) string {
	if f := fs.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}
