package fencetest

import (
	"bufio"
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

var stubgen = flag.Bool("stubgen", false, "regenerate the library stubs under testdata/src from testdata/stubs.txt and the modules of testdata/realapi")

// TestGenerateStubs writes the library stubs under the repository's
// testdata/src. It runs only with -stubgen:
//
//	go test ./analyzer/internal/fencetest -run TestGenerateStubs -stubgen
//
// testdata/stubs.txt lists the wanted symbols per package; the generator
// copies their declarations from the real modules and adds what they need:
// types their signatures mention (declared minimally: empty structs and
// interfaces), embedded fields and interfaces through which a wanted method
// or field is promoted (so the callee's FullName is the real one), and the
// methods a stub type needs to keep implementing the stub interfaces it
// implements in the real module.
func TestGenerateStubs(t *testing.T) {
	if !*stubgen {
		t.Skip("run with -stubgen to regenerate the stubs")
	}
	testdata := TestData(t)
	sp, err := parseSpec("testdata/stubs.txt")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := load(t, "real modules (testdata/realapi)", filepath.Join(testdata, "realapi"), realEnv(), sp.order)
	if t.Failed() {
		return
	}
	g := &generator{
		wants:       make(map[*types.TypeName]map[string]bool),
		objs:        make(map[types.Object]bool),
		rhs:         make(map[*types.TypeName]*types.Named),
		errMsgs:     make(map[types.Object]string),
		importNames: make(map[string]map[string]string),
		modules:     make(map[string]string),
		pkgNames:    make(map[string]string),
	}
	roots := make(map[string]*types.Package)
	for _, p := range pkgs {
		roots[p.PkgPath] = p.Types
		g.fset = p.Fset
		g.recordSyntax(p)
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Module != nil {
			g.modules[p.PkgPath] = p.Module.Path + "@" + p.Module.Version
		}
	})
	for _, path := range sp.order {
		pkg := roots[path]
		if pkg == nil {
			t.Fatalf("%s: not loaded", path)
		}
		for _, s := range sp.syms[path] {
			obj := pkg.Scope().Lookup(s.name)
			if obj == nil {
				t.Errorf("%s.%s: no such symbol", path, s.name)
				continue
			}
			g.addObj(obj)
			for _, m := range s.members {
				tn, ok := obj.(*types.TypeName)
				if !ok {
					t.Errorf("%s.%s: members listed for a %s", path, s.name, kindOf(obj))
					break
				}
				g.addMember(tn, m)
			}
		}
	}
	g.closeImplements()
	for _, err := range g.errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	byPkg := make(map[*types.Package][]types.Object)
	for obj := range g.objs {
		byPkg[obj.Pkg()] = append(byPkg[obj.Pkg()], obj)
	}
	for pkg, objs := range byPkg {
		src, err := g.file(pkg, objs)
		if err != nil {
			t.Fatalf("%s: %v", pkg.Path(), err)
		}
		dir := filepath.Join(testdata, "src", filepath.FromSlash(pkg.Path()))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, pkg.Name()+".go")
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d symbols)", file, len(objs))
	}
}

// A spec is testdata/stubs.txt: "package PATH" lines, each followed by
// lines "Name [Member...]" naming a package-level symbol and, for a type,
// the fields, methods or embedded types to declare.
type spec struct {
	order []string
	syms  map[string][]specSym
}

type specSym struct {
	name    string
	members []string
}

func parseSpec(file string) (*spec, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sp := &spec{syms: make(map[string][]specSym)}
	cur := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		switch {
		case len(fields) == 0:
		case fields[0] == "package" && len(fields) == 2:
			cur = fields[1]
			sp.order = append(sp.order, cur)
		case cur == "":
			return nil, fmt.Errorf("%s:%d: symbol before the first package line", file, n)
		default:
			sp.syms[cur] = append(sp.syms[cur], specSym{fields[0], fields[1:]})
		}
	}
	return sp, sc.Err()
}

type generator struct {
	fset        *token.FileSet
	objs        map[types.Object]bool               // objects to declare
	wants       map[*types.TypeName]map[string]bool // fields, methods, embeddeds to declare per type
	rhs         map[*types.TypeName]*types.Named    // type T pkg.U: T's fields live in U
	importNames map[string]map[string]string        // package path -> import path -> name in the real source
	errMsgs     map[types.Object]string             // messages of errors.New error variables
	modules     map[string]string                   // package path -> module@version
	pkgNames    map[string]string                   // import path -> name used in the file being written
	errs        []string
}

