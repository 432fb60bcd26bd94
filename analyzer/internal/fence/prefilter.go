package fence

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// maxSourceBytes is the source budget of one function declaration, checked
// before SSA is built: building the SSA of the 60,000-instruction test
// function alone cost 376 MB and half a second before the instruction
// budget could skip it. Generated code runs at about 8 bytes of source per
// SSA instruction, so a body over 16 bytes per instruction of maxInstrs
// would exceed that budget anyway; the size is known without a walk.
const maxSourceBytes = 16 * maxInstrs

// The per-function relevance filter. The package-level fast path (relevant)
// skips packages with nothing lock-related in reach; inside a relevant
// package most functions still touch no lock, lease, token or storage
// write, and building their SSA was half of the engine's time. A function
// needs SSA when, by its syntax and types alone:
//
//   - its signature mentions a relevant type (a lease, lock or session
//     type, a type of a library rules/ knows or of a package with facts)
//     or a token-named parameter;
//   - its body uses an object of such a package, a value or selection of
//     a relevant type, a token field, or a function with a relevant
//     signature;
//   - it carries a //fencelint: directive, or has a fact of its own;
//   - it calls or refers to a function of this package that needs SSA
//     (writes and acquires propagate to callers through summaries), or
//     calls an interface method that such a method of this package
//     implements (the engine resolves interface calls over implementations).
//
// A function that fails every test has no write, acquire, token or check
// the engine could see, so it has nothing to report and no fact to export.
// Callees of needed functions that fail the tests are not needed either:
// the engine never looks inside a callee's body, only at its summary, and
// a function with nothing relevant has an empty summary.
type prefilter struct {
	e        *engine
	pkgs     map[*types.Package]bool
	types    map[types.Type]bool
	needed   map[*ast.FuncDecl]bool
	callers  map[*ast.FuncDecl][]*ast.FuncDecl
	declOf   map[*types.Func]*ast.FuncDecl
	methods  map[string][]*types.Func // this package's concrete methods by name
	dirSpans [][2]int                 // positions of //fencelint: comments

	ifaceMethods map[*types.Func]bool // factImplemented's answers
}

// selectDecls returns the package's files with the bodies of functions
// that do not need SSA removed (shallow copies; the originals are not
// modified), and how many bodies it removed.
func (e *engine) selectDecls() ([]*ast.File, int) {
	p := &prefilter{
		e:       e,
		pkgs:    map[*types.Package]bool{},
		types:   map[types.Type]bool{},
		needed:  map[*ast.FuncDecl]bool{},
		callers: map[*ast.FuncDecl][]*ast.FuncDecl{},
		declOf:  map[*types.Func]*ast.FuncDecl{},
	}
	for _, f := range e.pass.Files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//fencelint:") {
					p.dirSpans = append(p.dirSpans, [2]int{int(c.Pos()), int(c.End())})
				}
			}
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if fn, ok := e.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					p.declOf[fn] = fd
					if fd.Recv != nil {
						if p.methods == nil {
							p.methods = map[string][]*types.Func{}
						}
						p.methods[fn.Name()] = append(p.methods[fn.Name()], fn)
					}
				}
			}
		}
	}
	if allFuncs {
		return e.pass.Files, 0
	}
	var work []*ast.FuncDecl
	for _, f := range e.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if p.direct(fd) {
				p.needed[fd] = true
				work = append(work, fd)
			}
		}
	}
	for len(work) > 0 { // callers of needed functions are needed: linear in edges
		fd := work[len(work)-1]
		work = work[:len(work)-1]
		for _, c := range p.callers[fd] {
			if !p.needed[c] {
				p.needed[c] = true
				work = append(work, c)
			}
		}
	}

	// Helpers that return a weak value (func newFence() int64 { return
	// time.Now().UnixNano() }) touch no lock or store, but a needed
	// caller reads their result as a token (returnedToken): their SSA is
	// built too. They do not make their callers needed.
	for _, f := range e.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && !p.needed[fd] && p.returnsWeak(fd) {
				p.needed[fd] = true
			}
		}
	}

	removed := 0
	files := make([]*ast.File, len(e.pass.Files))
	for i, f := range e.pass.Files {
		files[i] = f
		var decls []ast.Decl
		for j, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || (p.needed[fd] && !tooLarge(fd)) || (fd.Recv == nil && fd.Name.Name == "init") {
				continue
			}
			if decls == nil {
				decls = append([]ast.Decl(nil), f.Decls...)
			}
			stub := *fd
			stub.Body = nil
			decls[j] = &stub
			removed++
		}
		if decls != nil {
			cp := *f
			cp.Decls = decls
			files[i] = &cp
		}
	}
	return files, removed
}

