package vetdriver

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"log"
	"os"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/unitrun"
	"github.com/fencelint/fencelint/internal/hugeheap"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/gcexportdata"
)

// Config is the compilation unit go vet describes in its .cfg file
// (cmd/go/internal/work.vetConfig; the fields unitchecker reads, and
// PackageFile, which unitchecker ignores and this driver imports from).
type Config struct {
	ID            string
	ImportPath    string
	GoVersion     string
	GoFiles       []string
	NonGoFiles    []string
	IgnoredFiles  []string
	ModulePath    string
	ModuleVersion string
	Module        *analysis.Module  // from go1.27
	ImportMap     map[string]string // import path in source → package path
	PackageFile   map[string]string // package path → compiler export data, transitively
	PackageVetx   map[string]string // package path → vetx file, direct imports
	VetxOnly      bool
	VetxOutput    string
	Stdout        string
	// SucceedOnTypecheckFailure is never set by cmd/go 1.26 and unitchecker
	// v0.52 ignores it; so does this driver.
	SucceedOnTypecheckFailure bool
}

func readConfig(name string) (*Config, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	cfg := new(Config)
	if err := json.Unmarshal(data, cfg); err != nil {
		return nil, fmt.Errorf("cannot decode JSON config file %s: %v", name, err)
	}
	if len(cfg.GoFiles) == 0 {
		return nil, fmt.Errorf("package has no files: %s", cfg.ImportPath)
	}
	return cfg, nil
}

// run analyses the unit of cfgFile and returns the exit code, with
// unitchecker's conventions: 1 for a failed analysis or, in text mode, any
// diagnostic; facts-only runs (VetxOnly) report nothing.
func run(cfgFile string, opts *options, hooks Hooks, analyzers []*analysis.Analyzer) int {
	cfg, err := readConfig(cfgFile)
	if err != nil {
		log.Fatal(err)
	}
	if cfg.Stdout != "" {
		f, err := os.Create(cfg.Stdout)
		if err != nil {
			log.Fatal(err)
		}
		os.Stdout = f
	}

	fset := token.NewFileSet()
	parsed := map[string]*ast.File{}
	parse := func(name string, src []byte) (*ast.File, error) {
		if f, ok := parsed[name]; ok {
			return f, nil
		}
		var from any // the file, unless src is given
		if src != nil {
			from = src
		}
		// No analyzer reads the parser's object resolution (ast.Object):
		// go/types resolves identifiers itself, and skipping it saves
		// about a tenth of the parse.
		f, err := parser.ParseFile(fset, name, from, parser.ParseComments|parser.SkipObjectResolution)
		if err == nil {
			parsed[name] = f
		}
		return f, err
	}
	var bodies func(files []*ast.File) map[*ast.FuncDecl]bool
	if !opts.full && hooks.MayMatter != nil {
		u := unitOf(cfg, hooks.WeakFact != nil)
		u.ParseFile = parse
		// Only for a dependency (VetxOnly): go vet runs it only after the
		// compiler built it, so no type error can hide in a dropped body.
		// A package of the command line is vetted even when it does not
		// compile, and its type errors are the vet tool's to report.
		if hooks.Bodies != nil && cfg.VetxOnly {
			bodies = func(files []*ast.File) map[*ast.FuncDecl]bool {
				keep, err := hooks.Bodies(u, files)
				if err != nil {
					return nil // every body: the full path reports the error
				}
				return keep
			}
		}
		// An error (an unreadable file) means "may matter": the full path
		// then fails the way unitchecker does.
		if matters, err := hooks.MayMatter(u); !matters && err == nil {
			// Nothing here can report or export a fact of its own: answer
			// as the full path would for a package without findings.
			if cfg.VetxOutput != "" {
				if err := passOn(cfg, hooks); err != nil {
					log.Fatal(err)
				}
			}
			if !cfg.VetxOnly && opts.json {
				printJSON(token.NewFileSet(), cfg.ID, nil)
			}
			return 0
		}
	}

	// The unit will be type-checked and analysed: tens to hundreds of
	// megabytes of fresh heap in one short process, where page faults
	// are much of the cost (internal/hugeheap), and so is collecting.
	tuneUnitGC()
	hugeheap.Reserve(unitHeapReserve)
	results, err := analyse(fset, parse, cfg, hooks, analyzers, bodies)
	if err != nil {
		if cfg.VetxOnly {
			return 1
		}
		switch err.(type) {
		case types.Error, *scanner.Error, scanner.ErrorList:
			fmt.Fprintln(os.Stderr, err) // without the log prefix, as go vet expects
			return 1
		}
		log.Fatal(err)
	}
	if cfg.VetxOnly {
		return 0
	}
	if opts.json {
		printJSON(fset, cfg.ID, results)
		return 0
	}
	return printText(fset, opts.context, results)
}

