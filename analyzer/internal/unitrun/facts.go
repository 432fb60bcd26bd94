package unitrun

import (
	"bytes"
	"encoding/gob"
	"go/types"
	"log"
	"reflect"
	"sort"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"
)

// Facts holds the facts of one unit: those decoded from its dependencies'
// records and those the unit's analyzers export. Which decoded facts a
// unit sees is the driver's choice, made by the lookup it decodes with:
//
//   - go vet (unitchecker's semantics): the direct imports' vetx records,
//     a fact kept only if its package is reachable from the direct
//     imports' declarations through types (Reachable);
//   - the standalone CLI (lintcmd's semantics): the own facts of every
//     package of the dependency closure, a fact kept if its package is
//     among the unit's packages (PackagePaths).
//
// Encode writes either the unit's own facts or, as unitchecker's vetx file
// does, its own facts and the imported facts about types, methods and
// fields (objects a dependent can reach through this unit's API), but not
// imported package facts nor facts about imported package-level functions
// and variables.
type Facts struct {
	pkg   *types.Package
	mu    sync.Mutex
	m     map[factKey]analysis.Fact
	reach map[string]*types.Package // Reachable(pkg.Imports()), built on first use
}

// NewFacts returns an empty fact set for pkg.
func NewFacts(pkg *types.Package) *Facts {
	return &Facts{pkg: pkg, m: make(map[factKey]analysis.Fact)}
}

type factKey struct {
	pkg *types.Package
	obj types.Object // nil for a package fact
	t   reflect.Type
}

// factRecord is a fact as Encode writes it: the object by its path within
// its package (objectpath), empty for a package fact. Name and Reexport
// say, without types, what a reader would otherwise need the object for:
// its name (what Classify lists), and whether a dependent's vetx file
// carries the fact on (a fact about a type, method or field; not one
// about a package-level function, variable or constant).
type factRecord struct {
	Pkg      string
	Obj      objectpath.Path
	Name     string
	Reexport bool
	Fact     analysis.Fact
}

func (s *Facts) ImportObject(obj types.Object, ptr analysis.Fact) bool {
	if obj == nil {
		panic("ImportObjectFact: nil object")
	}
	return s.lookup(factKey{obj.Pkg(), obj, reflect.TypeOf(ptr)}, ptr)
}

func (s *Facts) ImportPackage(pkg *types.Package, ptr analysis.Fact) bool {
	if pkg == nil {
		panic("ImportPackageFact: nil package")
	}
	return s.lookup(factKey{pkg, nil, reflect.TypeOf(ptr)}, ptr)
}

func (s *Facts) lookup(k factKey, ptr analysis.Fact) bool {
	s.mu.Lock()
	v, ok := s.m[k]
	s.mu.Unlock()
	if ok {
		reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(v).Elem())
	}
	return ok
}

func (s *Facts) ExportObject(obj types.Object, fact analysis.Fact) {
	if obj.Pkg() != s.pkg {
		log.Panicf("in package %s: ExportObjectFact(%s, %T): can't set fact on object belonging another package", s.pkg, obj, fact)
	}
	s.mu.Lock()
	s.m[factKey{obj.Pkg(), obj, reflect.TypeOf(fact)}] = fact
	s.mu.Unlock()
}

func (s *Facts) ExportPackage(fact analysis.Fact) {
	s.mu.Lock()
	s.m[factKey{s.pkg, nil, reflect.TypeOf(fact)}] = fact
	s.mu.Unlock()
}

func (s *Facts) AllObject(own map[reflect.Type]bool) []analysis.ObjectFact {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []analysis.ObjectFact
	for k, v := range s.m {
		if k.obj != nil && own[k.t] {
			out = append(out, analysis.ObjectFact{Object: k.obj, Fact: v})
		}
	}
	return out
}

func (s *Facts) AllPackage(own map[reflect.Type]bool) []analysis.PackageFact {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []analysis.PackageFact
	for k, v := range s.m {
		if k.obj == nil && own[k.t] {
			out = append(out, analysis.PackageFact{Package: k.pkg, Fact: v})
		}
	}
	return out
}