func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// recordSyntax notes the declarations "type T pkg.U" of p:
// go/types keeps only their underlying type, but fields declared in U must
// stay declared in U (etcd's clientv3.TxnResponse and pb.TxnResponse).
//
// It also notes the import names of its files and the messages of error
// variables initialised with errors.New("...").
func (g *generator) recordSyntax(p *packages.Package) {
	names := make(map[string]string)
	g.importNames[p.PkgPath] = names
	for _, f := range p.Syntax {
		for _, spec := range f.Imports {
			path, err := strconv.Unquote(spec.Path.Value)
			if err != nil || names[path] != "" {
				continue
			}
			if spec.Name != nil && spec.Name.Name != "_" && spec.Name.Name != "." {
				names[path] = spec.Name.Name
			} else if imp := p.Imports[path]; spec.Name == nil && imp != nil {
				names[path] = imp.Name
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if vs, ok := n.(*ast.ValueSpec); ok && len(vs.Values) == len(vs.Names) {
				for i, v := range vs.Values {
					if msg, ok := errorsNewArg(v); ok {
						g.errMsgs[p.TypesInfo.Defs[vs.Names[i]]] = msg
					}
				}
			}
			ts, ok := n.(*ast.TypeSpec)
			if !ok || ts.Assign.IsValid() || ts.TypeParams != nil {
				return true
			}
			tn, _ := p.TypesInfo.Defs[ts.Name].(*types.TypeName)
			if named, ok := types.Unalias(p.TypesInfo.TypeOf(ts.Type)).(*types.Named); ok && tn != nil {
				g.rhs[tn] = named
			}
			return true
		})
	}
}

