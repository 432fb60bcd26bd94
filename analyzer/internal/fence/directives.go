package fence

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/directive"
	"github.com/fencelint/fencelint/rules"
)

// collectDirectives reads //fencelint:acquire|release|token|write from
// declarations of this package into local facts, and records every
// directive that can do nothing where it stands (checkDirective,
// unattachedDirectives): a maintainer must hear that a directive was not
// taken, not find out from missing findings (issue 18).
func (e *engine) collectDirectives() {
	used := map[token.Pos]bool{}
	for _, file := range e.pass.Files {
		for _, decl := range file.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Doc == nil {
					continue
				}
				fn, _ := e.pass.TypesInfo.Defs[d.Name].(*types.Func)
				if fn == nil {
					continue
				}
				ds := directive.Of(d.Doc)
				for _, dir := range ds {
					used[dir.Pos] = true
					if e.checkFuncDirective(fn, dir) {
						e.applyFuncDirective(fn, dir)
					}
				}
				e.lateFuncDirectiveProblems(fn, ds)
			case *ast.GenDecl:
				e.genDeclDirectives(d, used)
			}
		}
	}
	e.unattachedDirectives(used)
}

// fieldDirectives applies //fencelint:token on a struct field, and
// //fencelint:write or //fencelint:acquire on a func-typed one (a func
// value holding the write or the acquire).
func (e *engine) fieldDirectives(field *ast.Field, used map[token.Pos]bool) {
	for _, dir := range directive.Of(field.Doc, field.Comment) {
		used[dir.Pos] = true
		if dir.Kind == directive.Ignore {
			continue
		}
		if dir.Kind != directive.Token {
			for _, name := range field.Names {
				if v, ok := e.pass.TypesInfo.Defs[name].(*types.Var); ok {
					e.funcValueDirective(v, dir, "field")
				}
			}
			if len(field.Names) == 0 {
				e.notApplicable(dir, "an embedded field")
			}
			continue
		}
		if dir.TokenParam() != "" {
			e.directiveProblem(dir, "//fencelint:token %s does nothing on a struct field: on a field the directive takes no argument (//fencelint:token); the PARAM form goes on a function", dir.TokenParam())
			continue
		}
		for _, name := range field.Names {
			v, ok := e.pass.TypesInfo.Defs[name].(*types.Var)
			if !ok {
				continue
			}
			if !rules.IsIntegerLike(v.Type()) {
				e.directiveProblem(dir, "//fencelint:token on field %s of type %s does nothing: a fencing token is an integer that grows with every grant", v.Name(), types.TypeString(v.Type(), types.RelativeTo(e.pass.Pkg)))
				continue
			}
			e.tokenFields[v] = true
		}
	}
}

// interfaceDirectives applies directives written on an interface's methods:
// callers often see only the interface (a Storage, a Locker), so that is
// where a maintainer marks the write or the acquire, and every call
// through the interface then means what the directive says, whatever the
// implementations are (issue 18).
func (e *engine) interfaceDirectives(it *ast.InterfaceType, used map[token.Pos]bool) {
	for _, field := range it.Methods.List {
		ds := directive.Of(field.Doc, field.Comment)
		for _, d := range ds {
			used[d.Pos] = true
		}
		if len(ds) == 0 {
			continue
		}
		if len(field.Names) == 0 {
			for _, d := range ds {
				e.notApplicable(d, "an embedded interface")
			}
			continue
		}
		for _, name := range field.Names {
			fn, _ := e.pass.TypesInfo.Defs[name].(*types.Func)
			if fn == nil {
				continue
			}
			for _, d := range ds {
				if e.checkFuncDirective(fn, d) {
					e.applyFuncDirective(fn, d)
				}
			}
		}
	}
}

func hasKind(ds []directive.Directive, k directive.Kind) bool {
	for _, d := range ds {
		if d.Kind == k {
			return true
		}
	}
	return false
}

func (e *engine) factFor(fn *types.Func) *FuncFact {
	f := e.local[fn]
	if f == nil {
		f = newFuncFact()
		e.local[fn] = f
	}
	return f
}