// Decode adds the facts of data, records as Encode writes them. lookup
// names the package a record's path denotes in this unit's view, or nil:
// a fact about a package the unit cannot see, or about an object its view
// of the package lacks, is dropped (nothing here can ask about it).
func (s *Facts) Decode(data []byte, lookup func(path string) *types.Package) error {
	records, err := DecodeRecords(data)
	if err != nil {
		return err
	}
	keys := make([]factKey, len(records))
	for i, r := range records {
		factPkg := lookup(r.Pkg) // may lock s: not under s.mu
		if factPkg == nil {
			continue
		}
		k := factKey{pkg: factPkg, t: reflect.TypeOf(r.Fact)}
		if r.Obj != "" {
			obj, err := objectpath.Object(factPkg, r.Obj)
			if err != nil {
				continue
			}
			k.obj = obj
		}
		keys[i] = k
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, k := range keys {
		if k.pkg != nil {
			s.m[k] = records[i].Fact
		}
	}
	return nil
}

// Reachable returns the lookup of go vet's semantics for s's unit: the
// packages its direct imports' declarations reach (see Facts).
func (s *Facts) Reachable() func(path string) *types.Package {
	return func(path string) *types.Package { return s.reachable()[path] }
}

func (s *Facts) reachable() map[string]*types.Package {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reachableLocked()
}

func (s *Facts) reachableLocked() map[string]*types.Package {
	if s.reach == nil {
		s.reach = reachable(s.pkg.Imports())
	}
	return s.reach
}

// PackagePaths maps the path of root and of every package its imports
// lead to, transitively, to that package: the lookup of lintcmd's
// semantics (see Facts).
func PackagePaths(root *types.Package) map[string]*types.Package {
	out := map[string]*types.Package{}
	var dfs func(*types.Package)
	dfs = func(pkg *types.Package) {
		if _, ok := out[pkg.Path()]; ok {
			return
		}
		out[pkg.Path()] = pkg
		for _, imp := range pkg.Imports() {
			dfs(imp)
		}
	}
	dfs(root)
	return out
}

// Scope selects the facts Encode writes.
type Scope int

const (
	// Own: the facts the unit's analyzers exported about its own package
	// and objects.
	Own Scope = iota
	// Vetx: as unitchecker's vetx file, the own facts and the re-exported
	// imported facts about types, methods and fields that the direct
	// imports' declarations reach.
	Vetx
)

// Encode returns the facts of scope, sorted so that the same facts always
// give the same bytes (go vet hashes the file into its dependents' cache
// keys, and the standalone driver hashes it into its own), or nil when
// there are none.
func (s *Facts) Encode(scope Scope) []byte {
	return encodeRecords(s.pkg.Path(), s.records(scope, false))
}

// encodeRecords is the encoding of sorted records (nil for none): the one
// Decode and PackageFactsIn read.
func encodeRecords(pkgPath string, records []factRecord) []byte {
	if len(records) == 0 {
		return nil
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(records); err != nil {
		log.Panicf("internal error: encoding facts of %s: %v", pkgPath, err)
	}
	return buf.Bytes()
}

// DecodeRecords reads what encodeRecords (and so Encode) wrote.
func DecodeRecords(data []byte) (Records, error) {
	if len(data) == 0 {
		return nil, nil
	}
	var records Records
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&records); err != nil {
		return nil, err
	}
	return records, nil
}

// Records are the fact records of one encoding (Encode's), decoded once
// for readers that have no types: PackageFacts and PassOn.
type Records []factRecord

// PackageFacts returns the package facts about pkgPath among rs, in their
// order.
func (rs Records) PackageFacts(pkgPath string) []analysis.Fact {
	var out []analysis.Fact
	for _, r := range rs {
		if r.Pkg == pkgPath && r.Obj == "" {
			out = append(out, r.Fact)
		}
	}
	return out
}

// PackageFactsIn returns the package facts about pkgPath in data, records
// as Encode writes them, in their order; no types are needed to read
// them.
func PackageFactsIn(data []byte, pkgPath string) ([]analysis.Fact, error) {
	records, err := DecodeRecords(data)
	if err != nil {
		return nil, err
	}
	return records.PackageFacts(pkgPath), nil
}

// EncodePackageFacts is Encode(Own) of a unit of package pkgPath whose
// analyzers exported facts, at most one of each type, about the package
// and nothing else: the same bytes, written without its types.
func EncodePackageFacts(pkgPath string, facts []analysis.Fact) []byte {
	records := make([]factRecord, len(facts))
	for i, f := range facts {
		records[i] = factRecord{Pkg: pkgPath, Fact: f}
	}
	sortRecords(records)
	return encodeRecords(pkgPath, records)
}

// Any reports whether Encode(scope) would write any fact.
func (s *Facts) Any(scope Scope) bool { return len(s.records(scope, true)) > 0 }

// Classify sorts the facts Encode(scope) would write by weak: strong
// reports whether any fact is not weak, and weakNames lists the names of
// the objects the weak object facts are about, sorted and without
// repeats (a weak package fact names nothing). The
// standalone driver uses it to tell facts that make an importer relevant
// from those that matter only where the importer names their object.
func (s *Facts) Classify(scope Scope, weak func(analysis.Fact) bool) (strong bool, weakNames []string) {
	names := map[string]bool{}
	var enc objectpath.Encoder
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, fact := range s.m {
		if _, ok := s.recordPathLocked(scope, k, &enc); !ok {
			continue
		}
		if !weak(fact) {
			strong = true
			continue
		}
		if k.obj != nil {
			names[k.obj.Name()] = true
		}
	}
	for n := range names {
		weakNames = append(weakNames, n)
	}
	sort.Strings(weakNames)
	return strong, weakNames
}

// recordPathLocked reports whether Encode(scope) writes the fact under k,
// and the path it names the fact's object by (empty for a package fact).
func (s *Facts) recordPathLocked(scope Scope, k factKey, enc *objectpath.Encoder) (objectpath.Path, bool) {
	if k.pkg != s.pkg {
		if scope == Own || k.obj == nil {
			return "", false // an imported package fact
		}
		if !reexported(k.obj) {
			return "", false // an imported package-level function, variable or constant
		}
		if s.reachableLocked()[k.pkg.Path()] != k.pkg {
			return "", false // decoded from further away than the direct imports' API: go vet would not see it
		}
	}
	if k.obj == nil {
		return "", true
	}
	path, err := enc.For(k.obj)
	if err != nil {
		return "", false // not reachable from its package's API: dependents cannot name it
	}
	return path, true
}

// reexported reports whether a vetx file carries on an imported fact
// about obj: whether obj is a type, method or field, which a dependent can
// reach through the importer's API, rather than a package-level function,
// variable or constant, which only its own package's importers name.
func reexported(obj types.Object) bool {
	_, isType := obj.(*types.TypeName)
	return isType || obj.Parent() != obj.Pkg().Scope()
}

func (s *Facts) records(scope Scope, first bool) []factRecord {
	var enc objectpath.Encoder
	var records []factRecord
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, fact := range s.m {
		path, ok := s.recordPathLocked(scope, k, &enc)
		if !ok {
			continue
		}
		r := factRecord{Pkg: k.pkg.Path(), Obj: path, Fact: fact}
		if k.obj != nil {
			r.Name = k.obj.Name()
			r.Reexport = reexported(k.obj)
		}
		records = append(records, r)
		if first {
			return records
		}
	}
	sortRecords(records)
	return records
}

// sortRecords orders records by package, object path and fact type: one
// order for the same facts, whatever map order they came in.
func sortRecords(records []factRecord) {
	sort.Slice(records, func(i, j int) bool {
		x, y := records[i], records[j]
		if x.Pkg != y.Pkg {
			return x.Pkg < y.Pkg
		}
		if x.Obj != y.Obj {
			return x.Obj < y.Obj
		}
		return reflect.TypeOf(x.Fact).String() < reflect.TypeOf(y.Fact).String()
	})
}

// reachable maps the path of every package whose objects the direct
// imports' declarations reach through their types (the direct imports
// included) to that package. A fact about any other package is dropped on
// import: no object of it can be looked up from here.
func reachable(imports []*types.Package) map[string]*types.Package {
	pkgs := make(map[string]*types.Package)
	seenObj := make(map[types.Object]bool)
	seenType := make(map[types.Type]bool)
	var obj func(types.Object)
	var typ func(types.Type)
	obj = func(o types.Object) {
		if seenObj[o] {
			return
		}
		seenObj[o] = true
		if p := o.Pkg(); p != nil {
			pkgs[p.Path()] = p
		}
		typ(o.Type())
	}
	tparams := func(l *types.TypeParamList) {
		for i := 0; i < l.Len(); i++ {
			typ(l.At(i))
		}
	}
	typ = func(t types.Type) {
		switch t := t.(type) {
		case *types.Named:
			for i := 0; i < t.TypeArgs().Len(); i++ {
				typ(t.TypeArgs().At(i))
			}
			o := t.Origin()
			if seenType[o] {
				return
			}
			seenType[o] = true
			obj(o.Obj())
			tparams(o.TypeParams())
			typ(o.Underlying())
			for i := 0; i < o.NumMethods(); i++ {
				obj(o.Method(i))
			}
		case *types.Alias:
			for i := 0; i < t.TypeArgs().Len(); i++ {
				typ(t.TypeArgs().At(i))
			}
			o := t.Origin()
			if seenType[o] {
				return
			}
			seenType[o] = true
			obj(o.Obj())
			tparams(o.TypeParams())
			typ(o.Rhs())
		case *types.Pointer:
			typ(t.Elem())
		case *types.Slice:
			typ(t.Elem())
		case *types.Array:
			typ(t.Elem())
		case *types.Chan:
			typ(t.Elem())
		case *types.Map:
			typ(t.Key())
			typ(t.Elem())
		case *types.Signature:
			typ(t.Params())
			typ(t.Results())
			tparams(t.TypeParams())
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				obj(t.Field(i))
			}
		case *types.Tuple:
			if t == nil {
				return
			}
			for i := 0; i < t.Len(); i++ {
				obj(t.At(i))
			}
		case *types.Interface:
			for i := 0; i < t.NumMethods(); i++ {
				obj(t.Method(i))
			}
			for i := 0; i < t.NumEmbeddeds(); i++ {
				typ(t.EmbeddedType(i))
			}
		case *types.Union:
			for i := 0; i < t.Len(); i++ {
				typ(t.Term(i).Type())
			}
		case *types.TypeParam:
			if seenType[t] {
				return
			}
			seenType[t] = true
			obj(t.Obj())
			typ(t.Constraint())
		}
	}
	for _, imp := range imports {
		pkgs[imp.Path()] = imp
		scope := imp.Scope()
		for _, name := range scope.Names() {
			obj(scope.Lookup(name))
		}
	}
	return pkgs
}

