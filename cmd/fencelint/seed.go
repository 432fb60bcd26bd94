package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fencelint/fencelint/analyzer"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
	"honnef.co/go/tools/analysis/lint"
	"honnef.co/go/tools/analysis/report"
	"honnef.co/go/tools/config"
	"honnef.co/go/tools/go/buildid"
	"honnef.co/go/tools/go/loader"
	"honnef.co/go/tools/lintcmd/cache"
	"honnef.co/go/tools/lintcmd/runner"
)

// The standalone fast path.
//
// lintcmd's runner analyses every package of the build, dependencies
// included, because fencelint's engine declares facts: each one is parsed
// and type-checked from source (its imports from export data) before the
// engine runs on it, unless the runner finds the package's results in its
// cache. The runner's cache is content-addressed by an action ID computed
// from the package's build ID (go list -export), lintcmd's configuration,
// the analyzers' names, the binary's build ID and the hashes of the direct
// dependencies' fact files (vetx). For a package that cannot matter (the
// engine's relevance test, fence.MayBeRelevant, the go vet driver's) the
// runner's result is known without loading it: no facts (an empty vetx
// file) and, for a package named on the command line, no diagnostics and
// only its //lint: directives. So before lintcmd runs, seedCache computes
// those action IDs, dependencies first, and puts exactly those entries in
// lintcmd's cache; lintcmd then finds them and never loads these packages.
// Everything else (relevant packages, output formats, ignores, -checks,
// -fail, exit codes, -fix) is lintcmd's run unchanged.
//
// The action IDs are lintcmd v0.8.2's (lintcmd/runner.(*subrunner).do);
// TestSeedMatchesLintcmd checks, over the codebases of the identity test,
// that every entry seedCache would write is byte for byte the entry a full
// lintcmd run writes under the same ID. Should the computation drift from
// lintcmd's (a new staticcheck version), the IDs would simply miss and
// lintcmd would analyse those packages itself: slower, never different.

// debugSeeds (FENCELINT_DEBUG_SEED=2) lists the packages the relevance
// test keeps.
var debugSeeds = os.Getenv("FENCELINT_DEBUG_SEED") == "2"

// seedOptions are what lintcmd's run depends on that the seeds must match.
type seedOptions struct {
	patterns  []string
	tests     bool     // -tests
	tags      string   // -tags
	goVersion string   // -go, unquoted ("module" by default)
	checks    []string // -checks
	analyzers []*lint.Analyzer
	// verify compares instead of writing: every entry that would be
	// seeded must already be in the cache with the same content (after a
	// full run).
	verify bool
}

// seedStats counts what seedCache did.
type seedStats struct {
	packages int      // packages in the graph
	cached   int      // whose entries lintcmd's cache had already
	seeded   int      // irrelevant, entries written now
	verified int      // (verify) irrelevant, entries equal to lintcmd's
	problems []string // (verify) entries that differ
}

type seedState struct {
	known    bool // the vetx entry exists (or was written, or is guessed empty): its hash is known
	vetxHash [cache.HashSize]byte
	hasFacts bool
}

type seeder struct {
	opts     seedOptions
	c        cache.Cache
	cfg      config.Config // lintcmd's configuration, merged into each package's
	names    string        // the analyzers' names as the runner hashes them
	godebug  string
	roots    map[*loader.PackageSpec]bool
	state    map[*loader.PackageSpec]*seedState
	stats    seedStats
	firstErr error
}

