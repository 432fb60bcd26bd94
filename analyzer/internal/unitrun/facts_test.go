package unitrun

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"
)

type testFact struct{ N int }

func (*testFact) AFact()           {}
func (f *testFact) String() string { return fmt.Sprint(f.N) }

func init() { gob.Register(new(testFact)) }

// check type-checks src as package path, importing the packages of deps.
func check(t *testing.T, path, src string, deps ...*types.Package) *types.Package {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path+".go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	std := importer.Default()
	cfg := types.Config{Importer: importerFunc(func(p string) (*types.Package, error) {
		for _, d := range deps {
			if d.Path() == p {
				return d, nil
			}
		}
		return std.Import(p)
	})}
	pkg, err := cfg.Check(path, fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

type importerFunc func(string) (*types.Package, error)

func (f importerFunc) Import(p string) (*types.Package, error) { return f(p) }

// TestFactScopes: Own carries a unit's own facts only; Vetx adds the
// imported facts about types, methods and fields that the direct
// imports' declarations reach (go vet's re-export rule), never imported
// package facts or facts about package-level functions; Decode drops
// facts about packages its lookup does not name; the encoding does not
// depend on the order facts were exported in.
func TestFactScopes(t *testing.T) {
	a := check(t, "a", "package a\n\ntype T struct{ F int }\n\nfunc (T) M() {}\n\nfunc G() {}\n")
	b := check(t, "b", "package b\n\nimport \"a\"\n\nfunc H() a.T { return a.T{} }\n", a)
	c := check(t, "c", "package c\n\nimport \"b\"\n\nvar _ = b.H\n", b)

	T := a.Scope().Lookup("T").(*types.TypeName)
	M := T.Type().(*types.Named).Method(0)
	field := T.Type().Underlying().(*types.Struct).Field(0)
	G := a.Scope().Lookup("G")

	export := func(order []types.Object) []byte {
		fa := NewFacts(a)
		for i, obj := range order {
			fa.ExportObject(obj, &testFact{i})
		}
		fa.ExportPackage(&testFact{99})
		return fa.Encode(Own)
	}
	own := export([]types.Object{T, M, field, G})
	if len(own) == 0 {
		t.Fatal("a's own facts encode to nothing")
	}
	// Same facts, exported in another order: same bytes.
	fa := NewFacts(a)
	fa.ExportPackage(&testFact{99})
	fa.ExportObject(G, &testFact{3})
	fa.ExportObject(field, &testFact{2})
	fa.ExportObject(M, &testFact{1})
	fa.ExportObject(T, &testFact{0})
	if again := fa.Encode(Own); !bytes.Equal(again, own) {
		t.Error("the encoding depends on the order facts were exported in")
	}

	// b decodes a's facts with go vet's lookup: everything about a.
	fb := NewFacts(b)
	if err := fb.Decode(own, fb.Reachable()); err != nil {
		t.Fatal(err)
	}
	var got testFact
	if !fb.ImportObject(M, &got) || got.N != 1 {
		t.Errorf("b does not see a's fact on T.M: %v", got)
	}
	if !fb.ImportPackage(a, &got) || got.N != 99 {
		t.Errorf("b does not see a's package fact: %v", got)
	}
	if fb.Any(Own) || fb.Encode(Own) != nil {
		t.Error("b has own facts, it exported none")
	}
	if !fb.Any(Vetx) {
		t.Fatal("b's vetx re-exports nothing")
	}
	var records []factRecord
	if err := gob.NewDecoder(bytes.NewReader(fb.Encode(Vetx))).Decode(&records); err != nil {
		t.Fatal(err)
	}
	var objs []string
	for _, r := range records {
		objs = append(objs, fmt.Sprintf("%s.%s=%v", r.Pkg, r.Obj, r.Fact))
	}
	// T, its method and its field: not G (package-level func), not a's
	// package fact.
	if want := "[a.T=0 a.T.M0=1 a.T.UF0=2]"; fmt.Sprint(objs) != want {
		t.Errorf("b's vetx re-exports %v, want %s", objs, want)
	}

	// c, decoding with a lookup that names only its own imports, drops
	// every fact about a.
	fc := NewFacts(c)
	if err := fc.Decode(own, func(path string) *types.Package {
		if path == "b" {
			return b
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if fc.Any(Vetx) || fc.ImportObject(M, &got) {
		t.Error("c kept a fact about a package its lookup does not name")
	}
	// With lintcmd's lookup (every package c's imports lead to), c sees a.
	fc = NewFacts(c)
	paths := PackagePaths(c)
	if paths["a"] != a {
		t.Fatalf("PackagePaths(c) = %v, want a among them", paths)
	}
	if err := fc.Decode(own, func(path string) *types.Package { return paths[path] }); err != nil {
		t.Fatal(err)
	}
	if !fc.ImportObject(M, &got) || got.N != 1 {
		t.Errorf("c with lintcmd's lookup does not see a's fact on T.M")
	}
}

type otherFact struct{ S string }

func (*otherFact) AFact()           {}
func (f *otherFact) String() string { return f.S }

func init() { gob.Register(new(otherFact)) }

// TestPackageFactsWithoutTypes: EncodePackageFacts writes the bytes
// Encode(Own) writes for a unit whose only facts are about its package,
// whatever order they come in, and PackageFactsIn reads a package's facts
// back (and only those) without its types.
func TestPackageFactsWithoutTypes(t *testing.T) {
	a := check(t, "a", "package a\n\ntype T struct{}\n")
	fa := NewFacts(a)
	fa.ExportPackage(&testFact{7})
	fa.ExportPackage(&otherFact{"x"})
	want := fa.Encode(Own)
	for _, order := range [][]analysis.Fact{
		{&testFact{7}, &otherFact{"x"}},
		{&otherFact{"x"}, &testFact{7}},
	} {
		if got := EncodePackageFacts("a", order); !bytes.Equal(got, want) {
			t.Errorf("EncodePackageFacts(%v) differs from Encode(Own)", order)
		}
	}
	if EncodePackageFacts("a", nil) != nil {
		t.Error("no facts encode to something")
	}

	fa.ExportObject(a.Scope().Lookup("T"), &testFact{1})
	got, err := PackageFactsIn(fa.Encode(Own), "a")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[x 7]" {
		t.Errorf("PackageFactsIn = %v, want a's two package facts, not T's", got)
	}
	if got, err := PackageFactsIn(fa.Encode(Own), "b"); err != nil || len(got) != 0 {
		t.Errorf("PackageFactsIn(b) = %v, %v; want nothing", got, err)
	}
	if _, err := PackageFactsIn([]byte("junk"), "a"); err == nil {
		t.Error("PackageFactsIn(junk): no error")
	}
}

// TestClassifyOwnWeak: weak package facts make nothing strong and name
// nothing; weak object facts are named; any other fact is strong.
func TestClassifyOwnWeak(t *testing.T) {
	a := check(t, "a", "package a\n\nfunc F() {}\n\nfunc G() {}\n")
	weak := func(f analysis.Fact) bool { _, ok := f.(*otherFact); return ok }
	fa := NewFacts(a)
	fa.ExportPackage(&otherFact{"impls"})
	fa.ExportObject(a.Scope().Lookup("F"), &otherFact{"noreturn"})
	if strong, names := fa.Classify(Own, weak); strong || fmt.Sprint(names) != "[F]" {
		t.Errorf("Classify = %v, %v; want not strong, [F]", strong, names)
	}
	fa.ExportObject(a.Scope().Lookup("G"), &testFact{1})
	if strong, names := fa.Classify(Own, weak); !strong || fmt.Sprint(names) != "[F]" {
		t.Errorf("Classify = %v, %v; want strong, [F]", strong, names)
	}
}