// returnsWeak: fd's first result is an integer (a token's type) and its
// body calls a source of weak values (a clock reading, a random number:
// rules' weak tokens).
func (p *prefilter) returnsWeak(fd *ast.FuncDecl) bool {
	info := p.e.pass.TypesInfo
	fn, _ := info.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return false
	}
	res := fn.Type().(*types.Signature).Results()
	if res.Len() == 0 || !rules.IsIntegerLike(res.At(0).Type()) {
		return false
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if callee, ok := typeutil.Callee(info, call).(*types.Func); ok {
				if t, ok := rules.TokenOfFunc(callee); ok && t.Weak != rules.NotWeak {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// tooLarge applies the source budget before SSA is built.
func tooLarge(fd *ast.FuncDecl) bool {
	return fd.Body != nil && int(fd.Body.End()-fd.Body.Pos()) > maxSourceBytes
}

// direct reports whether fd needs SSA by itself, and records its calls of
// and references to other functions of the package.
func (p *prefilter) direct(fd *ast.FuncDecl) bool {
	info := p.e.pass.TypesInfo
	fn, _ := info.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return true // cannot tell: build it
	}
	if p.e.local[fn] != nil || p.hasDirective(fd) {
		return true
	}
	if p.signature(fn.Type().(*types.Signature)) {
		return true
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.Ident:
			obj := info.Uses[n]
			if obj == nil {
				obj = info.Defs[n]
			}
			if obj != nil && p.object(fd, obj) {
				found = true
			}
		case *ast.SelectorExpr:
			if sel := info.Selections[n]; sel != nil && p.typ(sel.Recv()) {
				found = true
			}
		case *ast.CallExpr:
			if tv, ok := info.Types[n]; ok && tv.Type != nil && p.typ(tv.Type) {
				found = true // a call whose result is a lease, a lock, ...
			}
		}
		return !found
	})
	return found
}

func (p *prefilter) hasDirective(fd *ast.FuncDecl) bool {
	start, end := int(fd.Pos()), int(fd.End())
	if fd.Doc != nil {
		start = int(fd.Doc.Pos())
	}
	for _, s := range p.dirSpans {
		if s[0] >= start && s[1] <= end {
			return true
		}
	}
	return false
}

// object reports whether a use of obj in fd makes fd relevant, and records
// uses of the package's own functions as call edges.
func (p *prefilter) object(fd *ast.FuncDecl, obj types.Object) bool {
	switch obj := obj.(type) {
	case *types.PkgName:
		return false // the selected member is checked on its own
	case *types.Func:
		obj = obj.Origin()
		if isInterfaceMethod(obj) {
			p.implementations(fd, obj)
			if p.factImplemented(obj) {
				return true // s.locks.Acquire(...), s.store.Save(...) implemented in another package
			}
		}
		if obj.Pkg() != nil && obj.Pkg() != p.e.pass.Pkg {
			if p.pkg(obj.Pkg()) {
				return true
			}
		} else if callee := p.declOf[obj]; callee != nil {
			if callee != fd {
				p.callers[callee] = append(p.callers[callee], fd)
			}
			if p.e.local[obj] != nil {
				return true
			}
		}
		sig, ok := obj.Type().(*types.Signature)
		return ok && p.signature(sig)
	case *types.Var:
		if p.e.tokenFields[obj] || (p.e.decl != nil && p.e.decl.funcVars[obj] != nil) {
			return true // a token field, or a func value declared a write or an acquire
		}
		if obj.Pkg() != nil && obj.Pkg() != p.e.pass.Pkg && obj.IsField() && p.pkg(obj.Pkg()) {
			return true
		}
		if _, isFunc := obj.Type().Underlying().(*types.Signature); isFunc && obj.Pkg() != nil && obj.Pkg() != p.e.pass.Pkg && p.pkg(obj.Pkg()) {
			return true // a func variable of a package with facts may hold a declared write or acquire
		}
		return p.typ(obj.Type())
	case *types.TypeName:
		return p.typ(obj.Type())
	case *types.Const:
		return obj.Pkg() != nil && obj.Pkg() != p.e.pass.Pkg && p.pkg(obj.Pkg())
	}
	return false
}

// implementations records calls of interface method m in fd as calls of
// the methods of this package that implement it.
func (p *prefilter) implementations(fd *ast.FuncDecl, m *types.Func) {
	irecv := m.Type().(*types.Signature).Recv().Type()
	if isGeneric(irecv) {
		return // not resolved by the engine either (interfaceFact)
	}
	iface, ok := irecv.Underlying().(*types.Interface)
	if !ok {
		return
	}
	for _, cm := range p.methods[m.Name()] {
		recv := cm.Type().(*types.Signature).Recv().Type()
		if isGeneric(recv) {
			continue
		}
		impl := types.Implements(recv, iface)
		if _, isPtr := types.Unalias(recv).(*types.Pointer); !impl && !isPtr {
			impl = types.Implements(types.NewPointer(recv), iface) // T's methods are *T's too
		}
		if !impl {
			continue
		}
		if callee := p.declOf[cm]; callee != nil && callee != fd {
			p.callers[callee] = append(p.callers[callee], fd)
		}
	}
}