// seedCache pre-fills lintcmd's cache with the results of the packages of
// opts.patterns that cannot matter (see above). Errors leave the cache as
// it was or partly seeded, both of which lintcmd handles: seeds are only
// ever entries lintcmd itself would write.
func seedCache(opts seedOptions) (seedStats, error) {
	salt, err := lintcmdSalt()
	if err != nil {
		return seedStats{}, err
	}
	c, err := cache.Default()
	if err != nil {
		return seedStats{}, err
	}
	// lintcmd sets the same salt (the binary's build ID) when it starts.
	cache.SetSalt(salt)

	cfg := &packages.Config{Tests: opts.tests, Env: os.Environ()}
	if opts.tags != "" {
		cfg.BuildFlags = []string{"-tags", opts.tags}
	}
	roots, err := loader.Graph(cfg, opts.patterns...)
	if err != nil {
		return seedStats{}, err
	}
	s := &seeder{
		opts:    opts,
		c:       c,
		cfg:     config.Config{Checks: opts.checks},
		names:   runnerAnalyzerNames(opts.analyzers),
		godebug: os.Getenv("GODEBUG"),
		roots:   map[*loader.PackageSpec]bool{},
		state:   map[*loader.PackageSpec]*seedState{},
	}
	for _, r := range roots {
		s.roots[r] = true
	}
	for _, r := range roots {
		s.visit(r)
	}
	s.stats.packages = len(s.state)
	return s.stats, s.firstErr
}

// lintcmdSalt is the salt lintcmd gives its cache: the executable's Go
// build ID, or the SHA-256 of the executable when it has none.
func lintcmdSalt() ([]byte, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	if id, err := buildid.ReadFile(exe); err == nil {
		return []byte(id), nil
	}
	f, err := os.Open(exe)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// runnerAnalyzerNames is the runner's analyzer list as it hashes it: every
// analyzer and, transitively, what it requires, each object once, the
// names sorted and joined with commas.
func runnerAnalyzerNames(as []*lint.Analyzer) string {
	seen := map[*analysis.Analyzer]bool{}
	var names []string
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		names = append(names, a.Name)
		for _, r := range a.Requires {
			visit(r)
		}
	}
	for _, a := range as {
		visit(a.Analyzer)
	}
	sort.Strings(names)
	return strings.Join(names, ",")
}

// visit decides p after its dependencies and seeds it when it cannot
// matter.
func (s *seeder) visit(p *loader.PackageSpec) *seedState {
	if st, ok := s.state[p]; ok {
		return st
	}
	st := &seedState{}
	s.state[p] = st
	if len(p.Errors) > 0 {
		return st // lintcmd reports it and never looks in its cache
	}
	deps := make([]*loader.PackageSpec, 0, len(p.Imports))
	for _, d := range p.Imports {
		deps = append(deps, d)
	}
	sort.Slice(deps, func(i, j int) bool { return deps[i].ID < deps[j].ID })
	known := true
	for _, d := range deps {
		if !s.visit(d).known {
			known = false
		}
	}
	if !known {
		return st // its action ID depends on facts only lintcmd will compute
	}

	id := s.actionID(p, deps)
	root := s.roots[p]
	vetxID, resultsID := cache.Subkey(id, "vetx"), cache.Subkey(id, "results")
	vetxFile, vetxEntry, vetxErr := cache.GetFile(s.c, vetxID)
	if vetxErr == nil {
		if err := st.setVetx(vetxFile, vetxEntry.Size); err != nil {
			s.fail(err)
			return st
		}
	}
	var resultsErr error
	if root {
		_, _, resultsErr = cache.GetFile(s.c, resultsID)
	}
	if vetxErr == nil && resultsErr == nil && !s.opts.verify {
		s.stats.cached++
		return st
	}

	if !s.seedable(p, deps) {
		st.guessEmpty()
		return st
	}
	// The runner's vetx file carries the facts of every dependency, not
	// only the package's own: it is empty only if the direct imports' are.
	imports := make([]string, 0, len(deps))
	for _, d := range deps {
		if s.state[d].hasFacts {
			return st
		}
		imports = append(imports, d.PkgPath)
	}
	relevant, err := analyzer.MayMatter(p.PkgPath, imports, func(string) bool { return false }, packageFiles(p))
	if err != nil || relevant {
		if debugSeeds {
			fmt.Fprintf(os.Stderr, "fencelint: fast path: %s may matter (%v)\n", p.ID, err)
		}
		st.guessEmpty()
		return st
	}
	var results []byte
	if root {
		if results, err = resultsData(p); err != nil {
			return st // the loader will report it
		}
	}

	if s.opts.verify {
		s.verifyEntries(p, vetxErr, vetxEntry.Size, root, resultsID, results)
		return st
	}
	if vetxErr != nil {
		out, _, err := s.c.Put(vetxID, bytes.NewReader(nil))
		if err != nil {
			s.fail(err)
			return st
		}
		if err := st.setVetx(s.c.OutputFile(out), 0); err != nil {
			s.fail(err)
			return st
		}
	} else if st.hasFacts {
		return st // facts that the relevance test says cannot be: leave it to lintcmd
	}
	if root && resultsErr != nil {
		if _, _, err := s.c.Put(resultsID, bytes.NewReader(results)); err != nil {
			s.fail(err)
			return st
		}
	}
	s.stats.seeded++
	return st
}

