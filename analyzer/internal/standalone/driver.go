// Package standalone is the standalone CLI's driver: it analyses the
// packages of a pattern, dependencies first, as staticcheck's lintcmd
// runner would, but never loads from source a package that cannot matter.
//
// lintcmd's runner parses and type-checks every package of the build from
// source, dependencies and the standard library included, whenever an
// analyzer declares facts, and offers no hook to skip one. This driver
// takes the runner's place in the CLI's first phase (the CLI hands its
// results to lintcmd's -merge for formatting, filtering and exit codes):
//
//   - The package graph is lintcmd's own (honnef.co/go/tools/go/loader's
//     Graph: go list -e -export -deps [-test]), so the packages, their
//     staticcheck.conf, load errors and hashes are the ones lintcmd sees,
//     and every dependency comes with compiler export data.
//   - Packages run dependencies first, GOMAXPROCS at a time. Before
//     loading a package the driver asks MayMatter, from the package's
//     import paths, whether each direct import carries facts, and a scan
//     of its files, whether the analyzers could export a fact for it or
//     report in it (the go vet driver's question, answered by the engine's
//     relevance test). A package that cannot matter is neither parsed nor
//     type-checked: it exports no facts and, when named on the command
//     line, reports nothing but its //lint: directives (which lintcmd
//     matches its ignores against), read from the files that have one.
//   - A package that may matter is loaded as the runner loads it
//     (loader.Load: parsed from source, imports from export data, the same
//     Go version, sizes and errors) and analysed by unitrun, the go vet
//     driver's per-unit analysis, with the Pass lintcmd builds: no Module,
//     diagnostics filed under the analyzer's name when they have no
//     category. It sees the facts lintcmd's runner would give it: the own
//     facts of every package of its import closure that it can name
//     (lintcmd's fact files carry a package's whole closure), kept in
//     memory as each package's own facts.
//   - Results are cached per package in lintcmd's cache directory, keyed
//     by the tool's build ID (the cache salt), the package's hash as the
//     loader computes it (its files and its imports' export data), the
//     configuration, Go version, GODEBUG, the analyzers and their flags,
//     and the fact hashes of its dependencies' closures: a warm run
//     replays every package without reading its source.
//
// What cannot show, compared with the runner: a package that cannot
// matter is not type-checked, so a type error that go/types finds and the
// compiler (which go list -export runs) does not is not reported there.
package standalone

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/fencelint/fencelint/analyzer/internal/unitrun"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
	"honnef.co/go/tools/analysis/lint"
	"honnef.co/go/tools/analysis/report"
	"honnef.co/go/tools/config"
	"honnef.co/go/tools/go/loader"
	"honnef.co/go/tools/lintcmd/cache"
	"honnef.co/go/tools/lintcmd/runner"
)

// debugAnalysed (FENCELINT_DEBUG_DRIVER=2) lists the packages the
// relevance test keeps, as they are analysed.
var debugAnalysed = os.Getenv("FENCELINT_DEBUG_DRIVER") == "2"

// MayMatter reports whether the analyzers could export a fact for the
// package path (direct imports imports, files its Go files) or report in
// it; importHasFacts tells whether a direct import carries facts. It must
// never be false when they could.
// calling names the functions and methods that facts the driver was told
// are weak (Options.WeakFact) are about, in the package's import closure:
// those facts make the package matter only where its files call one.
type MayMatter func(path string, imports []string, importHasFacts func(string) bool, calling []string, files []string) (bool, error)