// errorsNewArg returns "msg" if e is errors.New("msg") or fmt.Errorf("msg").
func errorsNewArg(e ast.Expr) (string, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return "", false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	if id, ok := sel.X.(*ast.Ident); !ok || !(id.Name == "errors" && sel.Sel.Name == "New" || id.Name == "fmt" && sel.Sel.Name == "Errorf") {
		return "", false
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	msg, err := strconv.Unquote(lit.Value)
	return msg, err == nil
}

func (g *generator) errorf(format string, args ...any) {
	g.errs = append(g.errs, fmt.Sprintf(format, args...))
}

func (g *generator) addObj(obj types.Object) {
	if obj.Pkg() == nil || isStd(obj.Pkg().Path()) || g.objs[obj] {
		return
	}
	g.objs[obj] = true
	switch obj := obj.(type) {
	case *types.Func, *types.Var, *types.Const:
		g.deps(obj.Type())
	case *types.TypeName:
		if g.wants[obj] == nil {
			g.wants[obj] = make(map[string]bool)
		}
		if a, ok := obj.Type().(*types.Alias); ok {
			g.deps(a.Rhs())
			return
		}
		named := obj.Type().(*types.Named)
		for tp := range named.TypeParams().TypeParams() {
			g.deps(tp.Constraint())
		}
		if u := g.rhs[obj]; u != nil {
			g.addObj(u.Obj())
			return
		}
		switch named.Underlying().(type) {
		case *types.Struct, *types.Interface:
			// Members on demand.
		default:
			g.deps(named.Underlying())
		}
	}
}

// deps declares the named types that t mentions.
func (g *generator) deps(t types.Type) {
	switch t := t.(type) {
	case *types.Named:
		g.addObj(t.Origin().Obj())
		for a := range t.TypeArgs().Types() {
			g.deps(a)
		}
	case *types.Alias:
		g.addObj(t.Origin().Obj())
		for a := range t.TypeArgs().Types() {
			g.deps(a)
		}
	case *types.Pointer:
		g.deps(t.Elem())
	case *types.Slice:
		g.deps(t.Elem())
	case *types.Array:
		g.deps(t.Elem())
	case *types.Chan:
		g.deps(t.Elem())
	case *types.Map:
		g.deps(t.Key())
		g.deps(t.Elem())
	case *types.Signature:
		for tp := range t.TypeParams().TypeParams() {
			g.deps(tp.Constraint())
		}
		g.deps(t.Params())
		g.deps(t.Results())
	case *types.Tuple:
		for v := range t.Variables() {
			g.deps(v.Type())
		}
	case *types.Struct:
		for f := range t.Fields() {
			g.deps(f.Type())
		}
	case *types.Interface:
		for et := range t.EmbeddedTypes() {
			g.deps(et)
		}
		for m := range t.ExplicitMethods() {
			g.deps(m.Type())
		}
	}
}

// addMember declares the field, method or embedded type name of tn,
// following promotion: a method promoted from an embedded field or
// interface is declared there, and the embedding is declared too.
func (g *generator) addMember(tn *types.TypeName, name string) {
	if tn.Pkg() == nil {
		return // error's Error
	}
	g.addObj(tn)
	if g.wants[tn][name] {
		return
	}
	g.wants[tn][name] = true
	named, ok := tn.Type().(*types.Named)
	if !ok {
		g.errorf("%s.%s: members of an alias", tn.Pkg().Path(), tn.Name())
		return
	}
	id := tn.Pkg().Path() + "." + tn.Name() + "." + name
	if iface, ok := named.Underlying().(*types.Interface); ok {
		for et := range iface.EmbeddedTypes() {
			if en, ok := types.Unalias(et).(*types.Named); ok && en.Obj().Name() == name {
				g.addObj(en.Obj())
				return
			}
		}
		for m := range iface.ExplicitMethods() {
			if m.Name() == name {
				g.deps(m.Type())
				return
			}
		}
		for et := range iface.EmbeddedTypes() {
			en, ok := types.Unalias(et).(*types.Named)
			if !ok {
				continue
			}
			if obj, _, _ := types.LookupFieldOrMethod(en, false, tn.Pkg(), name); obj != nil {
				delete(g.wants[tn], name)
				g.addMember(tn, en.Obj().Name())
				g.addMember(en.Obj(), name)
				return
			}
		}
		g.errorf("%s: no such method", id)
		return
	}
	if u := g.rhs[tn]; u != nil {
		// Fields live in u; methods declared on tn stay on tn.
		if obj, index, _ := types.LookupFieldOrMethod(named, true, tn.Pkg(), name); obj != nil {
			if _, isFunc := obj.(*types.Func); !isFunc || len(index) > 1 {
				delete(g.wants[tn], name)
				g.addMember(u.Obj(), name)
				return
			}
		}
	}
	obj, index, _ := types.LookupFieldOrMethod(named, true, tn.Pkg(), name)
	if obj == nil {
		g.errorf("%s: no such field or method", id)
		return
	}
	if len(index) == 1 {
		g.deps(obj.Type())
		return
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		g.errorf("%s: promoted member of a non-struct", id)
		return
	}
	embedded := st.Field(index[0])
	en := namedOf(embedded.Type())
	if en == nil {
		g.errorf("%s: promoted through %s, not a named type", id, embedded.Name())
		return
	}
	delete(g.wants[tn], name)
	g.addMember(tn, embedded.Name())
	g.addMember(en.Obj(), name)
}

func namedOf(t types.Type) *types.Named {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// stubMethods returns the methods the stub of interface tn declares,
// including those of the interfaces it embeds.
func (g *generator) stubMethods(tn *types.TypeName) []string {
	iface := tn.Type().Underlying().(*types.Interface)
	var out []string
	for m := range g.wants[tn] {
		embedded := false
		for et := range iface.EmbeddedTypes() {
			if en, ok := types.Unalias(et).(*types.Named); ok && en.Obj().Name() == m {
				out = append(out, g.stubMethods(en.Obj())...)
				embedded = true
			}
		}
		if !embedded {
			out = append(out, m)
		}
	}
	return out
}

// closeImplements adds to every stub concrete type the methods of every
// stub interface that it implements in the real module, until nothing
// changes.
func (g *generator) closeImplements() {
	for changed := true; changed; {
		changed = false
		var concrete, ifaces []*types.TypeName
		for tn := range g.wants {
			if tn.IsAlias() || tn.Type().(*types.Named).TypeParams() != nil {
				continue
			}
			if types.IsInterface(tn.Type()) {
				ifaces = append(ifaces, tn)
			}
			// Interfaces too: UniversalClient must stay a Scripter.
			concrete = append(concrete, tn)
		}
		errType := types.Universe.Lookup("error").Type()
		for _, c := range concrete {
			// Stub errors stay errors, for errors.As in test cases.
			if types.Implements(types.NewPointer(c.Type()), errType.Underlying().(*types.Interface)) && !g.hasMember(c, "Error") {
				g.addMember(c, "Error")
				changed = true
			}
			for _, i := range ifaces {
				iface := i.Type().Underlying().(*types.Interface)
				t := c.Type()
				if !types.IsInterface(t) {
					t = types.NewPointer(t)
				}
				if c == i || !types.Implements(t, iface) {
					continue
				}
				for _, m := range g.stubMethods(i) {
					if obj, _, _ := types.LookupFieldOrMethod(c.Type(), true, c.Pkg(), m); obj != nil && !g.hasMember(c, m) {
						g.addMember(c, m)
						changed = true
					}
				}
			}
		}
	}
}

// hasMember reports whether the stub of tn has the field or method name,
// directly or promoted.
func (g *generator) hasMember(tn *types.TypeName, name string) bool {
	if g.wants[tn][name] {
		return true
	}
	if types.IsInterface(tn.Type()) {
		return slices.Contains(g.stubMethods(tn), name)
	}
	st, ok := tn.Type().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	if u := g.rhs[tn]; u != nil {
		return g.hasMember(u.Obj(), name)
	}
	for f := range st.Fields() {
		if f.Embedded() && g.wants[tn][f.Name()] {
			if en := namedOf(f.Type()); en != nil && g.hasMember(en.Obj(), name) {
				return true
			}
		}
	}
	return false
}

// file renders the stub of pkg declaring objs.
func (g *generator) file(pkg *types.Package, objs []types.Object) ([]byte, error) {
	sortByPos := func(objs []types.Object) {
		slices.SortStableFunc(objs, func(a, b types.Object) int {
			pa, pb := g.fset.Position(a.Pos()), g.fset.Position(b.Pos())
			return cmp.Or(cmp.Compare(path.Base(pa.Filename), path.Base(pb.Filename)), cmp.Compare(pa.Offset, pb.Offset), cmp.Compare(a.Name(), b.Name()))
		})
	}
	sortByPos(objs)
	// Two passes: the first collects the imports, the second prints with
	// the names chosen for them.
	imports := make(map[string]string) // path -> package name
	qual := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		imports[p.Path()] = p.Name()
		if name, ok := g.pkgNames[p.Path()]; ok {
			return name
		}
		return p.Name()
	}
	var body bytes.Buffer
	g.pkgNames = map[string]string{}
	g.body(&body, pkg, objs, qual, sortByPos)
	g.pkgNames = chooseNames(imports, g.importNames[pkg.Path()])
	body.Reset()
	g.body(&body, pkg, objs, qual, sortByPos)

	var b bytes.Buffer
	mod := g.modules[pkg.Path()]
	fmt.Fprintf(&b, "// Code generated by fencetest.TestGenerateStubs from testdata/stubs.txt; DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "// Package %s is a stub of %s (%s) for fencelint's\n", pkg.Name(), pkg.Path(), mod)
	fmt.Fprintf(&b, "// analysistest cases: API only, a subset of the real declarations,\n")
	fmt.Fprintf(&b, "// checked against the real module by TestStubsMatchRealModules in\n")
	fmt.Fprintf(&b, "// analyzer/internal/fencetest.\n")
	fmt.Fprintf(&b, "package %s\n\n", pkg.Name())
	if len(imports) > 0 {
		b.WriteString("import (\n")
		paths := slices.Sorted(maps.Keys(imports))
		// Standard library first, then the rest, as goimports groups them.
		slices.SortStableFunc(paths, func(a, b string) int {
			if isStd(a) == isStd(b) {
				return 0
			}
			if isStd(a) {
				return -1
			}
			return 1
		})
		for i, p := range paths {
			if i > 0 && isStd(paths[i-1]) && !isStd(p) {
				b.WriteString("\n")
			}
			name := g.pkgNames[p]
			if name == imports[p] && name == path.Base(p) {
				fmt.Fprintf(&b, "\t%q\n", p)
			} else {
				fmt.Fprintf(&b, "\t%s %q\n", name, p)
			}
		}
		b.WriteString(")\n\n")
	}
	b.Write(body.Bytes())
	return format.Source(b.Bytes())
}

// chooseNames gives each imported package (path -> package name) a
// distinct name: the one the real source uses if any, else its package
// name, prefixed for later paths (in sorted order) whose name is taken
// with their parent directories' names.
func chooseNames(imports, preferred map[string]string) map[string]string {
	names := make(map[string]string)
	used := make(map[string]bool)
	paths := slices.Sorted(maps.Keys(imports))
	for _, p := range paths {
		if name := preferred[p]; name != "" && !used[name] {
			names[p] = name
			used[name] = true
		}
	}
	for _, p := range paths {
		if names[p] != "" {
			continue
		}
		name := imports[p]
		elems := strings.Split(p, "/")
		for i := len(elems) - 2; used[name] && i >= 0; i-- {
			if e := elems[i]; !isMajorVersion(e) {
				name = strings.NewReplacer("-", "", ".", "").Replace(e) + name
			}
		}
		used[name] = true
		names[p] = name
	}
	return names
}

func isMajorVersion(elem string) bool {
	return len(elem) > 1 && elem[0] == 'v' && strings.Trim(elem[1:], "0123456789") == ""
}

func (g *generator) body(b *bytes.Buffer, pkg *types.Package, objs []types.Object, qual types.Qualifier, sortByPos func([]types.Object)) {
	ts := func(t types.Type) string { return types.TypeString(t, qual) }
	for _, obj := range objs {
		switch obj := obj.(type) {
		case *types.Const:
			val := obj.Val().ExactString()
			if basic, ok := obj.Type().(*types.Basic); ok && basic.Info()&types.IsUntyped != 0 {
				fmt.Fprintf(b, "const %s = %s\n\n", obj.Name(), val)
			} else {
				fmt.Fprintf(b, "const %s %s = %s\n\n", obj.Name(), ts(obj.Type()), val)
			}
		case *types.Var:
			if types.Identical(obj.Type(), types.Universe.Lookup("error").Type()) {
				qual(types.NewPackage("errors", "errors"))
				msg, ok := g.errMsgs[obj]
				if !ok {
					msg = pkg.Name() + ": " + obj.Name()
				}
				fmt.Fprintf(b, "var %s = errors.New(%q)\n\n", obj.Name(), msg)
			} else {
				fmt.Fprintf(b, "var %s %s\n\n", obj.Name(), ts(obj.Type()))
			}
		case *types.Func:
			fmt.Fprintf(b, "func %s%s { panic(\"stub\") }\n\n", obj.Name(), strings.TrimPrefix(ts(obj.Type()), "func"))
		case *types.TypeName:
			g.typeDecl(b, obj, ts, sortByPos)
		}
	}
}

func (g *generator) typeDecl(b *bytes.Buffer, tn *types.TypeName, ts func(types.Type) string, sortByPos func([]types.Object)) {
	if a, ok := tn.Type().(*types.Alias); ok {
		fmt.Fprintf(b, "type %s = %s\n\n", tn.Name(), ts(a.Rhs()))
		return
	}
	named := tn.Type().(*types.Named)
	tparams := ""
	if tps := named.TypeParams(); tps.Len() > 0 {
		var parts []string
		for tp := range tps.TypeParams() {
			parts = append(parts, tp.Obj().Name()+" "+ts(tp.Constraint()))
		}
		tparams = "[" + strings.Join(parts, ", ") + "]"
	}
	want := g.wants[tn]
	switch u := named.Underlying().(type) {
	case *types.Struct:
		if r := g.rhs[tn]; r != nil {
			fmt.Fprintf(b, "type %s%s %s\n", tn.Name(), tparams, ts(r))
			break
		}
		fmt.Fprintf(b, "type %s%s struct {", tn.Name(), tparams)
		n := 0
		for f := range u.Fields() {
			if !want[f.Name()] {
				continue
			}
			if n == 0 {
				b.WriteString("\n")
			}
			n++
			if f.Embedded() {
				fmt.Fprintf(b, "\t%s\n", ts(f.Type()))
			} else {
				fmt.Fprintf(b, "\t%s %s\n", f.Name(), ts(f.Type()))
			}
		}
		b.WriteString("}\n")
	case *types.Interface:
		fmt.Fprintf(b, "type %s%s interface {", tn.Name(), tparams)
		n := 0
		line := func(s string) {
			if n == 0 {
				b.WriteString("\n")
			}
			n++
			b.WriteString("\t" + s + "\n")
		}
		for et := range u.EmbeddedTypes() {
			if en, ok := types.Unalias(et).(*types.Named); ok && want[en.Obj().Name()] {
				line(ts(et))
			}
		}
		for m := range u.ExplicitMethods() {
			if want[m.Name()] {
				line(m.Name() + strings.TrimPrefix(ts(m.Type()), "func"))
			}
		}
		b.WriteString("}\n")
	default:
		fmt.Fprintf(b, "type %s%s %s\n", tn.Name(), tparams, ts(u))
	}
	if types.IsInterface(named) {
		b.WriteString("\n")
		return
	}
	var methods []types.Object
	for m := range named.Methods() {
		if want[m.Name()] {
			methods = append(methods, m)
		}
	}
	sortByPos(methods)
	for _, m := range methods {
		sig := m.Type().(*types.Signature)
		recv := sig.Recv()
		r := ts(recv.Type())
		if name := recv.Name(); name != "" && name != "_" {
			r = name + " " + r
		}
		fmt.Fprintf(b, "\nfunc (%s) %s%s { panic(\"stub\") }\n", r, m.Name(), strings.TrimPrefix(ts(sig), "func"))
	}
	b.WriteString("\n")
}