// guessEmpty lets the dependents of a package lintcmd will analyse be
// seeded on the guess that it will find no facts (most packages the
// relevance test keeps have none): their action IDs then name an empty
// vetx file. If the guess is wrong, lintcmd computes other IDs for them,
// never reads these entries, and analyses them itself.
func (st *seedState) guessEmpty() {
	if !st.known {
		st.known, st.vetxHash, st.hasFacts = true, sha256.Sum256(nil), false
	}
}

func (st *seedState) setVetx(file string, size int64) error {
	h, err := cache.FileHash(file)
	if err != nil {
		return err
	}
	st.known, st.vetxHash, st.hasFacts = true, h, size > 0
	return nil
}

func (s *seeder) fail(err error) {
	if s.firstErr == nil {
		s.firstErr = err
	}
}

// actionID is the runner's action ID of p: the package's hash, the
// configuration without its checks (the runner always runs every
// analyzer), the analyzers, the Go version, GODEBUG and the hashes of the
// direct dependencies' vetx files, in the order of their IDs.
func (s *seeder) actionID(p *loader.PackageSpec, deps []*loader.PackageSpec) cache.ActionID {
	cfg := p.Config.Merge(s.cfg)
	cfg.Checks = nil
	h := cache.NewHash("staticcheck " + p.PkgPath)
	fmt.Fprintf(h, "cfg %#v\n", cfg)
	fmt.Fprintf(h, "pkg %x\n", p.Hash)
	fmt.Fprintf(h, "analyzers %s\n", s.names)
	fmt.Fprintf(h, "go %s\n", s.opts.goVersion)
	fmt.Fprintf(h, "env godebug %q\n", s.godebug)
	for _, d := range deps {
		fmt.Fprintf(h, "vetout %q %x\n", d.PkgPath, s.state[d].vetxHash)
	}
	return cache.ActionID(h.Sum())
}

// seedable reports whether the loader would load p without failing, so
// that an empty result is the runner's: p has files (or is unsafe), none
// over the loader's size limit, and every import has export data.
func (s *seeder) seedable(p *loader.PackageSpec, deps []*loader.PackageSpec) bool {
	if len(p.CompiledGoFiles) == 0 && p.PkgPath != "unsafe" {
		return false
	}
	for _, d := range deps {
		if d.PkgPath != "unsafe" && d.ExportFile == "" {
			return false
		}
	}
	for _, f := range p.CompiledGoFiles {
		fi, err := os.Stat(f)
		if err != nil || fi.Size() >= loader.MaxFileSize {
			return false
		}
	}
	return true
}