// Options configure a run.
type Options struct {
	Dir       string // where go list runs; "" is the working directory
	Patterns  []string
	Tests     bool     // lintcmd's -tests
	Tags      string   // lintcmd's -tags (already validated)
	GoVersion string   // lintcmd's -go: "module" or "go1.N"
	Checks    []string // lintcmd's -checks, merged into each package's configuration
	// Analyzers are run as lintcmd runs them: all of them (and what they
	// require) on the packages named on the command line, those that
	// declare facts on the others.
	Analyzers []*analysis.Analyzer
	// MayMatter is the relevance test; nil analyses every package (the
	// fast path off).
	MayMatter MayMatter
	// WeakFact, when set, tells the facts that alone do not make an
	// importer matter (fencelint's NoReturn-only facts and ImplsFact):
	// importHasFacts then counts an import only when its own facts (the
	// ones lintcmd's semantics give its importers; re-exports are not
	// made) include one that is not weak, and MayMatter is given the
	// names of the objects the weak object facts are about.
	WeakFact func(analysis.Fact) bool
	// PassOn, when set, gives the package facts a package MayMatter
	// rules out exports all the same, from the package facts of its
	// direct imports (what the analyzers pass on for a package they do not
	// analyse: fencelint's ImplsFact). The driver records them as the
	// package's own facts, as if it had been analysed.
	PassOn func(path string, imports []string, packageFacts func(imp string) []analysis.Fact) []analysis.Fact
	// Cache, when set, keeps each package's results; Salt is mixed into
	// every key (analyzer flag values: the tool's build ID is the cache
	// package's own salt).
	Cache cache.Cache
	Salt  string
	// Progress, when set, is called as packages finish.
	Progress func(Stats)
}

// Result is one package's outcome, as lintcmd's runner.Result and the
// results it caches describe it.
type Result struct {
	Package *loader.PackageSpec
	Config  config.Config // the package's configuration merged with Options.Checks
	Initial bool          // named on the command line
	Skipped bool          // no syntax (no Go files, or one over the loader's size limit)
	Failed  bool          // did not load or type-check, or a dependency did
	Errors  []error       // why, for the package that failed itself

	// For initial packages that did not fail, Load returns what the
	// runner would: their diagnostics and //lint: directives.
	load func() (entry, error)
}

// Load returns the diagnostics and //lint: directives of an initial
// package that did not fail (nothing for others). They are read from the
// cache when there is one, as lintcmd's runner reads its results back:
// a run does not hold every package's diagnostics while it analyses the
// others (which would raise the heap, and so the peak RSS, of lock-heavy
// runs with many findings).
func (r Result) Load() ([]runner.Diagnostic, []runner.SerializedDirective, error) {
	if r.load == nil {
		return nil, nil, nil
	}
	e, err := r.load()
	if err != nil {
		return nil, nil, fmt.Errorf("failed loading result of %s: %w", r.Package, err)
	}
	return e.Diagnostics, e.Directives, nil
}

// Stats count what a run did.
type Stats struct {
	Packages, Initial int // in the graph
	Done, InitialDone int
	Cached            int // replayed from the cache
	Analysed          int // loaded from source and analysed
	Irrelevant        int // ruled out by MayMatter: never parsed as Go
	// Findings counts the diagnostics of the packages analysed so far
	// (not of those replayed from the cache): the results the run will
	// hold once it is done.
	Findings int
}

// Run loads the graph of opts.Patterns and analyses it. The error is for
// a graph that does not load at all (go list failed); a package's own
// problems are in its Result.
func Run(opts Options) ([]Result, Stats, error) {
	cfg := &packages.Config{Dir: opts.Dir, Tests: opts.Tests, Env: os.Environ()}
	if opts.Tags != "" {
		cfg.BuildFlags = []string{"-tags", opts.Tags}
	}
	roots, err := loader.Graph(cfg, opts.Patterns...)
	if err != nil {
		return nil, Stats{}, err
	}
	d := newDriver(opts, roots)
	d.run()
	return d.results(), d.snapshot(), nil
}

