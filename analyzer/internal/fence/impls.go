package fence

import (
	"go/token"
	"go/types"
	"slices"
	"sort"

	"github.com/fencelint/fencelint/internal/lazyregexp"
	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/analysis"
)

// Implementations in other packages (issue 13 item 2, issue 18 item 2).
//
// A call through an application interface is resolved over the
// implementations the package can see, and only when they agree
// (interfaceFact). The package's own types are found by type; those of
// other packages come from ImplsFact only, never from the types the
// compiler happened to put in its export data: a package sees its direct
// imports' exported types there, and an unexported implementation only
// when, say, an inlinable constructor mentions it. With facts, an
// interface of internal/base implemented by an unexported type of
// internal/rdb and called from the root package is resolved whether or
// not the root imports rdb, and whether or not rdb's constructor inlines.
//
// Each analysed package exports one ImplsFact: its own method-bearing
// types (test doubles left out: a test-double package, a test-double name,
// a type declared in a _test.go file), and those it imported from the
// ImplsFacts of its direct imports of the same project (projectRoot), so
// that every package sees the implementations of its whole dependency
// graph inside the project. A package's types vote on what an interface
// call does only when it exports fencelint facts of its own (its
// PackageFact), as the implementations of direct imports did before: a
// package with nothing fencelint knows of has no say there (NoFacts).

// ImplsFact lists the application types that can implement interfaces
// called elsewhere in the project, with what their methods do.
type ImplsFact struct {
	Types []ImplType
}

func (*ImplsFact) AFact() {}

func (f *ImplsFact) String() string {
	s := "impls"
	for _, t := range f.Types {
		s += " " + t.Name
	}
	return s
}

// ImplType is one named type (the method set of *T).
type ImplType struct {
	Pkg, Name string
	Methods   []ImplMethod // sorted by name
	// NoFacts: the package exports no fencelint facts of its own. Its
	// types do not vote on what an interface call does (interfaceFact),
	// but one of them still contradicts an interface that mirrors a store
	// (an in-memory alternative to Redis: mirrorUncontested).
	NoFacts bool

	storeShaped bool // a method's signature names a type of a package rules/ knows (not exported)
}

// ImplMethod is one method of an ImplType: its name (and package, when
// unexported), its signature spelled with full package paths, and the
// fact of the method (nil: it does nothing fencelint knows). Dynamic:
// promoted from an embedded interface, so what runs is decided at run
// time.
type ImplMethod struct {
	Name, Pkg, Sig string
	Fact           *FuncFact
	Dynamic        bool
}

var anyWord = lazyregexp.New(`(^|[^.\w])any\b`)

// sigString spells a signature (receiver left out) so that identical
// signatures from two packages compare equal.
func sigString(sig *types.Signature) string {
	unnamed := func(t *types.Tuple) *types.Tuple { // parameter names are no part of the type
		vs := make([]*types.Var, t.Len())
		for i := range vs {
			vs[i] = types.NewParam(token.NoPos, nil, "", t.At(i).Type())
		}
		return types.NewTuple(vs...)
	}
	s := types.TypeString(types.NewSignatureType(nil, nil, nil, unnamed(sig.Params()), unnamed(sig.Results()), sig.Variadic()),
		func(p *types.Package) string { return p.Path() })
	return anyWord.ReplaceAllString(s, "${1}interface {}")
}

// importedImpls returns the implementation types other packages' facts
// describe: mergeImpls over the package's direct imports.
func importedImpls(pass *analysis.Pass) []ImplType {
	byPath := map[string]*types.Package{}
	var imports []string
	for _, imp := range pass.Pkg.Imports() {
		byPath[imp.Path()] = imp
		imports = append(imports, imp.Path())
	}
	return mergeImpls(pass.Pkg.Path(), imports, func(path string) *ImplsFact {
		var f ImplsFact
		if !pass.ImportPackageFact(byPath[path], &f) {
			return nil
		}
		return &f
	})
}