// packageFiles is every Go file of p the relevance scan reads: those the
// type checker would see and the originals of cgo files.
func packageFiles(p *loader.PackageSpec) []string {
	files := slices.Clone(p.CompiledGoFiles)
	for _, f := range p.GoFiles {
		if !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	return files
}

// resultsData is the runner's results entry for a package on the command
// line that reports nothing: its //lint: directives, parsed as the loader
// parses the files (only files containing one can have one), and no
// diagnostics.
func resultsData(p *loader.PackageSpec) ([]byte, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range p.CompiledGoFiles {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		if !bytes.Contains(src, []byte("//lint:")) {
			continue
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	var out runner.ResultData
	dirs := lint.ParseDirectives(files, fset)
	out.Directives = make([]runner.SerializedDirective, len(dirs))
	for i, d := range dirs {
		out.Directives[i] = runner.SerializedDirective{
			Command:           d.Command,
			Arguments:         d.Arguments,
			DirectivePosition: report.DisplayPosition(fset, d.Directive.Pos()),
			NodePosition:      report.DisplayPosition(fset, d.Node.Pos()),
		}
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// verifyEntries checks, after a full lintcmd run, that what visit would
// seed for p is what the runner wrote: an empty vetx file and, for a root,
// the same results (directives compared as a set: the runner collects
// them from a map, in no fixed order).
func (s *seeder) verifyEntries(p *loader.PackageSpec, vetxErr error, vetxSize int64, root bool, resultsID cache.ActionID, want []byte) {
	problem := func(format string, args ...any) {
		s.stats.problems = append(s.stats.problems, p.ID+": "+fmt.Sprintf(format, args...))
	}
	switch {
	case vetxErr != nil:
		problem("no vetx entry under the computed action ID: %v", vetxErr)
		return
	case vetxSize != 0:
		problem("vetx has %d bytes of facts, the relevance test says none", vetxSize)
		return
	}
	if root {
		got, _, err := cache.GetBytes(s.c, resultsID)
		if err != nil {
			problem("no results entry under the computed action ID: %v", err)
			return
		}
		if !bytes.Equal(got, want) {
			g, errG := decodeResults(got)
			w, errW := decodeResults(want)
			if errG != nil || errW != nil || g != w {
				problem("results differ:\nlintcmd: %s\nseed:    %s", g, w)
				return
			}
		}
	}
	s.stats.verified++
}

// decodeResults renders a results entry with its directives sorted.
func decodeResults(data []byte) (string, error) {
	var r runner.ResultData
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&r); err != nil {
		return "", err
	}
	var lines []string
	for _, d := range r.Directives {
		lines = append(lines, fmt.Sprintf("%#v", d))
	}
	slices.Sort(lines)
	return fmt.Sprintf("directives %q diagnostics %#v unused %#v", lines, r.Diagnostics, r.Unused), nil
}

// verifySeedEnv, for the tests only, makes a lint run compare what it
// would seed with the entries already in the cache (written by a full run
// of the same binary with the same flags) and print the outcome instead of
// linting: one line "verified N seeded-candidates, M packages", then one
// line per problem; exit status 1 when there are problems.
const verifySeedEnv = "FENCELINT_TEST_VERIFY_SEEDS"

func verifySeeds(fs *flag.FlagSet) int {
	st, err := seedFromFlags(fs.Args(), func(name string) string { return flagValue(fs, name) }, true)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fencelint:", err)
		return exitFailure
	}
	fmt.Printf("verified %d of %d packages\n", st.verified, st.packages)
	for _, p := range st.problems {
		fmt.Println(p)
	}
	if len(st.problems) > 0 {
		return exitFindings
	}
	return exitClean
}

// seedFromFlags runs seedCache with the options lintcmd parsed from fs.
func seedFromFlags(fsArgs []string, flag func(string) string, verify bool) (seedStats, error) {
	if flag("matrix") == "true" {
		return seedStats{}, errors.New("not with -matrix")
	}
	goVersion, err := strconv.Unquote(flag("go"))
	if err != nil {
		goVersion = flag("go")
	}
	var checks []string
	if v := strings.Trim(flag("checks"), `"`); v != "" {
		for _, c := range strings.Split(v, ",") {
			checks = append(checks, strings.TrimSpace(c))
		}
	}
	patterns := fsArgs
	return seedCache(seedOptions{
		patterns:  patterns,
		tests:     flag("tests") == "true",
		tags:      flag("tags"),
		goVersion: goVersion,
		checks:    checks,
		analyzers: lintcmdAnalyzers(analyzer.All),
		verify:    verify,
	})
}
