package vetdriver

import (
	"crypto/sha256"
	"encoding/gob"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"io"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/unitrun"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
)

// FullEnv names the environment variable that turns the fast path off:
// FENCELINT_FULL=1 type-checks and analyses every package, as unitchecker
// did. It is folded into the -V=full tool ID, so go vet does not replay
// results of one mode in the other.
const FullEnv = "FENCELINT_FULL"

// Unit is what the driver knows about a package before reading its source.
type Unit struct {
	ImportPath string
	// Imports are the package paths the config maps imports to (the
	// direct imports, and the few packages cgo's generated code imports).
	Imports []string
	// ImportHasFacts reports whether a direct import's vetx file carries
	// a fact that is not weak (Hooks.WeakFact) about the import's own
	// package or objects; with no WeakFact, any fact. It is true for an
	// import without a vetx file, except unsafe, so that the full path
	// reports the missing file as unitchecker does.
	ImportHasFacts func(path string) bool
	// Calling names the objects the direct imports' weak object facts
	// are about (their own and those they re-export), sorted: with
	// WeakFact, those facts matter to the unit only where it names one.
	Calling []string
	GoFiles []string
	// ParseFile parses one of GoFiles (src, when not nil, is its content)
	// as the driver will if the unit is analysed, and keeps the result for
	// it: a relevance test that needs some files' syntax shares the parse.
	ParseFile func(name string, src []byte) (*ast.File, error)
}

// Hooks are what the driver asks the analyzers' owner.
type Hooks struct {
	// MayMatter is the relevance test; nil analyses every package.
	MayMatter MayMatter
	// WeakFact, when set, tells the facts that alone do not make an
	// importer matter (see Unit.ImportHasFacts and Unit.Calling). A unit
	// MayMatter rules out then still writes the facts the full path would
	// give it: PassOn's package facts and the imported facts it would
	// re-export, read with its imports' types from export data.
	WeakFact func(analysis.Fact) bool
	// PassOn gives the package facts a unit MayMatter rules out exports
	// all the same, from its direct imports' package facts (fencelint's
	// ImplsFact). Required with WeakFact when a weak fact is a package
	// fact.
	PassOn func(path string, imports []string, packageFacts func(imp string) []analysis.Fact) []analysis.Fact
	// Bodies, when set, is asked about each unit MayMatter keeps, with
	// its parsed files: it returns the function declarations whose
	// bodies the analyzers can read in that unit, or nil when they may
	// read any. The driver then type-checks the other functions as
	// declarations only (as if written in assembly): for a package kept
	// for a few functions, most of the type-checking. Where that check
	// fails for any reason but the imports only the dropped bodies used,
	// the unit is checked again whole. Asked only about dependencies
	// (VetxOnly units), which go vet runs only once they compiled.
	Bodies func(u Unit, files []*ast.File) (map[*ast.FuncDecl]bool, error)
}

// MayMatter reports whether the analyzers could export a fact for u or
// report a diagnostic in it. It must never be false when they could: a
// false answer skips the package (no parsing, no type-checking, a vetx
// file without facts, no diagnostics).
type MayMatter func(u Unit) (bool, error)

// options are the driver's own flags (analysisflags' common set).
type options struct {
	json    bool
	context int
	fix     bool
	diff    bool
	full    bool
}

// Main is the go vet -vettool entry point for analyzers; see the package
// documentation. It does not return.
func Main(hooks Hooks, analyzers ...*analysis.Analyzer) {
	progname := filepath.Base(os.Args[0])
	log.SetFlags(0)
	log.SetPrefix(progname + ": ")
	if err := analysis.Validate(analyzers); err != nil {
		log.Fatal(err)
	}

	fs := flag.NewFlagSet(os.Args[0], flag.ExitOnError)
	opts := &options{context: -1, full: os.Getenv(FullEnv) == "1"}
	analyzers = parseFlags(fs, opts, analyzers, os.Args[1:])

	args := fs.Args()
	// -fix (go vet -fix, go fix -fixtool) and help go to unitchecker. go
	// vet passes -fix to every package of the run, dependencies included,
	// and its result cache keys on the flags, so a -fix run reads only
	// vetx files unitchecker wrote; applying and merging fixes is
	// unitchecker's code, and its cost is the old floor's.
	if opts.fix || len(args) > 0 && args[0] == "help" {
		unitchecker.Main(analyzers...) // re-parses os.Args; does not return
	}
	if len(args) == 0 {
		fmt.Fprintf(os.Stderr, "%[1]s is a go vet tool; run it as go vet -vettool=$(command -v %[1]s)\n", progname)
		os.Exit(1)
	}
	if len(args) != 1 || !strings.HasSuffix(args[0], ".cfg") {
		log.Fatalf(`invoking "go tool %[1]s" directly is unsupported; use "go %[1]s"`, progname)
	}
	os.Exit(run(args[0], opts, hooks, analyzers))
}

