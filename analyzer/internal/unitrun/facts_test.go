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

// TestPassOnWithoutTypes: PassOn, from the direct imports' vetx records
// alone, writes what Encode(Vetx) of the type-checked unit writes when its
// imports' declarations reach every package the records name (the same
// bytes, and Classify's answers), and a superset otherwise: the extra
// records are facts about types, methods and fields of a package no
// declaration reaches, never package facts or facts about package-level
// functions.
func TestPassOnWithoutTypes(t *testing.T) {
	a := check(t, "a", "package a\n\ntype T struct{ F int }\n\nfunc (T) M() {}\n\nfunc G() {}\n")
	b := check(t, "b", "package b\n\nimport \"a\"\n\ntype S struct{}\n\nfunc (S) Fatal() {}\n\nfunc H() a.T { return a.T{} }\n", a)
	c := check(t, "c", "package c\n\nimport \"a\"\n\nvar X = 1\n\nfunc h() { a.G() }\n", a)
	weak := func(f analysis.Fact) bool { _, ok := f.(*otherFact); return ok }

	T := a.Scope().Lookup("T").(*types.TypeName)
	fa := NewFacts(a)
	fa.ExportObject(T, &testFact{0})
	fa.ExportObject(T.Type().(*types.Named).Method(0), &otherFact{"weak"})
	fa.ExportObject(T.Type().Underlying().(*types.Struct).Field(0), &testFact{2})
	fa.ExportObject(a.Scope().Lookup("G"), &testFact{3})
	fa.ExportPackage(&testFact{99})
	aVetx := fa.Encode(Vetx)

	// vetx is the file of an analysed unit pkg that imports a.
	vetx := func(pkg *types.Package, own func(*Facts)) Records {
		f := NewFacts(pkg)
		if err := f.Decode(aVetx, f.Reachable()); err != nil {
			t.Fatal(err)
		}
		own(f)
		rs, err := DecodeRecords(f.Encode(Vetx))
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}
	S := b.Scope().Lookup("S").(*types.TypeName)
	bVetx := vetx(b, func(f *Facts) {
		f.ExportObject(S.Type().(*types.Named).Method(0), &otherFact{"fatal"})
		f.ExportObject(b.Scope().Lookup("H"), &otherFact{"h"})
		f.ExportPackage(&otherFact{"impls"})
	})
	cVetx := vetx(c, func(*Facts) {})

	// full is what the full path writes for skipped, which imports deps
	// (whose vetx files are files) and exports own about itself.
	full := func(skipped *types.Package, files []Records, own []analysis.Fact) (data []byte, strong bool, names []string) {
		f := NewFacts(skipped)
		for _, rs := range files {
			if err := f.Decode(encodeRecords(skipped.Path(), rs), f.Reachable()); err != nil {
				t.Fatal(err)
			}
		}
		for _, fact := range own {
			f.ExportPackage(fact)
		}
		strong, _ = f.Classify(Own, weak)
		_, names = f.Classify(Vetx, weak)
		return f.Encode(Vetx), strong, names
	}
	describe := func(data []byte) []string {
		records, err := DecodeRecords(data)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range records {
			out = append(out, fmt.Sprintf("%s.%s=%v", r.Pkg, r.Obj, r.Fact))
		}
		return out
	}

	own := []analysis.Fact{&otherFact{"merged"}}
	u := check(t, "u", "package u\n\nimport \"b\"\n\nvar _ = b.H\n", b)
	wantData, wantStrong, wantNames := full(u, []Records{bVetx}, own)
	data, strong, names := PassOn("u", own, []Records{bVetx}, weak)
	if !bytes.Equal(data, wantData) {
		t.Errorf("PassOn wrote %v, the full path %v", describe(data), describe(wantData))
	}
	if strong != wantStrong || fmt.Sprint(names) != fmt.Sprint(wantNames) {
		t.Errorf("PassOn classifies %v %v, the full path %v %v", strong, names, wantStrong, wantNames)
	}
	if fmt.Sprint(names) != "[Fatal M]" {
		t.Errorf("weak names %v, want the methods' [Fatal M] (not H, a package-level function)", names)
	}
	if _, strong, _ := PassOn("u", []analysis.Fact{&testFact{1}}, nil, weak); !strong {
		t.Error("a strong own fact does not make PassOn's file strong")
	}

	// c imports a, so its file carries a's type facts on; but c's
	// declarations reach no type of a, so the full path of v, which
	// imports c alone, drops them, and PassOn keeps them: exactly those.
	v := check(t, "v", "package v\n\nimport \"c\"\n\nvar _ = c.X\n", c)
	wantData, _, _ = full(v, []Records{cVetx}, nil)
	if wantData != nil {
		t.Fatalf("the full path of v re-exports %v: nothing of a is reachable from c", describe(wantData))
	}
	data, _, names = PassOn("v", nil, []Records{cVetx}, weak)
	if got, want := fmt.Sprint(describe(data)), "[a.T=0 a.T.M0=weak a.T.UF0=2]"; got != want {
		t.Errorf("PassOn over c wrote %s, want %s", got, want)
	}
	if fmt.Sprint(names) != "[M]" {
		t.Errorf("weak names %v, want [M]", names)
	}
	// Two imports carrying the same facts: each once.
	if twice, _, _ := PassOn("v", nil, []Records{cVetx, cVetx}, weak); !bytes.Equal(twice, data) {
		t.Error("PassOn over c twice differs from once")
	}
	if _, err := DecodeRecords([]byte("junk")); err == nil {
		t.Error("DecodeRecords(junk): no error")
	}
}