// unitHeapReserve is the heap an analysed unit reserves with huge pages:
// above the largest unit's peak measured on temporal (about 180 MB
// resident); a larger unit's heap grows past it in ordinary pages.
const unitHeapReserve = 512 << 20

// tuneUnitGC sets the collector for one analysed unit: GOGC=400 under a
// soft limit of unitMemoryLimit. A unit's live heap is small next to what
// type-checking and building SSA allocate, so each collection frees most
// of the heap, and collecting a quarter as often cut a fifth of the
// analysed units' CPU on temporal (19.3 -> 15.5 s for 107 units) for a
// fifth more peak RSS (181 -> 223 MB, against 380-390 MB for the fact
// floor's largest process; docs/performance.md, run 16). The limit keeps
// a unit with a large live heap near where the default would put it. A
// user's GOGC or GOMEMLIMIT wins.
func tuneUnitGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(unitGCPercent)
	debug.SetMemoryLimit(unitMemoryLimit)
}

const (
	unitGCPercent   = 400
	unitMemoryLimit = 512 << 20
)

// unitOf is cfg as MayMatter sees it; weak is whether the driver was
// given Hooks.WeakFact (else every fact counts, and Calling is empty).
func unitOf(cfg *Config, weak bool) Unit {
	var imports []string
	for _, p := range cfg.ImportMap {
		imports = append(imports, p)
	}
	sort.Strings(imports)
	imports = slices.Compact(imports)
	headers := map[string]vetxHeader{}
	bad := map[string]bool{} // a missing or bad file: let the full path report it
	var calling []string
	for _, path := range imports {
		file, ok := cfg.PackageVetx[path]
		if !ok {
			bad[path] = path != "unsafe"
			continue
		}
		h, err := readVetxHeader(file)
		if err != nil {
			bad[path] = true
			continue
		}
		headers[path] = h
		if weak {
			calling = append(calling, h.Weak...)
		}
	}
	sort.Strings(calling)
	return Unit{
		ImportPath: cfg.ImportPath,
		Imports:    imports,
		ImportHasFacts: func(path string) bool {
			h, ok := headers[path]
			if !ok {
				return bad[path] || !slices.Contains(imports, path)
			}
			if weak {
				return h.Strong
			}
			return h.Facts
		},
		Calling: slices.Compact(calling),
		GoFiles: cfg.GoFiles,
	}
}

// passOn writes the vetx file of a unit MayMatter ruled out, from its
// direct imports' vetx files alone: no parse, no types. Without WeakFact
// there is nothing to write (every import's file is empty, or the unit
// would matter); with it, the file holds PassOn's package facts and the
// imports' facts about types, methods and fields (unitrun.PassOn: a
// superset of what the full path would re-export, which no analysed
// dependent can tell from it).
func passOn(cfg *Config, hooks Hooks) error {
	if hooks.WeakFact == nil {
		return writeVetx(cfg.VetxOutput, vetxHeader{}, nil)
	}
	var paths []string
	records := map[string]unitrun.Records{}
	for _, p := range cfg.ImportMap {
		if _, ok := records[p]; ok || p == "unsafe" {
			continue
		}
		file, ok := cfg.PackageVetx[p]
		if !ok {
			return fmt.Errorf("in %s, can't import facts for package %q: missing facts", cfg.ImportPath, p)
		}
		_, data, err := readVetx(file)
		if err != nil {
			return fmt.Errorf("invalid vetx file for %q: %v", p, err)
		}
		if records[p], err = unitrun.DecodeRecords(data); err != nil {
			return fmt.Errorf("decoding facts for %q: %v", p, err)
		}
		paths = append(paths, p)
	}
	sort.Strings(paths)

	var own []analysis.Fact
	if hooks.PassOn != nil {
		own = hooks.PassOn(cfg.ImportPath, paths, func(imp string) []analysis.Fact {
			return records[imp].PackageFacts(imp)
		})
	}
	imported := make([]unitrun.Records, len(paths))
	for i, p := range paths {
		imported[i] = records[p]
	}
	data, strong, weak := unitrun.PassOn(cfg.ImportPath, own, imported, hooks.WeakFact)
	return writeVetx(cfg.VetxOutput, vetxHeader{Facts: true, Strong: strong, Weak: weak}, data)
}