// node is one package of the run.
type node struct {
	spec    *loader.PackageSpec
	initial bool
	deps    []*node // sorted by ID
	users   []*node
	pending atomic.Int32

	// Set when the node runs; read by dependents after it finished.
	failed      bool
	errors      []error
	skipped     bool
	cfg         config.Config
	ownFacts    []byte   // this package's own facts (unitrun.Own encoding)
	hasFacts    bool     // without WeakFact, go vet's view (its vetx file would not be empty); with it, it has own facts
	strongFacts bool     // hasFacts, not counting Options.WeakFact's facts
	weakNames   []string // own weak facts' object names (cached with them)
	calling     []string // weakNames of the whole import closure, sorted
	closureHash [32]byte // of the own facts of its import closure
	diagnostics []runner.Diagnostic
	found       int // len(diagnostics) when analysed, kept after store drops them
	directives  []runner.SerializedDirective
	results     cache.ActionID // when set, diagnostics and directives are in the cache under it
}

type driver struct {
	opts      Options
	nodes     []*node // in graph order, roots' closures
	producers []*analysis.Analyzer
	all       []*analysis.Analyzer // opts.Analyzers and what they require, sorted by name
	names     string               // their names, for the cache key
	godebug   string

	mu    sync.Mutex
	stats Stats
}

func newDriver(opts Options, roots []*loader.PackageSpec) *driver {
	d := &driver{opts: opts, godebug: os.Getenv("GODEBUG")}
	for a := range unitrun.Closure(opts.Analyzers) {
		d.all = append(d.all, a)
	}
	sort.Slice(d.all, func(i, j int) bool { return d.all[i].Name < d.all[j].Name })
	for _, a := range d.all {
		d.names += a.Name + ","
		for _, f := range a.FactTypes {
			gob.Register(f)
		}
	}
	d.producers = unitrun.FactProducers(opts.Analyzers)

	// The graph of lintcmd's runner: a package with load errors fails and
	// its imports are not visited (unless another package reaches them);
	// a package fails when a dependency does.
	bySpec := map[*loader.PackageSpec]*node{}
	var visit func(s *loader.PackageSpec) *node
	visit = func(s *loader.PackageSpec) *node {
		if n, ok := bySpec[s]; ok {
			return n
		}
		n := &node{spec: s}
		bySpec[s] = n
		if len(s.Errors) > 0 {
			n.failed = true
			for _, e := range s.Errors {
				n.errors = append(n.errors, e)
			}
		} else {
			seen := map[*loader.PackageSpec]bool{}
			for _, imp := range s.Imports {
				if seen[imp] {
					continue
				}
				seen[imp] = true
				dn := visit(imp)
				n.deps = append(n.deps, dn)
				dn.users = append(dn.users, n)
			}
			sort.Slice(n.deps, func(i, j int) bool { return n.deps[i].spec.ID < n.deps[j].spec.ID })
		}
		n.pending.Store(int32(len(n.deps)))
		d.nodes = append(d.nodes, n)
		return n
	}
	for _, r := range roots {
		visit(r).initial = true
	}
	d.stats.Packages = len(d.nodes)
	for _, n := range d.nodes {
		if n.initial {
			d.stats.Initial++
		}
	}
	return d
}

// run executes the graph: a package starts when its last dependency
// finishes, GOMAXPROCS packages at a time (d.nodes is in dependency
// order, so the ready ones are started in that order).
func (d *driver) run() {
	workers := max(1, runtime.GOMAXPROCS(0))
	queue := make(chan *node, len(d.nodes))
	for _, n := range d.nodes {
		if len(n.deps) == 0 {
			queue <- n
		}
	}
	var wg sync.WaitGroup
	var left atomic.Int32
	left.Store(int32(len(d.nodes)))
	if len(d.nodes) == 0 {
		close(queue)
	}
	for range workers {
		wg.Go(func() {
			for n := range queue {
				d.do(n)
				for _, u := range n.users {
					if u.pending.Add(-1) == 0 {
						queue <- u
					}
				}
				if left.Add(-1) == 0 {
					close(queue)
				}
			}
		})
	}
	wg.Wait()
}

func (d *driver) finish(n *node, how *int) {
	d.mu.Lock()
	d.stats.Done++
	d.stats.Findings += n.found
	if n.initial {
		d.stats.InitialDone++
	}
	if how != nil {
		*how++
	}
	st := d.stats
	d.mu.Unlock()
	if d.opts.Progress != nil {
		d.opts.Progress(st)
	}
}