func (e *engine) applyFuncDirective(fn *types.Func, d directive.Directive) {
	sig := fn.Type().(*types.Signature)
	if e.directed == nil {
		e.directed = map[*types.Func]bool{}
	}
	e.directed[fn] = true
	switch d.Kind {
	case directive.Acquire:
		f := e.factFor(fn)
		f.Acquire = true
		f.Lock = "lock acquired by " + fn.Name()
		f.TokenResult = -1
		hasLease := false
		for i := 0; i < sig.Results().Len(); i++ {
			t := sig.Results().At(i).Type()
			if info, ok := rules.LeaseOf(t); ok {
				hasLease = info.Token != nil
				break
			}
			if rules.IsIntegerLike(t) {
				f.TokenResult = i
				break
			}
		}
		f.NoToken = f.TokenResult < 0 && !hasLease && !resultHasTokenField(e, sig)
	case directive.Release:
		e.factFor(fn).Release = true
	case directive.Token:
		if d.TokenParam() != "" {
			e.applyDeclaringFuncDirective(fn, d)
			return
		}
		e.factFor(fn).Token = true
	case directive.Holds:
		e.applyDeclaringFuncDirective(fn, d)
	case directive.Write:
		f := e.factFor(fn)
		f.Write = true
		f.Directive = true
		for _, a := range d.Args {
			name, ok := strings.CutPrefix(a, "token=")
			if !ok {
				continue
			}
			for i := 0; i < sig.Params().Len(); i++ {
				if sig.Params().At(i).Name() == name {
					f.FencedBy = append(f.FencedBy, i)
					f.Directive = false
				}
			}
		}
	}
}

// resultHasTokenField reports whether a result's struct type has a field
// marked //fencelint:token in this package.
func resultHasTokenField(e *engine, sig *types.Signature) bool {
	for i := 0; i < sig.Results().Len(); i++ {
		st, ok := derefStruct(sig.Results().At(i).Type())
		if !ok {
			continue
		}
		for j := 0; j < st.NumFields(); j++ {
			if e.isTokenField(st.Field(j)) {
				return true
			}
		}
	}
	return false
}

func derefStruct(t types.Type) (*types.Struct, bool) {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return st, ok
}

func (e *engine) isTokenField(v *types.Var) bool {
	if e.tokenFields[v] {
		return true
	}
	if v.Pkg() != nil && v.Pkg() != e.pass.Pkg {
		return e.pass.ImportObjectFact(v, new(TokenFieldFact))
	}
	return false
}

// calleeFact returns what is known of fn from directives, local inference
// or imported facts.
func (e *engine) calleeFact(fn *types.Func) *FuncFact {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if f, ok := e.local[fn]; ok {
		return f
	}
	if isInterfaceMethod(fn) {
		// A directive on the interface method, in the package that
		// declares the interface, wins over its implementations.
		if fn.Pkg() != nil && fn.Pkg() != e.pass.Pkg {
			if f, ok := e.imported[fn]; ok && f != nil {
				return f
			}
			if f := new(FuncFact); e.pass.ImportObjectFact(fn, f) {
				e.imported[fn] = f
				return f
			}
		}
		return e.interfaceFact(fn)
	}
	if fn.Pkg() != nil && fn.Pkg() != e.pass.Pkg {
		// Imported facts are asked for at every call site; the driver
		// decodes a fresh copy each time, so remember the answer.
		if f, ok := e.imported[fn]; ok {
			return f
		}
		f := new(FuncFact)
		if !e.pass.ImportObjectFact(fn, f) || f.isZero() {
			f = nil // none, or only NoReturn, which the SSA builder asks for itself
		}
		e.imported[fn] = f
		return f
	}
	return nil
}

// exportFacts exports the facts of this package's own functions and fields.
func (e *engine) exportFacts() {
	any := false
	for fn, f := range e.local {
		noret := e.noret != nil && e.noret.local[fn]
		if fn.Pkg() != e.pass.Pkg || (f.isZero() && !noret) || !exportable(fn) {
			continue
		}
		if !f.isZero() {
			any = true // a NoReturn bit alone does not make importers relevant
		}
		if noret {
			c := *f
			c.NoReturn = true
			f = &c
		}
		e.pass.ExportObjectFact(fn, f)
	}
	if e.noret != nil {
		e.noret.export(e.local)
	}
	for v := range e.tokenFields {
		e.pass.ExportObjectFact(v, new(TokenFieldFact))
		any = true
	}
	for v, f := range e.callbackFields {
		e.pass.ExportObjectFact(v, f)
		any = true
	}
	if e.exportDeclared() {
		any = true
	}
	if any || declaresLease(e.pass.Pkg) {
		e.pass.ExportPackageFact(new(PackageFact))
	}
	e.exportImpls(any)
}

// exportable reports whether an object can carry a fact across packages:
// package-level functions and methods of package-level types.
func exportable(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return fn.Parent() == fn.Pkg().Scope()
	}
	return true
}