// headerOf is the vetx header of a unit's facts.
func headerOf(facts *unitrun.Facts, weak func(analysis.Fact) bool) vetxHeader {
	if weak == nil {
		return vetxHeader{Facts: true, Strong: true}
	}
	strong, _ := facts.Classify(unitrun.Own, weak)
	_, names := facts.Classify(unitrun.Vetx, weak)
	return vetxHeader{Facts: true, Strong: strong, Weak: names}
}

// result is one root analyzer's outcome.
type result struct {
	a           *analysis.Analyzer
	diagnostics []analysis.Diagnostic
	err         error
}

// analyse parses and type-checks the unit, with its dependencies' types
// from the compiler's export data, runs the analyzers, and writes the
// vetx file.
//
// parse is the unit's parser (shared with the relevance test); bodies,
// when not nil, selects the function bodies the analyzers can read
// (Hooks.Bodies); the others are type-checked as declarations only.
func analyse(fset *token.FileSet, parse func(name string, src []byte) (*ast.File, error), cfg *Config, hooks Hooks, analyzers []*analysis.Analyzer, bodies func([]*ast.File) map[*ast.FuncDecl]bool) ([]result, error) {
	var files []*ast.File
	for _, name := range cfg.GoFiles {
		f, err := parse(name, nil)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}

	byPath := exportDataImporter(fset, cfg)
	importer := importerFunc(func(importPath string) (*types.Package, error) {
		path, ok := cfg.ImportMap[importPath]
		if !ok {
			return nil, fmt.Errorf("can't resolve import %q", importPath)
		}
		return byPath(path)
	})
	tc := &types.Config{
		Importer:  importer,
		Sizes:     types.SizesFor("gc", build.Default.GOARCH),
		GoVersion: cfg.GoVersion,
	}
	var pkg *types.Package
	var info *types.Info
	if bodies != nil {
		pkg, info = checkBodies(tc, fset, cfg.ImportPath, files, bodies(files))
	}
	if pkg == nil {
		info = newInfo()
		var err error
		if pkg, err = tc.Check(cfg.ImportPath, fset, files, info); err != nil {
			return nil, err
		}
	}

	facts, err := decodeFacts(pkg, cfg.PackageVetx)
	if err != nil {
		return nil, err
	}

	// A facts-only run needs only the analyzers that declare facts and
	// what they require: no other analyzer can export one, and their
	// diagnostics would be discarded.
	if cfg.VetxOnly {
		analyzers = unitrun.FactProducers(analyzers)
	}

	module := cfg.Module
	if module == nil && cfg.ModulePath != "" {
		// cmd/go before 1.27 sends only the path and version.
		module = &analysis.Module{Path: cfg.ModulePath, Version: cfg.ModuleVersion, GoVersion: cfg.GoVersion}
	}
	unit := &unitrun.Unit{
		Fset: fset, Files: files, Pkg: pkg, Info: info, Sizes: tc.Sizes,
		OtherFiles: cfg.NonGoFiles, IgnoredFiles: cfg.IgnoredFiles,
		Module: module, Facts: facts,
		Report: func(a *analysis.Analyzer, d analysis.Diagnostic) analysis.Diagnostic {
			if err := validateFixes(fset, a, d.SuggestedFixes); err != nil {
				// The analyzer is wrong, not the code: keep the finding,
				// drop its fixes, and say why (the exit code is non-zero
				// anyway, as there is a diagnostic).
				log.Println(err)
				d.SuggestedFixes = nil
			}
			return d
		},
		Finish: func(a *analysis.Analyzer, diags []analysis.Diagnostic) error {
			var last error
			for i := range diags {
				url, err := resolveURL(a, diags[i])
				if err != nil {
					last = err // the last one wins, as in unitchecker
					continue
				}
				diags[i].URL = url
			}
			return last
		},
	}
	ran := unitrun.Run(unit, analyzers)

	var results []result
	if !cfg.VetxOnly {
		for _, r := range ran {
			results = append(results, result{r.Analyzer, r.Diagnostics, r.Err})
		}
	}
	if cfg.VetxOutput != "" {
		if err := writeVetx(cfg.VetxOutput, headerOf(facts, hooks.WeakFact), facts.Encode(unitrun.Vetx)); err != nil {
			return nil, fmt.Errorf("fact export failed: %v", err)
		}
	}
	return results, nil
}

