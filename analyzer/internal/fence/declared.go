package fence

// Scopes a maintainer declares (issue 18 item 5): lease types
// (//fencelint:lease), a function's token or lock-ID parameter
// (//fencelint:token PARAM), bodies that run under a lock they do not take
// (//fencelint:holds), and func values that hold a write or an acquire
// (//fencelint:write or //fencelint:acquire on a func-typed struct field or
// package variable). docs/directives.md says what each gives the engine.

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/directive"
	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/objectpath"
)

// LeaseTypeFact marks a named type declared //fencelint:lease.
type LeaseTypeFact struct{}

func (*LeaseTypeFact) AFact()         {}
func (*LeaseTypeFact) String() string { return "lease" }

// declared is what this package's declaring directives say.
type declared struct {
	// leaseTypes: types declared //fencelint:lease here; leaseCache
	// remembers the answer for other packages' types.
	leaseTypes map[*types.TypeName]bool
	leaseCache map[*types.TypeName]bool
	// holds: functions declared //fencelint:holds; tokenParam: functions
	// declared //fencelint:token PARAM (the parameter's index).
	holds      map[*types.Func]directive.Directive
	tokenParam map[*types.Func]int
	// funcVars maps a func-typed field or package variable declared
	// //fencelint:write or //fencelint:acquire (here, or through a fact
	// in its own package) to a stand-in function carrying the directive's
	// fact, so a call through the value is judged like a call of a
	// declared function; nil for a variable without one.
	funcVars map[*types.Var]*types.Func
}

func (e *engine) decls() *declared {
	if e.decl == nil {
		e.decl = &declared{
			leaseTypes: map[*types.TypeName]bool{},
			leaseCache: map[*types.TypeName]bool{},
			holds:      map[*types.Func]directive.Directive{},
			tokenParam: map[*types.Func]int{},
			funcVars:   map[*types.Var]*types.Func{},
		}
	}
	return e.decl
}

// leaseOf is rules.LeaseOf widened by //fencelint:lease: a declared type
// is a lease whatever its name and fields, and its token field is the one
// marked //fencelint:token (a //fencelint:token method counts as a token
// too: structHasTokenField).
func (e *engine) leaseOf(t types.Type) (rules.LeaseInfo, bool) {
	if info, ok := rules.LeaseOf(t); ok {
		return info, true
	}
	n := namedType(t)
	if n == nil || !e.isDeclaredLease(n.Obj()) {
		return rules.LeaseInfo{}, false
	}
	info := rules.LeaseInfo{Named: n}
	if st, ok := n.Underlying().(*types.Struct); ok {
		for i := 0; i < st.NumFields(); i++ {
			if e.isTokenField(st.Field(i)) {
				info.Token = st.Field(i)
				break
			}
		}
	}
	return info, true
}

// namedType is t's named type through aliases and up to two pointers.
func namedType(t types.Type) *types.Named {
	for i := 0; i < 3 && t != nil; i++ {
		switch u := types.Unalias(t).(type) {
		case *types.Named:
			return u
		case *types.Pointer:
			t = u.Elem()
		default:
			return nil
		}
	}
	return nil
}

func (e *engine) isDeclaredLease(tn *types.TypeName) bool {
	if tn == nil || tn.Pkg() == nil {
		return false
	}
	d := e.decls()
	if tn.Pkg() == e.pass.Pkg {
		return d.leaseTypes[tn]
	}
	if v, ok := d.leaseCache[tn]; ok {
		return v
	}
	v := e.pass.ImportObjectFact(tn, new(LeaseTypeFact))
	d.leaseCache[tn] = v
	return v
}

// typeHasTokenMethod: t's method set (or *t's) has a method known to
// return the fencing token (//fencelint:token on a method).
func (e *engine) typeHasTokenMethod(t types.Type) bool { return e.tokenMethodOf(t) != "" }