func (d *driver) snapshot() Stats {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.stats
}

// do runs one package.
func (d *driver) do(n *node) {
	n.cfg = n.spec.Config.Merge(config.Config{Checks: d.opts.Checks})
	for _, dep := range n.deps {
		if dep.failed {
			n.failed = true // the dependency reports why
		}
	}
	if n.failed {
		d.finish(n, nil)
		return
	}

	if d.opts.WeakFact != nil {
		n.calling = callingOf(n)
	}
	key := d.key(n)
	if d.replay(n, key) {
		d.finish(n, &d.stats.Cached)
		return
	}
	how := &d.stats.Analysed
	if d.irrelevant(n) {
		how = &d.stats.Irrelevant
		if err := d.passOn(n); err != nil {
			n.failed, n.errors = true, []error{err}
		}
		if n.initial && !n.failed {
			dirs, err := directivesOnly(n.spec)
			if err != nil {
				// The loader would fail on it too: let it say how.
				how = &d.stats.Analysed
				d.analyse(n)
			} else {
				n.directives = dirs
			}
		}
	} else {
		d.analyse(n)
	}
	n.closureHash = d.closureHash(n)
	if !n.failed {
		d.store(n, key)
	}
	if debugAnalysed && how == &d.stats.Analysed {
		fmt.Fprintf(os.Stderr, "fencelint: analysed %s (own facts %d bytes, facts for importers %t, strong %t)\n", n.spec.ID, len(n.ownFacts), n.hasFacts, n.strongFacts)
	}
	d.finish(n, how)
}

// irrelevant reports whether n can be skipped: MayMatter rules it out, and
// the loader would load it without failing or skipping it (it has files,
// none over the size limit, and every import has export data), so that
// "no facts, no diagnostics" is what the runner would have found.
func (d *driver) irrelevant(n *node) bool {
	if d.opts.MayMatter == nil {
		return false
	}
	s := n.spec
	if len(s.CompiledGoFiles) == 0 && s.PkgPath != "unsafe" {
		return false
	}
	for _, f := range s.CompiledGoFiles {
		fi, err := os.Stat(f)
		if err != nil || fi.Size() >= loader.MaxFileSize {
			return false
		}
	}
	imports := make([]string, 0, len(n.deps))
	hasFacts := map[string]bool{}
	for _, dep := range n.deps {
		if dep.spec.PkgPath != "unsafe" && dep.spec.ExportFile == "" {
			return false
		}
		imports = append(imports, dep.spec.PkgPath)
		has := dep.hasFacts
		if d.opts.WeakFact != nil {
			has = dep.strongFacts
		}
		hasFacts[dep.spec.PkgPath] = hasFacts[dep.spec.PkgPath] || has
	}
	matters, err := d.opts.MayMatter(s.PkgPath, imports, func(path string) bool { return hasFacts[path] }, n.calling, packageFiles(s))
	return err == nil && !matters
}

// passOn records, as the own facts of n (which irrelevant ruled out), the
// package facts Options.PassOn derives from its direct imports'.
func (d *driver) passOn(n *node) error {
	if d.opts.PassOn == nil {
		return nil
	}
	imports := make([]string, 0, len(n.deps))
	byPath := map[string]*node{}
	for _, dep := range n.deps {
		imports = append(imports, dep.spec.PkgPath)
		byPath[dep.spec.PkgPath] = dep
	}
	var decodeErr error
	facts := d.opts.PassOn(n.spec.PkgPath, imports, func(imp string) []analysis.Fact {
		dep := byPath[imp]
		if dep == nil {
			return nil
		}
		fs, err := unitrun.PackageFactsIn(dep.ownFacts, imp)
		if err != nil && decodeErr == nil {
			decodeErr = fmt.Errorf("failed loading cached facts of %s: %w", imp, err)
		}
		return fs
	})
	if decodeErr != nil {
		return decodeErr
	}
	n.ownFacts = unitrun.EncodePackageFacts(n.spec.PkgPath, facts)
	n.hasFacts = len(facts) > 0
	for _, f := range facts {
		if d.opts.WeakFact == nil || !d.opts.WeakFact(f) {
			n.strongFacts = true
		}
	}
	return nil
}