// PassOn is what a unit that was not analysed (its package cannot matter,
// so it was neither parsed nor type-checked) writes as its vetx file, read
// from its direct imports' vetx records (imported) alone: the package facts own, the
// only facts its analyzers would have exported, and the imported facts
// about types, methods and fields, all of them. It also returns what
// Classify says of those facts: strong of Own, weakNames of Vetx.
//
// Encode(Vetx) of the analysed unit keeps only the imported facts whose
// package its imports' declarations reach, and whose object its view of
// that package holds (Reachable): that needs the imports' types. PassOn
// writes a superset, which changes no finding: a dependent that is
// analysed decodes the file through its own view (Decode with Reachable)
// and re-exports only what that view reaches, and one that is not
// analysed reports nothing. The extra names in weakNames can only make a
// dependent's relevance test say "may matter" more often.
func PassOn(pkgPath string, own []analysis.Fact, imported []Records, weak func(analysis.Fact) bool) (data []byte, strong bool, weakNames []string) {
	type key struct {
		pkg string
		obj objectpath.Path
		t   reflect.Type
	}
	seen := map[key]bool{}
	var records []factRecord
	for _, f := range own {
		strong = strong || !weak(f)
		records = append(records, factRecord{Pkg: pkgPath, Fact: f})
	}
	names := map[string]bool{}
	for _, rs := range imported {
		for _, r := range rs {
			if !r.Reexport {
				continue // a package fact, or one about a package-level function, variable or constant
			}
			k := key{r.Pkg, r.Obj, reflect.TypeOf(r.Fact)}
			if seen[k] {
				continue // the same fact, carried on by two imports
			}
			seen[k] = true
			records = append(records, r)
			if weak(r.Fact) {
				names[r.Name] = true
			}
		}
	}
	for n := range names {
		weakNames = append(weakNames, n)
	}
	sort.Strings(weakNames)
	sortRecords(records)
	return encodeRecords(pkgPath, records), strong, weakNames
}