// tokenMethodOf names t's //fencelint:token method, "" if none.
func (e *engine) tokenMethodOf(t types.Type) string {
	n := namedType(t)
	if n == nil {
		return ""
	}
	for i := 0; i < n.NumMethods(); i++ {
		if f := e.calleeFact(n.Method(i)); f != nil && f.Token {
			return n.Method(i).Name()
		}
	}
	return ""
}

// typeDirectives applies the directives of a type declaration: only
// //fencelint:lease belongs on a type.
func (e *engine) typeDirectives(sp *ast.TypeSpec, ds []directive.Directive) {
	for _, dir := range ds {
		if dir.Kind != directive.Lease {
			e.notApplicable(dir, "a type declaration")
			continue
		}
		tn, _ := e.pass.TypesInfo.Defs[sp.Name].(*types.TypeName)
		if tn == nil {
			continue
		}
		if _, isIface := tn.Type().Underlying().(*types.Interface); isIface || tn.IsAlias() {
			e.directiveProblem(dir, "//fencelint:lease on %s does nothing: it goes on a named struct (or other concrete) type whose values are held leases; for an interface, mark its methods //fencelint:acquire and //fencelint:release", tn.Name())
			continue
		}
		if _, ok := rules.LeaseOf(tn.Type()); ok {
			e.directiveProblem(dir, "//fencelint:lease on %s does nothing: fencelint already takes %s for a lease (its name and fields say so)", tn.Name(), tn.Name())
			continue
		}
		e.decls().leaseTypes[tn] = true
	}
}

// valueDirectives applies the directives of a package variable: a
// func-typed variable holding the write or the acquire.
func (e *engine) valueDirectives(sp *ast.ValueSpec, ds []directive.Directive, what string) {
	for _, dir := range ds {
		for _, name := range sp.Names {
			v, _ := e.pass.TypesInfo.Defs[name].(*types.Var)
			if v == nil || what != "a var declaration" {
				e.notApplicable(dir, what)
				break
			}
			e.funcValueDirective(v, dir, "variable")
		}
	}
}

// funcValueDirective applies //fencelint:write or //fencelint:acquire on a
// func-typed field or variable v ("field" or "variable", for messages).
func (e *engine) funcValueDirective(v *types.Var, dir directive.Directive, what string) {
	if dir.Kind == directive.Ignore {
		return
	}
	sig, ok := v.Type().Underlying().(*types.Signature)
	if !ok || (dir.Kind != directive.Write && dir.Kind != directive.Acquire) {
		if dir.Kind == directive.Write || dir.Kind == directive.Acquire {
			e.directiveProblem(dir, "//fencelint:%s on %s %s of type %s does nothing: on a %s it goes only where the %s holds a function (a func type)", dir.Kind, what, v.Name(), types.TypeString(v.Type(), types.RelativeTo(e.pass.Pkg)), what, what)
			return
		}
		e.notApplicable(dir, "a "+what)
		return
	}
	d := e.decls()
	fn := d.funcVars[v]
	if fn == nil {
		fn = types.NewFunc(v.Pos(), v.Pkg(), v.Name(), sig)
	}
	if e.checkFuncDirective(fn, dir) {
		d.funcVars[v] = fn
		e.applyFuncDirective(fn, dir)
	}
}

// funcValueCallee returns the stand-in function of a call through a
// func-typed field or package variable declared //fencelint:write or
// //fencelint:acquire (cfg.Insert(ctx, p), InsertHook(ctx, p)), nil for
// any other call.
func (e *engine) funcValueCallee(cc *ssa.CallCommon) *types.Func {
	if cc == nil || cc.IsInvoke() {
		return nil
	}
	var v *types.Var
	switch x := cc.Value.(type) {
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return nil
		}
		switch a := x.X.(type) {
		case *ssa.FieldAddr:
			if st, ok := derefStruct(a.X.Type()); ok && a.Field < st.NumFields() {
				v = st.Field(a.Field)
			}
		case *ssa.Global:
			v, _ = a.Object().(*types.Var)
		}
	case *ssa.Field:
		if st, ok := x.X.Type().Underlying().(*types.Struct); ok && x.Field < st.NumFields() {
			v = st.Field(x.Field)
		}
	}
	if v == nil || v.Pkg() == nil {
		return nil
	}
	d := e.decls()
	if fn, ok := d.funcVars[v]; ok || v.Pkg() == e.pass.Pkg {
		return fn
	}
	sig, ok := v.Type().Underlying().(*types.Signature)
	f := new(FuncFact)
	if !ok || !e.pass.ImportObjectFact(v, f) || f.isZero() {
		d.funcVars[v] = nil
		return nil
	}
	fn := types.NewFunc(v.Pos(), v.Pkg(), v.Name(), sig)
	e.imported[fn] = f
	d.funcVars[v] = fn
	return fn
}