// packageFiles is every Go file of s the relevance scan reads: those the
// type checker would see and the originals of cgo files.
func packageFiles(s *loader.PackageSpec) []string {
	files := slices.Clone(s.CompiledGoFiles)
	for _, f := range s.GoFiles {
		if !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	return files
}

// analyse loads n from source as lintcmd's runner does and runs the
// analyzers: all of them on an initial package, the fact producers on a
// dependency.
func (d *driver) analyse(n *node) {
	pkg, _, err := loader.Load(n.spec, &loader.Options{GoVersion: d.opts.GoVersion})
	if err != nil {
		// A failure to load (export data, a type error: the loader returns
		// the type checker's first error), reported as the runner does.
		n.failed, n.errors = true, []error{err}
		return
	}
	if len(pkg.Errors) > 0 {
		n.failed = true
		for _, e := range pkg.Errors {
			n.errors = append(n.errors, e)
		}
		return
	}
	if len(pkg.Syntax) == 0 && pkg.PkgPath != "unsafe" {
		n.skipped = true // over the loader's size limit: loaded from export data
		return
	}

	facts := unitrun.NewFacts(pkg.Types)
	visible := unitrun.PackagePaths(pkg.Types)
	lookup := func(path string) *types.Package { return visible[path] }
	var decodeErr error
	for _, q := range closure(n) {
		if len(q.ownFacts) == 0 {
			continue
		}
		if err := facts.Decode(q.ownFacts, lookup); err != nil && decodeErr == nil {
			decodeErr = fmt.Errorf("failed loading cached facts of %s: %w", q.spec.PkgPath, err)
		}
	}
	if decodeErr != nil {
		n.failed, n.errors = true, []error{decodeErr}
		return
	}

	analyzers := d.producers
	if n.initial {
		analyzers = d.all
	}
	unit := &unitrun.Unit{
		Fset: pkg.Fset, Files: pkg.Syntax, OtherFiles: pkg.OtherFiles,
		Pkg: pkg.Types, Info: pkg.TypesInfo, Sizes: pkg.TypesSizes,
		Module: nil, // lintcmd's runner does not set it
		Facts:  facts,
	}
	results := unitrun.Run(unit, analyzers)
	if n.initial {
		// Every analyzer's diagnostics, also of one that then failed: the
		// runner keeps them and drops the error.
		for _, r := range results {
			for _, diag := range r.Diagnostics {
				n.diagnostics = append(n.diagnostics, convert(pkg.Fset, r.Analyzer, diag))
			}
		}
		n.found = len(n.diagnostics)
		n.directives = serializeDirectives(lint.ParseDirectives(withLintComment(pkg.Syntax), pkg.Fset), pkg.Fset)
	}
	n.ownFacts = facts.Encode(unitrun.Own)
	if d.opts.WeakFact == nil {
		n.hasFacts = facts.Any(unitrun.Vetx)
		return
	}
	// Under lintcmd's semantics an importer sees each package's own facts
	// (the closure's, not re-exported ones), so a package's own facts
	// alone decide what it means to its importers.
	n.strongFacts, n.weakNames = facts.Classify(unitrun.Own, d.opts.WeakFact)
	n.hasFacts = len(n.ownFacts) > 0
	n.calling = mergeNames(n.calling, n.weakNames)
}

// callingOf is the union of the weak facts' object names of n's direct
// imports' closures: what a package that n names no function of cannot
// call.
func callingOf(n *node) []string {
	var out []string
	for _, dep := range n.deps {
		out = mergeNames(out, dep.calling)
	}
	return out
}

// mergeNames is the sorted union of two sorted lists without repeats; it
// returns one of them when the other adds nothing.
func mergeNames(a, b []string) []string {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([]string, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	if len(out) == len(a) {
		return a
	}
	return out
}

// closure is n's import closure, n left out.
func closure(n *node) []*node {
	seen := map[*node]bool{n: true}
	var out []*node
	var visit func(*node)
	visit = func(m *node) {
		for _, dep := range m.deps {
			if !seen[dep] {
				seen[dep] = true
				out = append(out, dep)
				visit(dep)
			}
		}
	}
	visit(n)
	return out
}

// convert is the runner's form of a diagnostic (runner.go, Report).
func convert(fset *token.FileSet, a *analysis.Analyzer, diag analysis.Diagnostic) runner.Diagnostic {
	if diag.Category == "" {
		diag.Category = a.Name
	}
	d := runner.Diagnostic{
		Position: report.DisplayPosition(fset, diag.Pos),
		End:      report.DisplayPosition(fset, diag.End),
		Category: diag.Category,
		Message:  diag.Message,
	}
	for _, sugg := range diag.SuggestedFixes {
		s := runner.SuggestedFix{Message: sugg.Message}
		for _, edit := range sugg.TextEdits {
			s.TextEdits = append(s.TextEdits, runner.TextEdit{
				Position: report.DisplayPosition(fset, edit.Pos),
				End:      report.DisplayPosition(fset, edit.End),
				NewText:  edit.NewText,
			})
		}
		d.SuggestedFixes = append(d.SuggestedFixes, s)
	}
	for _, rel := range diag.Related {
		d.Related = append(d.Related, runner.RelatedInformation{
			Position: report.DisplayPosition(fset, rel.Pos),
			End:      report.DisplayPosition(fset, rel.End),
			Message:  rel.Message,
		})
	}
	return d
}

func serializeDirectives(dirs []lint.Directive, fset *token.FileSet) []runner.SerializedDirective {
	out := make([]runner.SerializedDirective, len(dirs))
	for i, dir := range dirs {
		out[i] = runner.SerializedDirective{
			Command:           dir.Command,
			Arguments:         dir.Arguments,
			DirectivePosition: report.DisplayPosition(fset, dir.Directive.Pos()),
			NodePosition:      report.DisplayPosition(fset, dir.Node.Pos()),
		}
	}
	return out
}

// withLintComment returns the files that have a comment starting
// "//lint:", the only ones lint.ParseDirectives can find a directive in.
// It builds a comment map of every file it is given (an AST walk and a
// sort per file): on the gen100k benchmark that was 6% of all the bytes
// the run allocated and 0.6 s of CPU, for no directive at all.
func withLintComment(files []*ast.File) []*ast.File {
	var out []*ast.File
	for _, f := range files {
	search:
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//lint:") {
					out = append(out, f)
					break search
				}
			}
		}
	}
	return out
}

