package vetdriver

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"go/types"
	"log"
	"os"
	"reflect"
	"sort"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"
)

// factSet holds the facts of one unit: those decoded from the direct
// imports' vetx files and those the unit's analyzers export. It follows
// the semantics unitchecker's (internal) fact set has, so that analyzers
// see the same facts under both drivers:
//
//   - a decoded fact is kept only if its package is reachable from the
//     direct imports' declarations through types;
//   - the vetx file re-exports the imported facts about types, methods and
//     fields (objects a dependent can reach through this unit's API), but
//     not imported package facts nor facts about imported package-level
//     functions and variables.
type factSet struct {
	pkg *types.Package
	mu  sync.Mutex
	m   map[factKey]analysis.Fact
}

type factKey struct {
	pkg *types.Package
	obj types.Object // nil for a package fact
	t   reflect.Type
}

// factRecord is a fact as a vetx file stores it: the object by its path
// within its package (objectpath), empty for a package fact.
type factRecord struct {
	Pkg  string
	Obj  objectpath.Path
	Fact analysis.Fact
}

func (s *factSet) importObject(obj types.Object, ptr analysis.Fact) bool {
	if obj == nil {
		panic("ImportObjectFact: nil object")
	}
	return s.lookup(factKey{obj.Pkg(), obj, reflect.TypeOf(ptr)}, ptr)
}

func (s *factSet) importPackage(pkg *types.Package, ptr analysis.Fact) bool {
	if pkg == nil {
		panic("ImportPackageFact: nil package")
	}
	return s.lookup(factKey{pkg, nil, reflect.TypeOf(ptr)}, ptr)
}

func (s *factSet) lookup(k factKey, ptr analysis.Fact) bool {
	s.mu.Lock()
	v, ok := s.m[k]
	s.mu.Unlock()
	if ok {
		reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(v).Elem())
	}
	return ok
}

func (s *factSet) exportObject(obj types.Object, fact analysis.Fact) {
	if obj.Pkg() != s.pkg {
		log.Panicf("in package %s: ExportObjectFact(%s, %T): can't set fact on object belonging another package", s.pkg, obj, fact)
	}
	s.mu.Lock()
	s.m[factKey{obj.Pkg(), obj, reflect.TypeOf(fact)}] = fact
	s.mu.Unlock()
}

func (s *factSet) exportPackage(fact analysis.Fact) {
	s.mu.Lock()
	s.m[factKey{s.pkg, nil, reflect.TypeOf(fact)}] = fact
	s.mu.Unlock()
}

func (s *factSet) allObject(own map[reflect.Type]bool) []analysis.ObjectFact {
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

func (s *factSet) allPackage(own map[reflect.Type]bool) []analysis.PackageFact {
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

// decodeFacts reads the facts of pkg's direct imports from their vetx
// files.
func decodeFacts(pkg *types.Package, vetx map[string]string) (*factSet, error) {
	s := &factSet{pkg: pkg, m: make(map[factKey]analysis.Fact)}
	var reach map[string]*types.Package // built on the first fact
	for _, imp := range pkg.Imports() {
		file, ok := vetx[imp.Path()]
		if !ok {
			if imp.Path() == "unsafe" {
				continue
			}
			return nil, fmt.Errorf("in %s, can't import facts for package %q: missing facts", pkg.Path(), imp.Path())
		}
		data, err := readVetx(file)
		if err != nil {
			return nil, fmt.Errorf("invalid vetx file for %q: %v", imp.Path(), err)
		}
		if len(data) == 0 {
			continue
		}
		var records []factRecord
		if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&records); err != nil {
			return nil, fmt.Errorf("decoding facts for %q: %v", imp.Path(), err)
		}
		if reach == nil {
			reach = reachable(pkg.Imports())
		}
		for _, r := range records {
			factPkg := reach[r.Pkg]
			if factPkg == nil {
				continue // not reachable from here: nothing can ask about it
			}
			k := factKey{pkg: factPkg, t: reflect.TypeOf(r.Fact)}
			if r.Obj != "" {
				obj, err := objectpath.Object(factPkg, r.Obj)
				if err != nil {
					continue // the object is not in this view of its package
				}
				k.obj = obj
			}
			s.m[k] = r.Fact
		}
	}
	return s, nil
}

// encode returns the facts of the vetx file, sorted so that the same facts
// always give the same bytes (go vet hashes the file into its dependents'
// cache keys).
func (s *factSet) encode() []byte {
	var enc objectpath.Encoder
	var records []factRecord
	s.mu.Lock()
	for k, fact := range s.m {
		if k.pkg != s.pkg {
			if k.obj == nil {
				continue // an imported package fact
			}
			if _, isType := k.obj.(*types.TypeName); !isType && k.obj.Parent() == k.obj.Pkg().Scope() {
				continue // an imported package-level function, variable or constant
			}
		}
		var path objectpath.Path
		if k.obj != nil {
			p, err := enc.For(k.obj)
			if err != nil {
				continue // not reachable from its package's API: dependents cannot name it
			}
			path = p
		}
		records = append(records, factRecord{Pkg: k.pkg.Path(), Obj: path, Fact: fact})
	}
	s.mu.Unlock()
	if len(records) == 0 {
		return nil
	}
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
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(records); err != nil {
		log.Panicf("internal error: encoding facts of %s: %v", s.pkg.Path(), err)
	}
	return buf.Bytes()
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

// The vetx file: vetxMagic, then the gob-encoded fact records (nothing
// when there are none). Unlike unitchecker's it carries no types:
// dependents import types from the compiler's export data.
const vetxMagic = "fencelint vetx 1\n"

func writeVetx(name string, facts []byte) error {
	data := append([]byte(vetxMagic), facts...)
	return os.WriteFile(name, data, 0o666)
}

func readVetx(name string) ([]byte, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(data, []byte(vetxMagic)) {
		return nil, fmt.Errorf("%s is not a fencelint vetx file", name)
	}
	return data[len(vetxMagic):], nil
}

// vetxHasFacts reports whether the vetx file carries facts, from its size.
func vetxHasFacts(name string) (bool, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return false, err
	}
	return fi.Size() > int64(len(vetxMagic)), nil
}