// parseFlags registers the flags unitchecker registers, under the same
// names, kinds and usage strings (go vet reads them with -flags and
// passes through only those it knows), parses args, handles -flags and
// -V=full, and returns the analyzers the -NAME flags select.
func parseFlags(fs *flag.FlagSet, opts *options, analyzers []*analysis.Analyzer, args []string) []*analysis.Analyzer {
	enabled := make(map[*analysis.Analyzer]*triState)
	for _, a := range analyzers {
		ts := new(triState)
		fs.Var(ts, a.Name, fmt.Sprintf("enable %q analysis", a.Name))
		enabled[a] = ts
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	printFlags := fs.Bool("flags", false, "print analyzer flags in JSON")
	fs.Var(versionFlag{full: opts.full}, "V", "print version and exit")
	fs.BoolVar(&opts.json, "json", false, "emit JSON output")
	fs.IntVar(&opts.context, "c", -1, "display offending line with this many lines of context")
	fs.BoolVar(&opts.fix, "fix", false, "apply all suggested fixes")
	fs.BoolVar(&opts.diff, "diff", false, "with -fix, don't update the files, but print a unified diff")
	// Legacy cmd/vet flags that unitchecker accepts and ignores.
	fs.Bool("source", false, "no effect (deprecated)")
	fs.Bool("v", false, "no effect (deprecated)")
	fs.Bool("all", false, "no effect (deprecated)")
	fs.String("tags", "", "no effect (deprecated)")

	fs.Parse(args) // exits on error

	if *printFlags {
		writeFlags(os.Stdout, fs)
		os.Exit(0)
	}

	// Register every fact type, also of deselected analyzers, so that gob
	// can decode any vetx file of the run.
	for a := range unitrun.Closure(analyzers) {
		for _, f := range a.FactTypes {
			gob.Register(f)
		}
	}

	// Any -NAME=true: only those; else any -NAME=false: all but those.
	var hasTrue, hasFalse bool
	for _, ts := range enabled {
		hasTrue = hasTrue || *ts == setTrue
		hasFalse = hasFalse || *ts == setFalse
	}
	if !hasTrue && !hasFalse {
		return analyzers
	}
	var keep []*analysis.Analyzer
	for _, a := range analyzers {
		if hasTrue && *enabled[a] == setTrue || !hasTrue && *enabled[a] != setFalse {
			keep = append(keep, a)
		}
	}
	return keep
}

// writeFlags prints go vet's flag description: every flag in name order
// but the ones that mean nothing under go vet, as an indented JSON array.
func writeFlags(w io.Writer, fs *flag.FlagSet) {
	type jsonFlag struct {
		Name  string
		Bool  bool
		Usage string
	}
	var flags []jsonFlag
	fs.VisitAll(func(f *flag.Flag) {
		switch f.Name {
		case "debug", "cpuprofile", "memprofile", "trace", "fix":
			return
		}
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		flags = append(flags, jsonFlag{f.Name, ok && b.IsBoolFlag(), f.Usage})
	})
	data, err := json.MarshalIndent(flags, "", "\t")
	if err != nil {
		log.Fatal(err)
	}
	w.Write(data)
}

// versionSalt, when set (by tests), is mixed into the tool ID so that a
// test's go vet runs cannot replay results cached by another run of the
// same binary.
var versionSalt string

// versionFlag answers go vet's -V=full, which keys its result cache: the
// line cmd/go parses ("NAME version devel ... buildID=ID", ID the content
// hash of the executable), as unitchecker prints it. With the fast path
// off the ID changes too: the two modes must not share cached results.
type versionFlag struct{ full bool }

func (versionFlag) IsBoolFlag() bool { return true }
func (versionFlag) String() string   { return "" }
func (v versionFlag) Set(s string) error {
	if s != "full" {
		log.Fatalf("unsupported flag value: -V=%s (use -V=full)", s)
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	f, err := os.Open(exe)
	if err != nil {
		log.Fatal(err)
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		log.Fatal(err)
	}
	f.Close()
	if v.full {
		io.WriteString(h, "\x00"+FullEnv+"=1")
	}
	if versionSalt != "" {
		io.WriteString(h, "\x00salt="+versionSalt)
	}
	fmt.Printf("%s version devel comments-go-here buildID=%x\n", exe, h.Sum(nil))
	os.Exit(0)
	return nil
}

// triState is a -NAME flag: a bool that knows whether it was given.
type triState int

const (
	unset triState = iota
	setTrue
	setFalse
)

func (ts *triState) IsBoolFlag() bool { return true }

func (ts *triState) Set(value string) error {
	b, err := strconv.ParseBool(value)
	if err != nil {
		return fmt.Errorf("want true or false")
	}
	if b {
		*ts = setTrue
	} else {
		*ts = setFalse
	}
	return nil
}

func (ts *triState) String() string {
	if ts != nil && *ts == setFalse {
		return "false"
	}
	return "true"
}