// directivesOnly is what the runner records for an initial package that
// reports nothing: its //lint: directives, parsed as the loader parses the
// files (only files containing one can have one).
func directivesOnly(s *loader.PackageSpec) ([]runner.SerializedDirective, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range s.CompiledGoFiles {
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
	return serializeDirectives(lint.ParseDirectives(files, fset), fset), nil
}

// closureHash hashes the own facts of n and of its import closure
// (through its dependencies' closure hashes): what an importer's analysis
// can see of them.
func (d *driver) closureHash(n *node) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "own %x\n", sha256.Sum256(n.ownFacts))
	for _, dep := range n.deps {
		fmt.Fprintf(h, "dep %q %x\n", dep.spec.ID, dep.closureHash)
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// key is n's cache key (see the package documentation). The cache's salt
// is the binary's build ID.
func (d *driver) key(n *node) cache.ActionID {
	h := cache.NewHash("fencelint standalone " + n.spec.PkgPath)
	cfg := n.cfg
	cfg.Checks = nil // applied to the results, not part of them
	fmt.Fprintf(h, "cfg %#v\n", cfg)
	fmt.Fprintf(h, "pkg %x\n", n.spec.Hash)
	fmt.Fprintf(h, "analyzers %s\n", d.names)
	fmt.Fprintf(h, "salt %q\n", d.opts.Salt)
	fmt.Fprintf(h, "go %s\n", d.opts.GoVersion)
	fmt.Fprintf(h, "env godebug %q\n", d.godebug)
	fmt.Fprintf(h, "relevance %t, weak facts %t, pass on %t\n", d.opts.MayMatter != nil, d.opts.WeakFact != nil, d.opts.PassOn != nil)
	for _, dep := range n.deps {
		fmt.Fprintf(h, "dep %q %x\n", dep.spec.ID, dep.closureHash)
	}
	return cache.ActionID(h.Sum())
}

// entry is what the cache keeps of a package: its facts and, for an
// initial package, what it reports.
type entry struct {
	OwnFacts    []byte
	HasFacts    bool
	StrongFacts bool
	WeakNames   []string
	Skipped     bool
	Diagnostics []runner.Diagnostic
	Directives  []runner.SerializedDirective
}

func (d *driver) replay(n *node, key cache.ActionID) bool {
	if d.opts.Cache == nil {
		return false
	}
	var e entry
	data, _, err := cache.GetBytes(d.opts.Cache, cache.Subkey(key, "facts"))
	if err != nil || gob.NewDecoder(bytes.NewReader(data)).Decode(&e) != nil {
		return false
	}
	if n.initial {
		id := cache.Subkey(key, "results")
		if _, _, err := cache.GetFile(d.opts.Cache, id); err != nil {
			return false
		}
		n.results = id // read back by Result.Load
	}
	n.ownFacts, n.hasFacts, n.skipped = e.OwnFacts, e.HasFacts, e.Skipped
	n.strongFacts, n.weakNames = e.StrongFacts, e.WeakNames
	n.calling = mergeNames(n.calling, n.weakNames)
	n.closureHash = d.closureHash(n)
	return true
}

func (d *driver) store(n *node, key cache.ActionID) {
	if d.opts.Cache == nil {
		return
	}
	put := func(kind string, e entry) error {
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(e); err != nil {
			return err
		}
		return cache.PutBytes(d.opts.Cache, cache.Subkey(key, kind), buf.Bytes())
	}
	if n.initial {
		if err := put("results", entry{Diagnostics: n.diagnostics, Directives: n.directives}); err == nil {
			// Read back by Result.Load; until then only the cache holds them.
			n.results = cache.Subkey(key, "results")
			n.diagnostics, n.directives = nil, nil
		}
	}
	// A failed write costs the next run time, not correctness.
	_ = put("facts", entry{OwnFacts: n.ownFacts, HasFacts: n.hasFacts, StrongFacts: n.strongFacts, WeakNames: n.weakNames, Skipped: n.skipped})
}

// loader returns what Result.Load reads for n: its results entry in the
// cache, or what it holds itself (no cache, or the entry could not be
// written).
func (d *driver) loader(n *node) func() (entry, error) {
	if n.results == (cache.ActionID{}) {
		e := entry{Diagnostics: n.diagnostics, Directives: n.directives}
		return func() (entry, error) { return e, nil }
	}
	id := n.results
	return func() (entry, error) {
		var e entry
		data, _, err := cache.GetBytes(d.opts.Cache, id)
		if err == nil {
			err = gob.NewDecoder(bytes.NewReader(data)).Decode(&e)
		}
		return e, err
	}
}

// results lists every package's outcome, in graph order.
func (d *driver) results() []Result {
	out := make([]Result, 0, len(d.nodes))
	for _, n := range d.nodes {
		r := Result{
			Package: n.spec, Config: n.cfg, Initial: n.initial,
			Skipped: n.skipped, Failed: n.failed,
		}
		if n.failed {
			r.Errors = n.errors
		} else if n.initial {
			r.load = d.loader(n)
		}
		out = append(out, r)
	}
	return out
}