// portWrite: m, a method of an interface of the project, says it writes
// (rules.IsPortWriteMethod: Save, Update, Delete, ... taking a
// context first), in a package that is not one of test doubles.
func portWrite(m *types.Func) bool {
	sig, ok := m.Type().(*types.Signature)
	if !ok || m.Pkg() == nil || rules.IsTestDoubleName(m.Pkg().Name()) || !rules.IsPortWriteMethod(m.Name(), sig) {
		return false
	}
	for i := 1; i < sig.Params().Len(); i++ {
		if storeHandle(sig.Params().At(i).Type()) {
			// CreateVersionTable(ctx, conn): the port runs on the
			// connection or transaction it is given, which may be the
			// one that holds an advisory lock (protected); unknown.
			return false
		}
	}
	return true
}

// storeHandle: t is a handle of a store library (a *sql.Conn, a pgx.Tx,
// a *gorm.DB), or an interface with the methods such a handle runs SQL
// with (sqlc's DBTX, goose's DBTxConn).
func storeHandle(t types.Type) bool {
	t = types.Unalias(deref(t))
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil {
		if p := n.Obj().Pkg().Path(); p == "database/sql" || rules.IsLibraryPackage(p) {
			return true
		}
	}
	if iface, ok := t.Underlying().(*types.Interface); ok {
		for i := 0; i < iface.NumMethods(); i++ {
			switch iface.Method(i).Name() {
			case "Exec", "ExecContext", "Query", "QueryContext", "QueryRow", "QueryRowContext":
				return true
			}
		}
	}
	return false
}

// ifaceName names the interface m belongs to ("AccountStore"), or "".
func ifaceName(m *types.Func) string {
	sig, ok := m.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return ""
	}
	if n, ok := types.Unalias(sig.Recv().Type()).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// isInterfaceMethod: fn is an abstract method of an interface type.
func isInterfaceMethod(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
}

// interfaceFact answers for a call through an interface (locker.Lock(key),
// lock.Unlock()) with what its implementations say: the named types of
// this package whose method sets implement the interface, and those of the
// other packages of the project that carry fencelint facts, as their
// ImplsFacts describe them (impls.go). Types of other packages (the
// standard library's sync.Mutex satisfies any interface{ Unlock() }) are
// not lock implementations and are not asked. When there is at least one
// implementation, and every one has a fact for the method and the facts
// agree on what the call does (acquire, release, run a callback under a
// lock, write unfenced), the call is that; when one says nothing or
// something else (a no-op locker next to the real one), it is nothing, so
// a report never rests on a guess about which implementation runs.
func (e *engine) interfaceFact(m *types.Func) *FuncFact {
	if f, ok := e.ifaceFacts[m]; ok {
		return f
	}
	impls, ok := e.implementations(m)
	if !ok {
		return nil
	}
	var agreed *FuncFact
	local, disagree := false, false
	for _, cm := range impls {
		if cm.Pkg() == e.pass.Pkg {
			local = true
		}
		if isInterfaceMethod(cm) {
			// The type embeds an interface: which method runs is decided
			// at run time.
			disagree = true
			continue
		}
		if cm.Pkg() == e.pass.Pkg && e.local[cm] == nil && e.regionsFound {
			// A local write helper's fact is its summary, made on demand
			// (once regions are known: a summary skips what they judge).
			if sf := e.prog.FuncValue(cm); sf != nil && hasBody(sf) {
				e.summary(sf)
			}
		}
		f := e.calleeFact(cm)
		switch {
		case f == nil:
			disagree = true
		case agreed == nil:
			agreed = f
		case !sameBehaviour(agreed, f):
			disagree = true
		}
	}
	// Implementations in other packages, from their ImplsFacts (impls.go).
	n := len(impls)
	if iface := ifaceOf(m); iface != nil {
		for _, im := range e.factImplsOf(m, iface, false) {
			n++
			switch f := im.Fact; {
			case im.Dynamic || f == nil:
				disagree = true
			case agreed == nil:
				agreed = f
			case !sameBehaviour(agreed, f):
				disagree = true
			}
		}
	}
	var out *FuncFact
	if n > 0 && !disagree && agreed != nil {
		out = agreed
	}
	if n == 0 && portWrite(m) {
		// A port of the application (declared here or in another package
		// of the project) whose implementation is wired elsewhere, in
		// main: Save(ctx, ...) is its write, as //fencelint:write would
		// declare it. An implementation that can be seen decides instead.
		out = &FuncFact{Write: true, Directive: true, port: ifaceName(m)}
	}
	// Facts of this package's own methods are inferred as its functions
	// are analysed: an answer that rests on them is not final.
	if !local {
		if e.ifaceFacts == nil {
			e.ifaceFacts = map[*types.Func]*FuncFact{}
		}
		e.ifaceFacts[m] = out
	}
	return out
}