func newInfo() *types.Info {
	return &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
}

// checkBodies type-checks files with the bodies of the function
// declarations keep leaves out dropped, and returns the package and its
// types. A dropped body can leave an import unused: that error, and only
// that one, is expected. On any other error it puts the bodies back and
// returns a nil package: the caller checks the unit whole, and fails as
// the full path would. With keep nil it does nothing.
func checkBodies(tc *types.Config, fset *token.FileSet, path string, files []*ast.File, keep map[*ast.FuncDecl]bool) (*types.Package, *types.Info) {
	if keep == nil {
		return nil, nil
	}
	dropped := map[*ast.FuncDecl]*ast.BlockStmt{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && !keep[fd] && mayDropBody(fd) {
				dropped[fd] = fd.Body
				fd.Body = nil
			}
		}
	}
	unexpected := false
	conf := *tc
	conf.Error = func(err error) {
		if te, ok := err.(types.Error); !ok || !te.Soft || !unusedImport(te.Msg) {
			unexpected = true
		}
	}
	info := newInfo()
	pkg, _ := conf.Check(path, fset, files, info)
	if unexpected {
		for fd, body := range dropped {
			fd.Body = body
		}
		return nil, nil
	}
	return pkg, info
}

// mayDropBody reports whether go/types accepts fd without its body: not
// an init function, nor a generic function or method.
func mayDropBody(fd *ast.FuncDecl) bool {
	if fd.Name.Name == "init" && fd.Recv == nil || fd.Type.TypeParams != nil {
		return false
	}
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		t := fd.Recv.List[0].Type
		if star, ok := t.(*ast.StarExpr); ok {
			t = star.X
		}
		switch ast.Unparen(t).(type) {
		case *ast.IndexExpr, *ast.IndexListExpr:
			return false
		}
	}
	return true
}

// unusedImport reports whether a go/types error message says an import
// is not used (`"fmt" imported and not used`, `"x/y" imported as z and
// not used`).
func unusedImport(msg string) bool {
	return strings.HasPrefix(msg, `"`) && strings.HasSuffix(msg, " and not used") &&
		(strings.Contains(msg, `" imported and`) || strings.Contains(msg, `" imported as `))
}

// decodeFacts reads the facts of pkg's direct imports from their vetx
// files, with go vet's semantics (unitrun.Facts): a fact is kept if its
// package is reachable from the direct imports' declarations.
func decodeFacts(pkg *types.Package, vetx map[string]string) (*unitrun.Facts, error) {
	facts := unitrun.NewFacts(pkg)
	for _, imp := range pkg.Imports() {
		file, ok := vetx[imp.Path()]
		if !ok {
			if imp.Path() == "unsafe" {
				continue
			}
			return nil, fmt.Errorf("in %s, can't import facts for package %q: missing facts", pkg.Path(), imp.Path())
		}
		_, data, err := readVetx(file)
		if err != nil {
			return nil, fmt.Errorf("invalid vetx file for %q: %v", imp.Path(), err)
		}
		if err := facts.Decode(data, facts.Reachable()); err != nil {
			return nil, fmt.Errorf("decoding facts for %q: %v", imp.Path(), err)
		}
	}
	return facts, nil
}

// exportDataImporter imports packages by package path from the compiler's
// export data the config lists (PackageFile), each read once: the
// importer of analyse's type-check.
func exportDataImporter(fset *token.FileSet, cfg *Config) func(path string) (*types.Package, error) {
	imported := make(map[string]*types.Package)
	return func(path string) (*types.Package, error) {
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		if pkg, ok := imported[path]; ok && pkg.Complete() {
			return pkg, nil
		}
		file, ok := cfg.PackageFile[path]
		if !ok {
			return nil, fmt.Errorf("no export data file for %q", path)
		}
		return readExportData(fset, imported, file, path)
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// readExportData imports path from the compiler's export data in file.
// Packages it refers to join imported, incomplete until imported
// themselves.
func readExportData(fset *token.FileSet, imported map[string]*types.Package, file, path string) (*types.Package, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := gcexportdata.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("reading export data for %q: %v", path, err)
	}
	return gcexportdata.Read(r, fset, imported, path)
}