// factImplemented: interface method m is implemented, in another package
// of the project, by a method with a fencelint fact (an acquire, a write,
// a release): the engine resolves calls of m over those implementations
// (interfaceFact), so a body that calls m needs SSA even when neither the
// interface's package nor anything else in the body is relevant.
func (p *prefilter) factImplemented(m *types.Func) bool {
	if r, ok := p.ifaceMethods[m]; ok {
		return r
	}
	r := false
	if sig, ok := m.Type().(*types.Signature); ok && sig.Recv() != nil && !isGeneric(sig.Recv().Type()) {
		if iface, ok := sig.Recv().Type().Underlying().(*types.Interface); ok {
			for _, im := range p.e.factImplsOf(m, iface, false) {
				if im.Fact != nil && !im.Fact.isZero() {
					r = true
					break
				}
			}
		}
	}
	if p.ifaceMethods == nil {
		p.ifaceMethods = map[*types.Func]bool{}
	}
	p.ifaceMethods[m] = r
	return r
}

// signature: what makes a body a scope or an acquire wrapper (a lease,
// lock or token type as receiver, parameter or result, a token-named
// parameter: optional tokens are judged whatever their type, a callback
// parameter receiving a lease). Other types in a signature matter only if
// the body uses them, which direct sees.
func (p *prefilter) signature(sig *types.Signature) bool {
	if r := sig.Recv(); r != nil && p.scopeType(r.Type()) {
		return true
	}
	for i := 0; i < sig.Params().Len(); i++ {
		v := sig.Params().At(i)
		if rules.IsTokenParamName(v.Name()) || p.scopeType(v.Type()) {
			return true
		}
		if cb, ok := v.Type().Underlying().(*types.Signature); ok && cb != sig && p.signature(cb) {
			return true
		}
	}
	for i := 0; i < sig.Results().Len(); i++ {
		if p.scopeType(sig.Results().At(i).Type()) {
			return true
		}
	}
	return false
}

// scopeType: a lease-shaped, lock or token type, or a pointer to one.
func (p *prefilter) scopeType(t types.Type) bool {
	if ptr, ok := types.Unalias(t).(*types.Pointer); ok {
		t = ptr.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	if _, ok := p.e.leaseOf(n); ok {
		return true
	}
	return rules.IsLockType(n) || isTokenType(n)
}

// pkg: a library rules/ describes, or a package with fencelint facts.
func (p *prefilter) pkg(pkg *types.Package) bool {
	if r, ok := p.pkgs[pkg]; ok {
		return r
	}
	path := pkg.Path()
	r := rules.IsKnownPath(path) || rules.IsLibraryPackage(path) || p.e.pass.ImportPackageFact(pkg, new(PackageFact))
	p.pkgs[pkg] = r
	return r
}

// typ: t is or contains (through pointers, containers, func signatures and
// unnamed structs) a named type of a relevant package, a lease-shaped
// type, a lock type or a token type.
func (p *prefilter) typ(t types.Type) bool {
	if t == nil {
		return false
	}
	if r, ok := p.types[t]; ok {
		return r
	}
	p.types[t] = false // cycles: recursive types are decided by their other parts
	r := p.typ1(t)
	p.types[t] = r
	return r
}

func (p *prefilter) typ1(t types.Type) bool {
	switch t := t.(type) {
	case *types.Alias:
		return p.typ(types.Unalias(t))
	case *types.Named:
		if p.scopeType(t) {
			return true
		}
		if pkg := t.Obj().Pkg(); pkg != nil && pkg != p.e.pass.Pkg && p.pkg(pkg) {
			return true
		}
		for i := 0; i < t.TypeArgs().Len(); i++ {
			if p.typ(t.TypeArgs().At(i)) {
				return true
			}
		}
		// The package's own wrapper types are not looked into: the body's
		// use of their relevant fields and methods is seen on its own.
		return false
	case *types.Pointer:
		return p.typ(t.Elem())
	case *types.Slice:
		return p.typ(t.Elem())
	case *types.Array:
		return p.typ(t.Elem())
	case *types.Map:
		return p.typ(t.Key()) || p.typ(t.Elem())
	case *types.Chan:
		return p.typ(t.Elem())
	case *types.Signature:
		return p.tuple(t.Params()) || p.tuple(t.Results())
	case *types.Tuple:
		return p.tuple(t)
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			if p.typ(t.Field(i).Type()) {
				return true
			}
		}
	case *types.Interface:
		for i := 0; i < t.NumMethods(); i++ {
			if p.typ(t.Method(i).Type()) {
				return true
			}
		}
	}
	return false
}

func (p *prefilter) tuple(t *types.Tuple) bool {
	for i := 0; i < t.Len(); i++ {
		if p.typ(t.At(i).Type()) {
			return true
		}
	}
	return false
}

// hasBody reports whether SSA was built for f (selectDecls removes bodies).
func hasBody(f *ssa.Function) bool { return len(f.Blocks) > 0 }

// isGeneric: a generic named type or a pointer to one, instantiated or
// not (types.Implements is unspecified for uninstantiated ones).
func isGeneric(t types.Type) bool {
	if ptr, ok := types.Unalias(t).(*types.Pointer); ok {
		t = ptr.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && (n.TypeParams().Len() > 0 || n.TypeArgs().Len() > 0)
}