// callee is calleeFunc, or the stand-in of a declared func value.
func (e *engine) callee(cc *ssa.CallCommon) *types.Func {
	if fn := calleeFunc(cc); fn != nil {
		return fn
	}
	return e.funcValueCallee(cc)
}

// checkDeclaringFuncDirective checks //fencelint:holds and
// //fencelint:token PARAM on fn (decl is false for an interface method,
// which has no body to hold anything in) and says whether to apply it.
func (e *engine) checkDeclaringFuncDirective(fn *types.Func, d directive.Directive) bool {
	sig := fn.Type().(*types.Signature)
	switch d.Kind {
	case directive.Lease:
		e.directiveProblem(d, "//fencelint:lease does nothing on a function: it goes on the lease's type (type Lease struct{...}); a function returning that type then acquires it")
		return false
	case directive.Holds:
		if isInterfaceMethod(fn) {
			e.directiveProblem(d, "//fencelint:holds on interface method %s does nothing: it goes on a function or method with a body, the code that runs under the lock", fn.Name())
			return false
		}
		if name := d.TokenParam(); name != "" {
			i := paramNamed(sig, name)
			if i < 0 {
				e.directiveProblem(d, "//fencelint:holds token=%s does nothing: %s has no parameter %s (its parameters: %s)", name, fn.Name(), name, paramNames(sig))
				return false
			}
			if t := sig.Params().At(i).Type(); !rules.IsIntegerLike(t) {
				e.directiveProblem(d, "//fencelint:holds token=%s does nothing: parameter %s is a %s, and a fencing token is an integer that grows with every grant", name, name, types.TypeString(t, types.RelativeTo(e.pass.Pkg)))
				return false
			}
		}
		return true
	case directive.Token:
		name := d.TokenParam()
		if name == "" {
			return true // the method form: checkFuncDirective
		}
		i := paramNamed(sig, name)
		if i < 0 {
			e.directiveProblem(d, "//fencelint:token %s does nothing: %s has no parameter %s (its parameters: %s)", name, fn.Name(), name, paramNames(sig))
			return false
		}
		t := sig.Params().At(i).Type()
		if !rules.IsIntegerLike(t) && !isLockID(t) {
			e.directiveProblem(d, "//fencelint:token %s does nothing: parameter %s is a %s; it must be the integer fencing token or the lock's string ID", name, name, types.TypeString(t, types.RelativeTo(e.pass.Pkg)))
			return false
		}
		if isInterfaceMethod(fn) {
			e.directiveProblem(d, "//fencelint:token %s on interface method %s does nothing: it goes on the function or method whose body runs under the lock", name, fn.Name())
			return false
		}
		return true
	}
	return true
}

// applyDeclaringFuncDirective records //fencelint:holds and
// //fencelint:token PARAM; signatureScope makes the body a scope.
func (e *engine) applyDeclaringFuncDirective(fn *types.Func, d directive.Directive) {
	switch d.Kind {
	case directive.Holds:
		e.decls().holds[fn] = d
	case directive.Token:
		e.decls().tokenParam[fn] = paramNamed(fn.Type().(*types.Signature), d.TokenParam())
	}
}