// mergeImpls is the union of the ImplsFacts (factOf, nil for none) of the
// direct imports of package path that belong to its project, in the
// order of their paths, deduplicated by package and name, without path's
// own types. The import order is the paths', not the source's: a driver
// that merges for a package it does not parse (PassOn) gets the same list.
func mergeImpls(path string, imports []string, factOf func(imp string) *ImplsFact) []ImplType {
	root := projectRoot(path)
	imports = slices.Clone(imports)
	sort.Strings(imports)
	seen := map[string]bool{}
	var out []ImplType
	for i, imp := range imports {
		if i > 0 && imports[i-1] == imp {
			continue
		}
		if projectRoot(imp) != root || rules.IsLibraryPackage(imp) {
			continue
		}
		f := factOf(imp)
		if f == nil {
			continue
		}
		for _, t := range f.Types {
			if k := t.Pkg + "." + t.Name; !seen[k] && t.Pkg != path {
				seen[k] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// reexportImpls is what a package the engine does not analyse exports:
// only what its imports said, so that importers further up still see it.
func reexportImpls(pass *analysis.Pass) {
	if ts := importedImpls(pass); len(ts) > 0 {
		pass.ExportPackageFact(&ImplsFact{Types: ts})
	}
}

// PassOn is what the engine exports for a package it does not analyse and
// that declares no no-return wrapper (a package MayBeRelevantCalling
// rules out): reexportImpls's fact, from packageFacts, the package facts
// of each direct import. A driver that skips such a package without
// loading it exports these in its place, and may then treat ImplsFact as
// weak (WeakFact): it no longer needs to run a package to pass one on.
func PassOn(path string, imports []string, packageFacts func(imp string) []analysis.Fact) []analysis.Fact {
	ts := mergeImpls(path, imports, func(imp string) *ImplsFact {
		for _, f := range packageFacts(imp) {
			if f, ok := f.(*ImplsFact); ok {
				return f
			}
		}
		return nil
	})
	if len(ts) == 0 {
		return nil
	}
	return []analysis.Fact{&ImplsFact{Types: ts}}
}

// exportImpls exports this package's ImplsFact; own is whether the
// package exports facts of its own (else its types are marked NoFacts).
func (e *engine) exportImpls(own bool) {
	ts := importedImpls(e.pass)
	if !rules.IsTestDoubleName(e.pass.Pkg.Name()) && !rules.IsLibraryPackage(e.pass.Pkg.Path()) {
		for _, t := range e.ownImpls() {
			if t.NoFacts = !own; t.NoFacts && !t.storeShaped {
				continue // it could neither vote nor contest a mirror: keep the fact (and importers' vet files) empty
			}
			ts = append(ts, t)
		}
	}
	if len(ts) > 0 {
		e.pass.ExportPackageFact(&ImplsFact{Types: ts})
	}
}

// ownImpls lists the package's named, non-generic, non-interface types
// with methods, test doubles left out.
func (e *engine) ownImpls() []ImplType {
	var out []ImplType
	scope := e.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		if rules.IsTestDoubleName(tn.Name()) || e.inTestFile(tn.Pos()) {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 {
			continue
		}
		ms := types.NewMethodSet(types.NewPointer(named))
		if ms.Len() == 0 {
			continue
		}
		it := ImplType{Pkg: e.pass.Pkg.Path(), Name: tn.Name()}
		for i := 0; i < ms.Len(); i++ {
			m, ok := ms.At(i).Obj().(*types.Func)
			if !ok {
				continue
			}
			im := ImplMethod{Name: m.Name(), Sig: sigString(m.Type().(*types.Signature))}
			if namesKnownPackage(m.Type().(*types.Signature)) {
				it.storeShaped = true
			}
			if !m.Exported() && m.Pkg() != nil {
				im.Pkg = m.Pkg().Path()
			}
			if isInterfaceMethod(m) {
				im.Dynamic = true
			} else if f := e.implFact(m); f != nil {
				c := *f
				c.Resources = nil // not needed to resolve a call; keeps the fact small
				im.Fact = &c
			}
			it.Methods = append(it.Methods, im)
		}
		sort.Slice(it.Methods, func(i, j int) bool { return it.Methods[i].Name < it.Methods[j].Name })
		out = append(out, it)
	}
	return out
}

// implFact: what a method of one of this package's types does, as the
// package's callers in other packages would be told.
func (e *engine) implFact(m *types.Func) *FuncFact {
	if m.Pkg() == e.pass.Pkg {
		if f := e.local[m]; f != nil && !f.isZero() {
			return f
		}
		return nil
	}
	return e.calleeFact(m)
}

// factImplsOf returns the methods named like interface method m of the
// fact-described types whose method sets hold every method of m's
// interface with an identical signature; types of packages without facts
// of their own only when all is set.
func (e *engine) factImplsOf(m *types.Func, iface *types.Interface, all bool) []ImplMethod {
	if e.factImpls == nil {
		e.factImpls = importedImpls(e.pass)
	}
	type want struct{ name, pkg, sig string }
	var wants []want
	for i := 0; i < iface.NumMethods(); i++ {
		im := iface.Method(i)
		w := want{name: im.Name(), sig: sigString(im.Type().(*types.Signature))}
		if !im.Exported() && im.Pkg() != nil {
			w.pkg = im.Pkg().Path()
		}
		wants = append(wants, w)
	}
	var out []ImplMethod
next:
	for _, t := range e.factImpls {
		if t.NoFacts && !all {
			continue
		}
		var hit *ImplMethod
		for _, w := range wants {
			j := sort.Search(len(t.Methods), func(j int) bool { return t.Methods[j].Name >= w.name })
			found := false
			for ; j < len(t.Methods) && t.Methods[j].Name == w.name; j++ {
				tm := &t.Methods[j]
				if tm.Pkg == w.pkg && tm.Sig == w.sig {
					found = true
					if w.name == m.Name() {
						hit = tm
					}
					break
				}
			}
			if !found {
				continue next
			}
		}
		if hit != nil {
			out = append(out, *hit)
		}
	}
	return out
}

// namesKnownPackage: a parameter or result of sig is, or is built from, a
// named type of a package rules/ knows (*redis.StatusCmd, sql.Result):
// the method could stand in for a store's.
func namesKnownPackage(sig *types.Signature) bool {
	var known func(t types.Type, depth int) bool
	known = func(t types.Type, depth int) bool {
		if depth > 4 {
			return false
		}
		switch t := types.Unalias(t).(type) {
		case *types.Named:
			return t.Obj().Pkg() != nil && rules.IsKnownPath(t.Obj().Pkg().Path())
		case *types.Pointer:
			return known(t.Elem(), depth+1)
		case *types.Slice:
			return known(t.Elem(), depth+1)
		case *types.Map:
			return known(t.Key(), depth+1) || known(t.Elem(), depth+1)
		}
		return false
	}
	for _, tup := range []*types.Tuple{sig.Params(), sig.Results()} {
		for i := 0; i < tup.Len(); i++ {
			if known(tup.At(i).Type(), 0) {
				return true
			}
		}
	}
	return false
}
