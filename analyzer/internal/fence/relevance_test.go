package fence

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
)

func TestTypeDeclMayBeLease(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"package p\ntype Lease struct{ Token int64 }\n", true},
		{"package p\ntype myLock struct{}\n", false}, // no field LeaseOf could take for a token or expiry
		{"package p\ntype myLock struct{ expiresAt int64 }\n", true},
		{"package p\ntype goroutineLock uint64\n", false},               // net/http's: no struct
		{"package p\ntype XLock *other.T\n", false},                     // a pointer type has no fields
		{"package p\ntype XLock other.T\n", true},                       // other.T may be a struct
		{"package p\ntype XLock [4]int\n", true},                        // an array or type parameters: not told apart
		{"package p\ntype TTableLock = struct{ Token int64 }\n", false}, // an alias of an unnamed struct
		{"package p\ntype TTableLock = struct{ A int }\ntype TableLock = TTableLock\n", false},
		{"package p\ntype X = YLock\n", true}, // YLock declared where the scan cannot see
		{"package p\ntype X = *YLock\ntype YLock struct{ Fence int64 }\n", true},
		{"package p\ntype X = YLock\ntype YLock struct{ n int }\n", false},
		{"package p\ntype (\n\tA = (BLock)\n\tCLease struct{ Until int64 }\n)\n", true},
		{"package p\ntype (\n\ta int\n\tXLock uint32\n\tBLease struct{ ValidUntil int64 }\n)\n", true},
		{"package p\ntype (\n\ta int\n\tXLock uint32\n\tBLease struct{ n int }\n)\n", false},
		{"package p\ntype (\n\ta int\n\tSessionGrant struct{ Until int }\n)\n", true},
		{"package p\ntype (\n\ta int\n\tb struct{ x, y int }\n)\ntype c[T any] struct{ v T }\ntype D c[int]\n", false},
		{"package p\ntype X = other.BigLease\n", true},       // an alias: LeaseOf looks at the target
		{"package p\ntype X[T any] = other.Lock[T]\n", true}, // a generic alias
		{"package p\ntype X other.BigLease\n", false},        // a defined type: its own name counts
		{"package p\nfunc f(mu interface{ Lock() }) { mu.Lock(); switch any(mu).(type) {} }\n", false},
		{"package p\nfunc f() { type heldLock struct{ Token int }; _ = heldLock{} }\n", true}, // local: over-approximated
		{"package p\nfunc f() { type heldLock struct{}; _ = heldLock{} }\n", false},
		{"package p\ntype (", false},
	} {
		if got := typeDeclMayBeLease([]byte(c.src)); got != c.want {
			t.Errorf("typeDeclMayBeLease(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}

// The scan over-approximates the engine's answer (declaresLease over the
// type-checked package): never false where the engine says true, and
// false on the shapes that made std and real dependencies relevant for
// nothing (a Lock-suffixed integer, an alias of an unnamed struct, a
// lease-suffixed struct with no token or expiry field).
func TestPackageMayDeclareLeaseCoversEngine(t *testing.T) {
	for _, c := range []struct {
		srcs      []string
		wantExact bool // the scan must also be false where the engine is
	}{
		{[]string{"package p\ntype Lease struct{ Token int64 }\n"}, true},
		{[]string{"package p\ntype goroutineLock uint64\n"}, true},
		{[]string{"package p\ntype T struct{ A int }\ntype TLock = T\n"}, true},
		{[]string{"package p\ntype TTableLock = struct{ A int }\n", "package p\ntype TableLock = TTableLock\n"}, true},
		{[]string{"package p\ntype X = YLock\n", "package p\ntype YLock struct{ Revision uint64 }\n"}, true},
		{[]string{"package p\ntype X = *YLock\n", "package p\ntype YLock struct{ leaseDeadline int64 }\n"}, true},
		{[]string{"package p\ntype RetentionLease struct{ ID string; RetainingSequenceNumber int64 }\n"}, true},
		{[]string{"package p\ntype base struct{ Epoch int32 }\ntype MyLock base\n"}, false},
		{[]string{"package p\ntype MyGrant[T any] struct{ Generation T }\n"}, false},
		{[]string{"package p\ntype MyLock [2]int\n"}, false},
		{[]string{"package p\ntype S struct{ Until int64 }\ntype (\n\tA = S\n\tBLock = A\n)\n"}, true},
	} {
		fset := token.NewFileSet()
		var files []*ast.File
		var srcs [][]byte
		for i, src := range c.srcs {
			f, err := parser.ParseFile(fset, fmt.Sprintf("f%d.go", i), src, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
			srcs = append(srcs, []byte(src))
		}
		pkg, err := new(types.Config).Check("p", fset, files, nil)
		if err != nil {
			t.Fatalf("%q: %v", c.srcs, err)
		}
		engine, scan := declaresLease(pkg), packageMayDeclareLease(srcs)
		if engine && !scan {
			t.Errorf("%q: the engine finds a lease, the scan does not", c.srcs)
		}
		if c.wantExact && scan != engine {
			t.Errorf("%q: scan %v, engine %v", c.srcs, scan, engine)
		}
	}
}

func TestMayBeRelevant(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := write("plain.go", "package p\n\nimport \"sync\"\n\nvar mu sync.Mutex\n\nfunc f() { mu.Lock(); mu.Unlock() }\n")
	lease := write("lease.go", "package p\n\ntype Lease struct{ Token int64 }\n")
	dir1 := write("dir.go", "package p\n\n//fencelint:write\nfunc save() {}\n")
	none := func(string) bool { return false }
	for _, c := range []struct {
		name    string
		path    string
		imports []string
		facts   func(string) bool
		files   []string
		want    bool
	}{
		{"nothing lock-related", "example.com/p", []string{"sync"}, none, []string{plain}, false},
		{"known API", "example.com/p", []string{"sync", "go.etcd.io/etcd/client/v3/concurrency"}, none, []string{plain}, true},
		{"an import with facts", "example.com/p", []string{"example.com/q"}, func(p string) bool { return p == "example.com/q" }, []string{plain}, true},
		{"a lease type", "example.com/p", nil, none, []string{plain, lease}, true},
		{"a directive", "example.com/p", nil, none, []string{dir1}, true},
		{"a library package", "go.etcd.io/etcd/server/v3/x", []string{"go.etcd.io/etcd/client/v3/concurrency"}, none, []string{lease}, false},
		{"an unreadable file", "example.com/p", nil, none, []string{filepath.Join(dir, "missing.go")}, true},
	} {
		got, err := MayBeRelevant(c.path, c.imports, c.facts, c.files)
		if got != c.want {
			t.Errorf("%s: MayBeRelevant = %v (%v), want %v", c.name, got, err, c.want)
		}
		if c.name == "an unreadable file" && err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

// TestMayDeclareNoReturn: the syntactic twin of noReturns.infer finds
// every function whose body ends in a call that may not return and that
// has no return or defer, by the callee's name; a command's functions
// are nobody's import.
func TestMayDeclareNoReturn(t *testing.T) {
	for _, c := range []struct {
		src   string
		names []string
		want  bool
	}{
		{"package p\nfunc die(msg string) { println(msg); panic(msg) }\n", nil, true},
		{"package p\nfunc (l *L) Fatalf(f string, a ...any) { l.z.Fatalf(f, a...) }\n", nil, true},
		{"package p\nimport \"os\"\nfunc quit() { os.Exit(1) }\n", nil, true},
		{"package p\nfunc fail[T any](v T) { must[T](v) }\n", []string{"must"}, true}, // another package's wrapper, generic
		{"package p\nfunc fail() { x.Die() }\n", []string{"Die"}, true},
		{"package p\nfunc fail() { x.Die() }\n", nil, false},
		// a return or a defer (a recover could resume) lets control leave
		{"package p\nfunc f(ok bool) { if ok { return }; panic(1) }\n", nil, false},
		{"package p\nfunc f() { defer cleanup(); panic(1) }\n", nil, false},
		// a return inside a function literal is the literal's
		{"package p\nfunc f() { g(func() { return }); panic(1) }\n", nil, true},
		// the call is not the last statement
		{"package p\nfunc f() { panic(1); x = 2 }\n", nil, false},
		{"package p\nfunc (s *S) String() string { switch s.k { case 1: return \"a\" }; panic(\"bad\") }\n", nil, false},
		{"package main\nimport \"os\"\nfunc main() { os.Exit(run()) }\n", nil, false},
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "p.go", c.src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if got := mayDeclareNoReturn([]*ast.File{f}, c.names); got != c.want {
			t.Errorf("mayDeclareNoReturn(%q, %v) = %v, want %v", c.src, c.names, got, c.want)
		}
	}
}

// TestWrapperCandidates: the bodies a driver keeps for a package that
// matters only for its no-return wrappers are every function infer may
// mark: across files, through local wrappers of wrappers (a fixpoint),
// and through other packages' wrappers by name; not a function that can
// return, nor one whose call is not its last statement.
func TestWrapperCandidates(t *testing.T) {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, src := range []string{
		"package p\nimport \"os\"\nfunc exit() { os.Exit(1) }\nfunc plain() { println() }\nfunc early(ok bool) { if ok { return }; exit() }\n",
		"package p\nfunc stop() { exit() }\nfunc stop2() { stop() }\nfunc viaImported() { q.Die() }\nfunc notLast() { exit(); println() }\nfunc (t T) Fail() { panic(t) }\n",
	} {
		f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	var got []string
	for fd := range WrapperCandidates(files, []string{"Die"}) {
		got = append(got, fd.Name.Name)
	}
	slices.Sort(got)
	if want := []string{"Fail", "exit", "stop", "stop2", "viaImported"}; !slices.Equal(got, want) {
		t.Errorf("WrapperCandidates = %v, want %v", got, want)
	}
}

// TestRelevanceOfWrappersOnly: a package with nothing lock-related that
// may declare a no-return wrapper is WrappersOnly, parsed with the
// driver's parser when one is given; one that also imports a known API is
// Whole; one that declares no wrapper is Skip.
func TestRelevanceOfWrappersOnly(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return file
	}
	wrapper := write("w.go", "package p\nimport \"os\"\nfunc quit() { os.Exit(1) }\n")
	returns := write("r.go", "package p\nimport \"os\"\nfunc quit(err error) { if err != nil { os.Exit(1) } }\n")
	none := func(string) bool { return false }
	for _, c := range []struct {
		name    string
		imports []string
		file    string
		want    Matter
	}{
		{"wrapper", []string{"os"}, wrapper, WrappersOnly},
		{"wrapper and a known API", []string{"os", "go.etcd.io/etcd/client/v3/concurrency"}, wrapper, Whole},
		{"no wrapper", []string{"os"}, returns, Skip},
	} {
		parsed := 0
		fset := token.NewFileSet()
		parse := func(name string, src []byte) (*ast.File, error) {
			parsed++
			return parser.ParseFile(fset, name, src, 0)
		}
		got, err := RelevanceOf("example.com/p", c.imports, none, nil, []string{c.file}, parse)
		if err != nil || got != c.want {
			t.Errorf("%s: RelevanceOf = %v (%v), want %v", c.name, got, err, c.want)
		}
		if c.want == WrappersOnly && parsed != 1 {
			t.Errorf("%s: the driver's parser parsed %d files, want 1", c.name, parsed)
		}
		if ok, _ := MayBeRelevantCalling("example.com/p", c.imports, none, nil, []string{c.file}); ok != (c.want != Skip) {
			t.Errorf("%s: MayBeRelevantCalling = %v, want %v", c.name, ok, c.want != Skip)
		}
	}
}

// TestPassOn: what a driver exports for a package it skips is the union
// of its project imports' ImplsFacts, deduplicated, without its own
// types, in the order of the import paths, whatever order the imports
// come in; nothing when there is none.
func TestPassOn(t *testing.T) {
	impl := func(pkg, name string) ImplType { return ImplType{Pkg: pkg, Name: name} }
	facts := map[string][]analysis.Fact{
		"example.com/o/r/b":     {&ImplsFact{Types: []ImplType{impl("example.com/o/r/b", "B"), impl("example.com/o/r/c", "C")}}},
		"example.com/o/r/a":     {&ImplsFact{Types: []ImplType{impl("example.com/o/r/c", "C"), impl("example.com/o/r/p", "Self")}}, new(PackageFact)},
		"example.com/other/x/y": {&ImplsFact{Types: []ImplType{impl("example.com/other/x/y", "Y")}}}, // another project
	}
	get := func(imp string) []analysis.Fact { return facts[imp] }
	var first string
	for _, imports := range [][]string{
		{"example.com/o/r/b", "example.com/o/r/a", "example.com/other/x/y", "fmt"},
		{"fmt", "example.com/other/x/y", "example.com/o/r/a", "example.com/o/r/b", "example.com/o/r/a"},
	} {
		got := PassOn("example.com/o/r/p", imports, get)
		if len(got) != 1 {
			t.Fatalf("PassOn(%v) = %v, want one ImplsFact", imports, got)
		}
		s := got[0].(*ImplsFact).String()
		if s != "impls C B" {
			t.Errorf("PassOn(%v) = %q, want \"impls C B\" (a's types first, p's own and y's left out)", imports, s)
		}
		if first == "" {
			first = s
		} else if s != first {
			t.Errorf("PassOn depends on the import order: %q, then %q", first, s)
		}
	}
	if got := PassOn("example.com/o/r/p", []string{"fmt"}, get); got != nil {
		t.Errorf("PassOn without ImplsFacts = %v, want nothing", got)
	}
}