// lateFuncDirectiveProblems reports the declaring directives that the
// function's other directives make pointless: token PARAM on a lock API
// function (its acquire or release), whose own writes are bookkeeping.
func (e *engine) lateFuncDirectiveProblems(fn *types.Func, ds []directive.Directive) {
	if hasKind(ds, directive.Acquire) || hasKind(ds, directive.Release) {
		for _, d := range ds {
			if (d.Kind == directive.Token && d.TokenParam() != "") || d.Kind == directive.Holds {
				e.directiveProblem(d, "//fencelint:%s does nothing on %s: it is marked //fencelint:acquire or //fencelint:release, and a lock API's own writes are its bookkeeping; put it on the code that runs under the lock", d.Kind, fn.Name())
				delete(e.decls().holds, fn)
				delete(e.decls().tokenParam, fn)
			}
		}
	}
}

// isLockID: a string (or []byte) that names the held lock, as a lock's
// ID does (terraform's unlock(id string)).
func isLockID(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return false
}

func paramNamed(sig *types.Signature, name string) int {
	for i := 0; i < sig.Params().Len(); i++ {
		if sig.Params().At(i).Name() == name {
			return i
		}
	}
	return -1
}

func paramNames(sig *types.Signature) string {
	var names []string
	for i := 0; i < sig.Params().Len(); i++ {
		n := sig.Params().At(i).Name()
		if n == "" || n == "_" {
			n = "_"
		}
		names = append(names, n)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// declaredScope makes the body of a //fencelint:holds or
// //fencelint:token PARAM function a scope, and reports whether it did.
func (e *engine) declaredScope(f *ssa.Function) bool {
	if e.decl == nil {
		return false
	}
	fn, _ := f.Object().(*types.Func)
	if fn == nil {
		return false
	}
	first := 0
	if f.Signature.Recv() != nil {
		first = 1
	}
	param := func(i int) *ssa.Parameter {
		if i >= 0 && first+i < len(f.Params) {
			return f.Params[first+i]
		}
		return nil
	}
	if d, ok := e.decl.holds[fn]; ok {
		lock := "lock held in " + fn.Name()
		if n := d.LockName(); n != "" {
			lock = n + " lock held in " + fn.Name()
		}
		s := &Scope{Kind: ScopeHeld, Pos: fn.Pos(), Lock: lock, Source: "directive //fencelint:holds on " + fn.Name()}
		switch p := param(paramNamed(f.Signature, d.TokenParam())); {
		case d.TokenParam() != "" && p != nil:
			e.tokenParams[p] = p.Name()
			s.Kind, s.Pos, s.Token = ScopeTokenParam, p.Pos(), p.Name()
		case f.Signature.Recv() != nil && first < len(f.Params):
			s.Token = e.receiverToken(f.Params[0])
			s.NoToken = s.Token == ""
		default:
			s.NoToken = true
		}
		if s.NoToken {
			s.Hint = "if the lock does hand out a token, pass it in and name it (//fencelint:holds token=PARAM) or mark the receiver's token field or method //fencelint:token"
		}
		e.bodyScope[f] = s
		return true
	}
	if i, ok := e.decl.tokenParam[fn]; ok {
		p := param(i)
		if p == nil {
			return false
		}
		s := &Scope{Kind: ScopeTokenParam, Pos: p.Pos(), Source: "directive //fencelint:token " + p.Name() + " on " + fn.Name()}
		if rules.IsIntegerLike(p.Type()) {
			e.tokenParams[p] = p.Name()
			s.Lock, s.Token = "token parameter "+p.Name(), p.Name()
		} else {
			s.Kind, s.Lock, s.NoToken = ScopeHeld, "lock whose ID is parameter "+p.Name(), true
		}
		e.bodyScope[f] = s
		return true
	}
	return false
}

// receiverToken names the token a //fencelint:holds method's receiver
// carries: its //fencelint:token field or method (or a lease's token
// field), "" if none.
func (e *engine) receiverToken(recv *ssa.Parameter) string {
	t := recv.Type()
	n := namedType(t)
	if n == nil {
		return ""
	}
	if st, ok := n.Underlying().(*types.Struct); ok {
		for i := 0; i < st.NumFields(); i++ {
			if f := st.Field(i); e.isTokenField(f) || e.isLeaseToken(t, f) {
				return recv.Name() + "." + f.Name()
			}
		}
	}
	if m := e.tokenMethodOf(t); m != "" {
		return recv.Name() + "." + m + "()"
	}
	return ""
}

// declaredTokenParam: parameter i of fn is its //fencelint:token PARAM
// or //fencelint:holds token=PARAM (optionaltoken's token parameters).
func (e *engine) declaredTokenParam(fn *types.Func, i int) bool {
	if e.decl == nil {
		return false
	}
	if j, ok := e.decl.tokenParam[fn]; ok && j == i {
		return rules.IsIntegerLike(fn.Type().(*types.Signature).Params().At(i).Type())
	}
	if d, ok := e.decl.holds[fn]; ok && d.TokenParam() != "" {
		return paramNamed(fn.Type().(*types.Signature), d.TokenParam()) == i
	}
	return false
}

// exportDeclared exports the facts of declared lease types and func
// values; it reports whether it exported any.
func (e *engine) exportDeclared() bool {
	if e.decl == nil {
		return false
	}
	any := false
	for tn := range e.decl.leaseTypes {
		if tn.Parent() == e.pass.Pkg.Scope() {
			e.pass.ExportObjectFact(tn, new(LeaseTypeFact))
			any = true
		}
	}
	for v, fn := range e.decl.funcVars {
		if fn == nil || v.Pkg() != e.pass.Pkg || (!v.IsField() && v.Parent() != e.pass.Pkg.Scope()) {
			continue
		}
		if _, err := objectpath.For(v); err != nil {
			continue // a field of a type declared inside a function: no other package can name it
		}
		if f := e.local[fn]; f != nil && !f.isZero() {
			e.pass.ExportObjectFact(v, f)
			any = true
		}
	}
	return any
}

// genDeclDirectives applies the directives of a type, var or const
// declaration. The doc comment of an ungrouped declaration
// (//fencelint:lease above "type Lease struct") belongs to its one spec.
func (e *engine) genDeclDirectives(d *ast.GenDecl, used map[token.Pos]bool) {
	what := "a " + d.Tok.String() + " declaration"
	outer := directive.Of(d.Doc)
	for _, dir := range outer {
		used[dir.Pos] = true
	}
	if d.Lparen.IsValid() || len(d.Specs) != 1 {
		for _, dir := range outer {
			e.notApplicable(dir, what)
		}
		outer = nil
	}
	if d.Tok == token.IMPORT {
		for _, dir := range outer {
			e.notApplicable(dir, what)
		}
		return
	}
	for _, spec := range d.Specs {
		switch sp := spec.(type) {
		case *ast.ValueSpec:
			ds := append(append([]directive.Directive(nil), outer...), directive.Of(sp.Doc, sp.Comment)...)
			for _, dir := range ds {
				used[dir.Pos] = true
			}
			e.valueDirectives(sp, ds, what)
		case *ast.TypeSpec:
			ds := append(append([]directive.Directive(nil), outer...), directive.Of(sp.Doc, sp.Comment)...)
			for _, dir := range ds {
				used[dir.Pos] = true
			}
			e.typeDirectives(sp, ds)
			switch t := sp.Type.(type) {
			case *ast.InterfaceType:
				e.interfaceDirectives(t, used)
			case *ast.StructType:
				for _, field := range t.Fields.List {
					e.fieldDirectives(field, used)
				}
			}
		}
	}
}

// leaseHint is the Scope.Hint of a lease declared //fencelint:lease that
// hands out no token: the maintainer may have left its token unmarked.
func (e *engine) leaseHint(t types.Type, noToken bool) string {
	if !noToken || t == nil {
		return ""
	}
	n := namedType(t)
	if n == nil || !e.isDeclaredLease(n.Obj()) {
		return ""
	}
	return "if " + n.Obj().Name() + " does carry a token, mark its field or method //fencelint:token"
}