// implementations returns the methods that implement interface method m
// among the named types interfaceFact asks (false when m's interface is
// not resolved at all). The answer depends on types only, so it is
// computed once per method; the facts it is combined with are not.
func (e *engine) implementations(m *types.Func) ([]*types.Func, bool) {
	if impls, ok := e.ifaceImpls[m]; ok {
		return impls, impls != nil
	}
	impls := e.findImplementations(m)
	if e.ifaceImpls == nil {
		e.ifaceImpls = map[*types.Func][]*types.Func{}
	}
	e.ifaceImpls[m] = impls
	return impls, impls != nil
}

func (e *engine) findImplementations(m *types.Func) []*types.Func {
	if m.Pkg() == nil || !e.ownInterface(m.Pkg()) {
		// io.Writer, io.Closer, a driver's own interfaces: implemented all
		// over by types this package cannot see (w.Write may be
		// os.Stdout), so the few it can see say nothing about the call.
		return nil
	}
	recv := m.Type().(*types.Signature).Recv().Type()
	if isGeneric(recv) {
		return nil // types.Implements is unspecified for generic interfaces
	}
	iface, ok := recv.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	impls := []*types.Func{} // non-nil: resolved, even with no implementation
	// This package's own types; those of other packages come from their
	// ImplsFacts (factImplsOf), not from what export data holds.
	for _, pkg := range []*types.Package{e.pass.Pkg} {
		if rules.IsTestDoubleName(pkg.Name()) {
			continue // a package of mocks or fakes: test doubles do not vote
		}
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
				continue
			}
			if rules.IsTestDoubleName(tn.Name()) || e.inTestFile(tn.Pos()) {
				continue // a no-op locker or a mock next to the real one does not vote
			}
			named, ok := tn.Type().(*types.Named)
			if !ok || named.TypeParams().Len() > 0 {
				continue
			}
			var impl types.Type
			switch {
			case types.Implements(named, iface):
				impl = named
			case types.Implements(types.NewPointer(named), iface):
				impl = types.NewPointer(named)
			default:
				continue
			}
			if sel := types.NewMethodSet(impl).Lookup(m.Pkg(), m.Name()); sel != nil {
				if cm, ok := sel.Obj().(*types.Func); ok {
					impls = append(impls, cm)
				}
			}
		}
	}
	return impls
}

// ifaceOf returns the interface interface method m belongs to (nil for a
// generic or unresolved one).
func ifaceOf(m *types.Func) *types.Interface {
	sig, ok := m.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || isGeneric(sig.Recv().Type()) {
		return nil
	}
	iface, _ := sig.Recv().Type().Underlying().(*types.Interface)
	return iface
}

// sameBehaviour: two facts say the same about what a call does.
func sameBehaviour(a, b *FuncFact) bool {
	return a.Acquire == b.Acquire && a.Release == b.Release && (a.Callback >= 0) == (b.Callback >= 0) &&
		a.Write == b.Write && (a.Unfenced != "") == (b.Unfenced != "") && len(a.FencedBy) == len(b.FencedBy)
}

// inTestFile: pos is in a _test.go file (a test double declared there).
func (e *engine) inTestFile(pos token.Pos) bool {
	f := e.pass.Fset.File(pos)
	return f != nil && strings.HasSuffix(f.Name(), "_test.go")
}

// ownInterface: an interface of the application itself, declared in this
// package, in a package with fencelint facts, or in a package of the same
// project (the same first path element, or the same host/owner/repo).
func (e *engine) ownInterface(pkg *types.Package) bool {
	if pkg == e.pass.Pkg {
		return true
	}
	if rules.IsLibraryPackage(pkg.Path()) {
		return false
	}
	if projectRoot(pkg.Path()) == projectRoot(e.pass.Pkg.Path()) {
		return true
	}
	return e.pass.ImportPackageFact(pkg, new(PackageFact))
}

// projectRoot: "github.com/org/repo" on a code host whose paths name an
// owner and a repository; the first two elements on any other domain,
// the vanity paths a project serves itself ("go.temporal.io/server" for
// go.temporal.io/server/common/persistence and .../service/history,
// "example.com/app"); the first element otherwise ("myapp" for
// myapp/internal/locks, "io" for io).
func projectRoot(path string) string {
	parts := strings.SplitN(path, "/", 4)
	switch {
	case !strings.Contains(parts[0], "."):
		return parts[0]
	case ownerRepoHosts[parts[0]] && len(parts) >= 3:
		return strings.Join(parts[:3], "/")
	case len(parts) >= 2:
		return strings.Join(parts[:2], "/")
	}
	return parts[0]
}

// ownerRepoHosts are the code hosts whose import paths are
// host/owner/repository.
var ownerRepoHosts = map[string]bool{
	"github.com": true, "gitlab.com": true, "bitbucket.org": true, "gitee.com": true,
	"codeberg.org": true, "git.sr.ht": true, "sr.ht": true,
}
