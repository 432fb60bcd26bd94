package fence

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// Optional tokens: token parameters and fields a caller can leave out,
// literal 0 or nil passed for a token, and branches that fall back to an
// unfenced write when the token is zero. The engine finds them after its
// verdicts are final (optionalDefects) and records DefectOptionalToken and
// DefectZeroFallback; optionaltoken only formats them. The declaration
// shapes are read from syntax and types; whether a call writes, and
// whether blindly or under a condition, comes from the engine's own write
// model (every write kind), never from the call's text.

// TokenUse is, for DefectOptionalToken and DefectZeroFallback, what the
// message names; Shape says which finding it is.
type TokenUse struct {
	Shape OptionalShape
	// Name is the token parameter or field, the option constructor
	// (ShapeOptionCtor), the option parameter ("opts", "...PutOption"),
	// or the tested expression (ShapeBranch: "l.Token").
	Name string
	// Func is the function taking the token, the callee given a literal
	// ("lib.Save", "repo.Update"), or the unfenced fallback call
	// (ShapeBranch: "db.ExecContext").
	Func string
	// Of is, for a field, "lease DocLease" or "request job".
	Of string
	// Type is the nullable type ("sql.NullInt64"), the option
	// constructor (ShapeOptionParam) or the omitempty tag key ("json").
	Type string
	// Literal is "0" or "nil" (ShapeLiteral).
	Literal string
	// Zero names the missing token as a ShapeBranch test sees it: "zero"
	// for a number, "nil" for a pointer or interface, "empty" for "",
	// "unset" for a nullable's Valid.
	Zero string
}

// OptionalShape is the shape an optional token takes.
type OptionalShape uint8

const (
	_                   OptionalShape = iota
	ShapePointer                      // a *int64 token parameter
	ShapeVariadic                     // ...int64
	ShapeNullable                     // sql.NullInt64, Optional[T]
	ShapeAny                          // any
	ShapeOptionParam                  // ...Option with a WithFence constructor
	ShapeOptionCtor                   // the WithFence constructor itself
	ShapeFieldPointer                 // a *int64 token field of a lease or request
	ShapeFieldOmitempty               // a token field tagged omitempty
	ShapeLiteral                      // a literal 0 or nil passed for a token
	ShapeFieldLeftOut                 // a request literal passed to a write without its token field
	ShapeBranch                       // if tok == 0 { unfenced write } (DefectZeroFallback)
)

// category is optionaltoken's stable sub-rule for the shape.
func (s OptionalShape) category() string {
	switch s {
	case ShapePointer:
		return "pointer"
	case ShapeVariadic:
		return "variadic"
	case ShapeNullable:
		return "nullable"
	case ShapeAny:
		return "any"
	case ShapeOptionParam, ShapeOptionCtor:
		return "option"
	case ShapeFieldPointer, ShapeFieldOmitempty:
		return "field"
	case ShapeLiteral, ShapeFieldLeftOut:
		return "literal"
	case ShapeBranch:
		return "branch"
	}
	return ""
}

// optionalDefects runs the optional-token checks over the package's
// declarations and bodies.
func (e *engine) optionalDefects() {
	c := &optChecker{
		e:                e,
		pass:             e.pass,
		tokenTypes:       e.leaseTokenTypes(),
		decls:            map[*types.Func]*ast.FuncDecl{},
		writers:          map[*types.Func]bool{},
		options:          map[*types.Named]*types.Func{},
		writerParamTypes: map[*types.Named]bool{},
		reported:         map[token.Pos]bool{},
	}
	for _, f := range e.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if fn, ok := e.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					c.decls[fn] = fd
				}
			}
		}
	}
	c.findWriters()
	for _, f := range e.pass.Files {
		c.checkDecls(f)
	}
	for _, f := range e.pass.Files {
		c.checkBody(f, !strings.HasSuffix(e.pass.Fset.File(f.FileStart).Name(), "_test.go"))
	}
	// One diagnosis per root cause: a write whose fence is missing because
	// its token was omitted is optionaltoken's finding (at the literal, at
	// the branch), not also unfencedwrite's or appcheck's.
	for _, w := range e.model.Writes {
		if c.omittedCalls[w.Pos] {
			w.Omitted = true
			continue
		}
		for _, sp := range c.omittedSpans {
			if sp[0] <= w.Pos && w.Pos < sp[1] {
				w.Omitted = true
				break
			}
		}
	}
}

// callVerdict is what the engine's write model says of one call.
type callVerdict struct {
	write bool
	// blind: an unfenced write that can overwrite a newer holder's data
	// (not one that only creates what does not exist, not a helper whose
	// fence parameter simply got no token).
	blind bool
	// conditional: a write the store conditions (fenced, even wrongly or
	// weakly, or fenced by a parameter of the enclosing function).
	conditional bool
}

// noteCall remembers the eval of a call for callVerdictAt. A judgement in
// a lock scope (checkWrites) replaces one made for a summary.
func (e *engine) noteCall(instr ssa.Instruction, cc *ssa.CallCommon, ev *eval, inScope bool) {
	if !ev.isWrite {
		return
	}
	_, pos := callOf(instr)
	if _, ok := e.callEvals[pos]; ok && !inScope {
		return
	}
	if e.callEvals == nil {
		e.callEvals = map[token.Pos]notedCall{}
	}
	n := notedCall{ev: ev, mayOverwrite: !ev.createOnly}
	if ev.helper != "" {
		// Only a helper that writes unfenced whatever it is given, and
		// does not only create, is blind; one whose fence parameter got
		// no token is the literal check's finding.
		if ff := e.calleeFact(calleeFunc(cc)); ff != nil && (len(ff.FencedBy) > 0 || ff.CreateOnly) {
			n.mayOverwrite = false
		}
	}
	e.callEvals[pos] = n
}

// notedCall is a write's eval, and whether it can overwrite a newer
// holder's data when unfenced.
type notedCall struct {
	ev           *eval
	mayOverwrite bool
}

// callVerdictAt returns the verdict of the call whose '(' is at lparen;
// the zero callVerdict when the engine saw no write there (no SSA, not a
// write): silence on doubt.
func (e *engine) callVerdictAt(lparen token.Pos) callVerdict {
	n, ok := e.callEvals[lparen]
	if !ok {
		return callVerdict{}
	}
	ev := n.ev
	v := ev.verdict
	if ev.write != nil {
		v = ev.write.Verdict // after guards and transaction units
	}
	out := callVerdict{write: true}
	switch v {
	case Unfenced, RecordedOnly, AppChecked:
		out.blind = n.mayOverwrite && len(ev.fencedBy) == 0
	case Fenced, WrongPredicate, WeakToken:
		out.conditional = true
	}
	if len(ev.fencedBy) > 0 {
		out.conditional = true
	}
	return out
}

type optChecker struct {
	e    *engine
	pass *analysis.Pass

	// tokenTypes are named types of lease token fields (type Token uint64).
	tokenTypes map[types.Type]bool
	// decls are this package's function declarations.
	decls map[*types.Func]*ast.FuncDecl
	// writers are this package's functions that write shared storage,
	// directly, through helpers, or under a lock (engine writes).
	writers map[*types.Func]bool
	// options caches functional-option types: the constructor that sets a
	// token through them, nil when none does.
	options map[*types.Named]*types.Func
	// writerParamTypes are struct types passed to a write helper.
	writerParamTypes map[*types.Named]bool
	reported         map[token.Pos]bool
	// tokenArgs marks, per function of this package, the parameters some
	// call here passes a lease- or lock-derived token to (nil until asked).
	tokenArgs map[*types.Func]map[int]bool
	// omittedCalls are the calls given a literal 0 or nil token (by
	// Pos), omittedSpans the zero branches of fallback tests: the writes
	// there are unfenced because the token was omitted.
	omittedCalls map[token.Pos]bool
	omittedSpans [][2]token.Pos
}

func (c *optChecker) report(pos, end token.Pos, u TokenUse, related ...Related) *Defect {
	if c.reported[pos] {
		return nil // one report per root cause
	}
	c.reported[pos] = true
	kind := DefectOptionalToken
	if u.Shape == ShapeBranch {
		kind = DefectZeroFallback
	}
	d := &Defect{Kind: kind, Pos: pos, End: end, Category: u.Shape.category(), Related: related, Token: &u}
	c.e.model.Defects = append(c.e.model.Defects, d)
	return d
}

// ---- writers ----

// findWriters marks functions that write: they contain a write the engine
// judged, a storage write rules/ knows, or a call of a write helper (facts,
// or a function of this package that writes).
func (c *optChecker) findWriters() {
	for _, w := range c.e.model.Writes {
		if fn := topFunc(c.e.writeInstr[w].Parent()); fn != nil {
			c.writers[fn] = true
		}
	}
	// The engine's summaries already say which functions write, directly
	// or through local helpers (transitively) and imported facts: reuse
	// them rather than walking every body again.
	for fn := range c.decls {
		if f := c.e.publishedFact(fn); f != nil && f.Write {
			c.writers[fn] = true
		}
	}
	for fn := range c.writers {
		sig := fn.Type().(*types.Signature)
		for i := 0; i < sig.Params().Len(); i++ {
			if n, ok := types.Unalias(deref(sig.Params().At(i).Type())).(*types.Named); ok {
				if _, isStruct := n.Underlying().(*types.Struct); isStruct && n.Obj().Pkg() == c.pass.Pkg {
					c.writerParamTypes[n] = true
				}
			}
		}
	}
}

// topFunc returns the declared function enclosing f (a closure's parent).
func topFunc(f *ssa.Function) *types.Func {
	for f != nil && f.Parent() != nil {
		f = f.Parent()
	}
	if f == nil {
		return nil
	}
	fn, _ := f.Object().(*types.Func)
	if fn != nil {
		fn = fn.Origin()
	}
	return fn
}

// ---- declarations: parameters, option constructors, fields ----

func (c *optChecker) checkDecls(f *ast.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			fn, _ := c.pass.TypesInfo.Defs[d.Name].(*types.Func)
			if fn == nil {
				continue
			}
			c.checkOptionConstructor(fn, d.Name)
			c.checkParams(fn, d.Type, c.writers[fn])
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				ts, ok := spec.(*ast.TypeSpec)
				if !ok {
					continue
				}
				switch t := ts.Type.(type) {
				case *ast.InterfaceType:
					for _, m := range t.Methods.List {
						ft, ok := m.Type.(*ast.FuncType)
						if !ok || len(m.Names) == 0 {
							continue
						}
						if fn, ok := c.pass.TypesInfo.Defs[m.Names[0]].(*types.Func); ok {
							c.checkParams(fn, ft, false) // an interface method's body is unknown
						}
					}
				case *ast.StructType:
					if tn, ok := c.pass.TypesInfo.Defs[ts.Name].(*types.TypeName); ok {
						c.checkFields(tn, t)
					}
				}
			}
		}
	}
}

func (c *optChecker) isTokenType(t types.Type) bool {
	return c.tokenTypes[types.Unalias(t)]
}

// isTokenInt: an integer or a lease token type, not a pointer.
func (c *optChecker) isTokenInt(t types.Type) bool {
	if _, ok := types.Unalias(t).(*types.Pointer); ok {
		return false
	}
	return rules.IsIntegerLike(t) || c.isTokenType(t)
}

// checkParams reports token parameters of fn taken in an optional shape.
func (c *optChecker) checkParams(fn *types.Func, ft *ast.FuncType, writes bool) {
	sig := fn.Type().(*types.Signature)
	var fenced map[int]bool
	if f := c.e.publishedFact(fn); f != nil {
		fenced = map[int]bool{}
		for _, i := range f.FencedBy {
			fenced[i] = true
		}
		for _, i := range f.TokenParams {
			fenced[i] = true
		}
	}
	i := 0
	for _, field := range ft.Params.List {
		names := field.Names
		n := len(names)
		if n == 0 {
			n = 1
		}
		for k := 0; k < n; k++ {
			idx := i
			i++
			if idx >= sig.Params().Len() {
				return
			}
			p := sig.Params().At(idx)
			pos, end := field.Type.Pos(), field.Type.End()
			if len(names) > 0 {
				pos, end = names[k].Pos(), names[k].End()
			}
			variadic := sig.Variadic() && idx == sig.Params().Len()-1
			c.checkParam(fn, p, variadic, writes, fenced[idx] || c.passedToken(fn, idx), pos, end)
		}
	}
}

// checkParam reports parameter p of fn when it is a fencing token taken in
// an optional shape. A name is not a token (issue 12: a pagination token
// that is only JSON-encoded): a token-named parameter counts only when the
// engine saw it fence a write (fenced: FencedBy, TokenParams), when a
// caller here passes it a lease- or lock-derived token (fenced, too), when
// its value reaches an argument of a write (reachesWrite: a storage call,
// a write helper, an interface method named like a write), or, for an
// interface method, whose body is unknown, when the method is named like
// a write.
func (c *optChecker) checkParam(fn *types.Func, p *types.Var, variadic, writes, fenced bool, pos, end token.Pos) {
	t := p.Type()
	named := rules.IsTokenishParamName(p.Name()) &&
		(fenced || (isInterfaceMethod(fn) && rules.IsWriteMethodName(fn.Name())) || c.reachesWrite(fn, p))
	if variadic {
		elem := t.(*types.Slice).Elem()
		if opt, ctor := c.optionType(elem); opt != nil && ctor != nil {
			if rules.IsConstructorName(fn.Name()) && !writes {
				return // a client constructor's options configure the client
			}
			name := p.Name()
			if name == "" || name == "_" {
				name = "..." + opt.Obj().Name()
			}
			c.report(pos, end, TokenUse{Shape: ShapeOptionParam, Name: name, Func: fn.Name(), Type: ctor.Name()},
				Related{Pos: ctor.Pos(), Message: "token option constructor"})
			return
		}
		if (named || c.isTokenType(elem)) && c.isTokenInt(elem) && !isByte(elem) {
			c.report(pos, end, TokenUse{Shape: ShapeVariadic, Name: p.Name(), Func: fn.Name()})
		}
		return
	}
	if !named && !fenced && !c.isTokenType(deref(t)) && !c.isNullableToken(t) {
		return
	}
	if ptr, ok := types.Unalias(t).(*types.Pointer); ok {
		elem := ptr.Elem()
		if c.isTokenInt(elem) && (named || fenced || c.isTokenType(elem)) {
			c.report(pos, end, TokenUse{Shape: ShapePointer, Name: p.Name(), Func: fn.Name()})
			return
		}
	}
	if (named || fenced) && c.isNullableToken(t) {
		c.report(pos, end, TokenUse{Shape: ShapeNullable, Name: p.Name(), Func: fn.Name(), Type: types.TypeString(t, c.qualifier)})
		return
	}
	if iface, ok := types.Unalias(t).(*types.Interface); ok && iface.Empty() && named {
		c.report(pos, end, TokenUse{Shape: ShapeAny, Name: p.Name(), Func: fn.Name()})
	}
}

func (c *optChecker) qualifier(p *types.Package) string {
	if p == c.pass.Pkg {
		return ""
	}
	return p.Name()
}

func isByte(t types.Type) bool {
	b, ok := types.Unalias(t).(*types.Basic)
	return ok && (b.Kind() == types.Byte || b.Kind() == types.Uint8)
}

func deref(t types.Type) types.Type {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// nullable wrappers: rules.IsPresenceFlagName, rules.IsOptionalTypeName.

// isNullableToken reports whether t (or *t) is a nullable wrapper of an
// integer or token type.
func (c *optChecker) isNullableToken(t types.Type) bool {
	return c.nullable(deref(t), 0)
}

func (c *optChecker) nullable(t types.Type, depth int) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || depth > 1 {
		return false
	}
	if targs := n.TypeArgs(); targs != nil && targs.Len() == 1 && rules.IsOptionalTypeName(n.Obj().Name()) {
		if c.isTokenInt(targs.At(0)) {
			return true
		}
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	var flag, value bool
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		switch {
		case f.Embedded() && c.nullable(f.Type(), depth+1):
			return true // null.Int embeds sql.NullInt64
		case rules.IsPresenceFlagName(f.Name()) && isBool(f.Type()):
			flag = true
		case c.isTokenInt(f.Type()):
			value = true
		}
	}
	return flag && value && st.NumFields() <= 3
}

// ---- functional options ----

// optionType reports whether t is a functional-option type (a named func
// type, or an interface) with a With<Token> constructor in its package
// that takes the token; it returns the type and that constructor.
func (c *optChecker) optionType(t types.Type) (*types.Named, *types.Func) {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return nil, nil
	}
	n = n.Origin()
	if ctor, ok := c.options[n]; ok {
		return n, ctor
	}
	c.options[n] = nil
	switch n.Underlying().(type) {
	case *types.Signature, *types.Interface:
	default:
		return n, nil
	}
	scope := n.Obj().Pkg().Scope()
	for _, name := range scope.Names() {
		fn, ok := scope.Lookup(name).(*types.Func)
		if ok && c.isTokenOptionCtor(fn, n) {
			c.options[n] = fn
			return n, fn
		}
	}
	return n, nil
}

// isTokenOptionCtor: func WithFence(f int64) Option, returning opt.
func (c *optChecker) isTokenOptionCtor(fn *types.Func, opt *types.Named) bool {
	rest, ok := strings.CutPrefix(fn.Name(), "With")
	if !ok || !(rules.IsTokenFieldName(rest) || rules.IsTokenParamName(rest) || rest == "Fencing" || strings.HasPrefix(rest, "Fenc")) {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() != nil || sig.Results().Len() != 1 || sig.Params().Len() != 1 {
		return false
	}
	res, ok := types.Unalias(sig.Results().At(0).Type()).(*types.Named)
	if !ok || res.Origin() != opt {
		return false
	}
	return c.isTokenInt(sig.Params().At(0).Type())
}

// checkOptionConstructor reports WithFence-style constructors declared here.
func (c *optChecker) checkOptionConstructor(fn *types.Func, name *ast.Ident) {
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() != 1 {
		return
	}
	opt, ctor := c.optionType(sig.Results().At(0).Type())
	if opt == nil || ctor != fn {
		return
	}
	c.report(name.Pos(), name.End(), TokenUse{Shape: ShapeOptionCtor, Name: fn.Name()})
}

// ---- fields ----

var omitemptyKeys = []string{"json", "yaml", "db", "dynamodbav", "bson", "toml", "msgpack"}

// checkFields reports token fields of lease and request structs that can be
// nil or are dropped on the wire when zero.
func (c *optChecker) checkFields(tn *types.TypeName, st *ast.StructType) {
	named, ok := types.Unalias(tn.Type()).(*types.Named)
	if !ok {
		return
	}
	kind := ""
	if _, ok := c.e.leaseOf(named); ok {
		kind = "lease"
	} else if c.writerParamTypes[named] || rules.IsRequestTypeName(tn.Name()) {
		kind = "request"
	}
	if kind == "" {
		return
	}
	for _, field := range st.Fields.List {
		for _, id := range field.Names {
			v, ok := c.pass.TypesInfo.Defs[id].(*types.Var)
			if !ok || !tokenFieldNamed(v.Name()) {
				continue
			}
			t := v.Type()
			if !c.isTokenInt(deref(t)) {
				continue // an auth token string, a nested struct
			}
			of := kind + " " + tn.Name()
			if _, ptr := types.Unalias(t).(*types.Pointer); ptr {
				c.report(id.Pos(), id.End(), TokenUse{Shape: ShapeFieldPointer, Name: v.Name(), Of: of})
				continue
			}
			if field.Tag == nil {
				continue
			}
			raw, err := strconv.Unquote(field.Tag.Value)
			if err != nil {
				continue
			}
			tag := reflect.StructTag(raw)
			for _, key := range omitemptyKeys {
				val, ok := tag.Lookup(key)
				if !ok {
					continue
				}
				opts := strings.Split(val, ",")
				if hasOmit(opts[1:]) {
					c.report(id.Pos(), id.End(), TokenUse{Shape: ShapeFieldOmitempty, Name: v.Name(), Of: of, Type: key})
					break
				}
			}
		}
	}
}

// tokenFieldNamed: a struct field named like a fencing token (Token,
// Fence, Epoch, ...; any name with "fenc" in it).
func tokenFieldNamed(name string) bool {
	return rules.IsTokenFieldName(name) || rules.IsTokenParamName(name) || strings.Contains(strings.ToLower(name), "fenc")
}

func hasOmit(opts []string) bool {
	for _, o := range opts {
		if o == "omitempty" || o == "omitzero" {
			return true
		}
	}
	return false
}

// ---- call sites ----

// tokenParams returns the parameters of fn that carry a fencing token:
// the engine's TokenParams/FencedBy (local inference, or facts of another
// package) and token-named parameters of a token shape.
func (c *optChecker) tokenParams(fn *types.Func) map[int]bool {
	out := map[int]bool{}
	if f := c.e.publishedFact(fn); f != nil {
		for _, i := range f.TokenParams {
			out[i] = true
		}
		for _, i := range f.FencedBy {
			out[i] = true
		}
	}
	sig := fn.Type().(*types.Signature)
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		if rules.IsTokenishParamName(p.Name()) || c.isTokenType(deref(p.Type())) {
			out[i] = true
		}
	}
	for i := range out {
		if i >= sig.Params().Len() {
			delete(out, i)
			continue
		}
		t := sig.Params().At(i).Type()
		if sig.Variadic() && i == sig.Params().Len()-1 {
			t = t.(*types.Slice).Elem()
		}
		if _, ok := c.e.leaseOf(t); ok || rules.IsLockType(t) {
			delete(out, i) // a lease may be nil-checked; its token is what matters
			continue
		}
		iface, isIface := types.Unalias(t).(*types.Interface)
		if !rules.IsIntegerLike(t) && !c.isTokenType(deref(t)) && !(isIface && iface.Empty()) {
			delete(out, i)
		}
	}
	return out
}

// checkBody walks f once for both call checks (zero literals passed as
// tokens; skipped in tests, which pass 0 on purpose) and branch checks.
func (c *optChecker) checkBody(f *ast.File, calls bool) {
	ast.Inspect(f, func(n ast.Node) bool {
		var list []ast.Stmt
		switch n := n.(type) {
		case *ast.CallExpr:
			if calls {
				c.checkCall(n)
			}
			return true
		case *ast.BlockStmt:
			list = n.List
		case *ast.CaseClause:
			list = n.Body
		case *ast.CommClause:
			list = n.Body
		default:
			return true
		}
		for i, s := range list {
			if ifs, ok := s.(*ast.IfStmt); ok {
				c.checkIf(ifs, list[i+1:])
			}
		}
		return true
	})
}

// checkCall reports a literal 0 or nil passed for a token parameter.
func (c *optChecker) checkCall(call *ast.CallExpr) {
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if fn == nil || rules.IsLibraryPackage(pkgPath(fn)) {
		return
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := c.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodExpr {
			return // T.M(recv, ...): arguments shifted by one
		}
	}
	if !c.calleeWrites(fn) {
		return // a read's revision 0 means "latest", not "unfenced"
	}
	for _, arg := range call.Args {
		c.checkRequestLiteral(call, fn, arg)
	}
	tps := c.tokenParams(fn)
	if len(tps) == 0 {
		return
	}
	sig := fn.Type().(*types.Signature)
	np := sig.Params().Len()
	for j, arg := range call.Args {
		i := j
		if sig.Variadic() && i >= np-1 {
			if call.Ellipsis.IsValid() {
				continue
			}
			i = np - 1
		}
		if !tps[i] {
			continue
		}
		lit := c.zeroLiteral(arg)
		if lit == "" {
			continue
		}
		p := sig.Params().At(i)
		if c.omittedCalls == nil {
			c.omittedCalls = map[token.Pos]bool{}
		}
		c.omittedCalls[call.Pos()] = true
		c.report(arg.Pos(), arg.End(), TokenUse{Shape: ShapeLiteral, Literal: lit, Name: p.Name(), Func: calleeName(c.pass.Pkg, fn)})
	}
}

// checkRequestLiteral reports a request literal passed straight to a
// write (SaveReq(ctx, db, SaveRequest{ID: id, Fence: 0})) whose token
// field is given a literal 0, or is left out of a keyed literal: nothing
// can set it afterwards, so the write is not fenced.
func (c *optChecker) checkRequestLiteral(call *ast.CallExpr, fn *types.Func, arg ast.Expr) {
	e := ast.Unparen(arg)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return
	}
	named, ok := types.Unalias(c.pass.TypesInfo.TypeOf(lit)).(*types.Named)
	if !ok {
		return
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok || !(c.writerParamTypes[named] || rules.IsRequestTypeName(named.Obj().Name())) {
		return
	}
	given := map[string]ast.Expr{}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return // positional: every field is given
		}
		if id, ok := kv.Key.(*ast.Ident); ok {
			given[id.Name] = kv.Value
		}
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !tokenFieldNamed(f.Name()) {
			continue
		}
		if _, ptr := types.Unalias(f.Type()).(*types.Pointer); ptr || !c.isTokenInt(f.Type()) {
			continue // a pointer field is ShapeFieldPointer's; a string is an auth token
		}
		of := "request " + named.Obj().Name()
		callee := calleeName(c.pass.Pkg, fn)
		v, ok := given[f.Name()]
		switch {
		case ok && c.zeroLiteral(v) != "":
			c.omit(call)
			c.report(v.Pos(), v.End(), TokenUse{Shape: ShapeLiteral, Literal: c.zeroLiteral(v), Name: f.Name(), Func: callee})
		case !ok && len(lit.Elts) > 0:
			c.omit(call)
			c.report(lit.Lbrace, lit.Rbrace+1, TokenUse{Shape: ShapeFieldLeftOut, Name: f.Name(), Of: of, Func: callee})
		}
	}
}

// omit records that call's token was left out: the unfenced write it
// makes is this analyzer's finding, not unfencedwrite's.
func (c *optChecker) omit(call *ast.CallExpr) {
	if c.omittedCalls == nil {
		c.omittedCalls = map[token.Pos]bool{}
	}
	c.omittedCalls[call.Pos()] = true
}

// calleeWrites: the callee writes (this package's writers, write facts),
// or is an interface method named like a write.
func (c *optChecker) calleeWrites(fn *types.Func) bool {
	fn = fn.Origin()
	if c.writers[fn] {
		return true
	}
	if f := c.e.publishedFact(fn); f != nil && (f.Write || len(f.FencedBy) > 0 || len(f.TokenParams) > 0) {
		return true
	}
	sig := fn.Type().(*types.Signature)
	if recv := sig.Recv(); recv != nil && types.IsInterface(recv.Type()) {
		return rules.IsWriteMethodName(fn.Name())
	}
	return false
}

func pkgPath(fn *types.Func) string {
	if fn.Pkg() == nil {
		return ""
	}
	return fn.Pkg().Path()
}

func calleeName(here *types.Package, fn *types.Func) string {
	sig := fn.Type().(*types.Signature)
	if recv := sig.Recv(); recv != nil {
		if n, ok := types.Unalias(deref(recv.Type())).(*types.Named); ok {
			return n.Obj().Name() + "." + fn.Name()
		}
		return fn.Name()
	}
	if fn.Pkg() != nil && fn.Pkg() != here {
		return fn.Pkg().Name() + "." + fn.Name()
	}
	return fn.Name()
}

// zeroLiteral returns "0" or "nil" when e is the literal 0 (possibly
// converted, int64(0)) or nil.
func (c *optChecker) zeroLiteral(e ast.Expr) string {
	e = ast.Unparen(e)
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.INT {
			if tv, ok := c.pass.TypesInfo.Types[e]; ok && tv.Value != nil && constant.Sign(tv.Value) == 0 {
				return "0"
			}
		}
	case *ast.Ident:
		if _, ok := c.pass.TypesInfo.Uses[e].(*types.Nil); ok {
			return "nil"
		}
		// const noFence = 0: a named zero is still no token.
		if k, ok := c.pass.TypesInfo.Uses[e].(*types.Const); ok && k.Val().Kind() == constant.Int && constant.Sign(k.Val()) == 0 {
			return e.Name
		}
	case *ast.CallExpr:
		if tv, ok := c.pass.TypesInfo.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return c.zeroLiteral(e.Args[0])
		}
	case *ast.SelectorExpr:
		// math.MaxInt64 forces the write through every fence and then
		// rejects every later holder: the token is as good as omitted.
		if tv, ok := c.pass.TypesInfo.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.Int {
			if constant.Compare(tv.Value, token.EQL, constant.MakeInt64(math.MaxInt64)) ||
				constant.Compare(tv.Value, token.EQL, constant.MakeUint64(math.MaxUint64)) {
				return types.ExprString(e)
			}
		}
	}
	return ""
}

// ---- branches ----

// checkIf reports ifs that fall back to an unfenced write when the token
// is zero:
//
//	if tok == 0 { blind write } else { write fenced by tok }
//	if tok == 0 { blind write; return }; write fenced by tok
func (c *optChecker) checkIf(ifs *ast.IfStmt, rest []ast.Stmt) {
	x, zeroInBody := c.zeroTest(ifs.Cond)
	if x == nil {
		return
	}
	// Only a token can be "zero": `if err != nil` after an acquire is the
	// acquire's own check (measured on real etcd code).
	if t := c.pass.TypesInfo.TypeOf(x); t == nil || types.Identical(t, types.Universe.Lookup("error").Type()) || !c.tokenish(x) {
		return
	}
	if ifs.Else == nil && !terminates(ifs.Body) {
		c.checkChosenStatement(ifs, rest, x, zeroInBody)
		return
	}
	var zero, other []ast.Node
	body := []ast.Node{ifs.Body}
	restNodes := func() []ast.Node {
		var out []ast.Node
		for _, s := range rest {
			out = append(out, s)
		}
		return out
	}
	switch {
	case zeroInBody && ifs.Else != nil:
		zero, other = body, []ast.Node{ifs.Else}
	case zeroInBody && terminates(ifs.Body):
		zero, other = body, restNodes()
	case !zeroInBody && ifs.Else != nil:
		zero, other = []ast.Node{ifs.Else}, body
	case !zeroInBody && terminates(ifs.Body):
		zero, other = restNodes(), body
	default:
		return
	}
	key := types.ExprString(x)
	// The engine's own verdicts say which calls write and how: every
	// write kind, read back by the call's '('.
	blind := c.findWrite(zero, func(call *ast.CallExpr) bool {
		return !mentions(call, key) && c.e.callVerdictAt(call.Lparen).blind
	})
	if blind == nil {
		return
	}
	fenced := c.findWrite(other, func(call *ast.CallExpr) bool {
		v := c.e.callVerdictAt(call.Lparen)
		if !v.write {
			return false // errors.Wrap(err, ...) mentions the value but writes nothing
		}
		if mentions(call, key) {
			return true
		}
		return v.conditional && c.tokenish(x)
	})
	if fenced == nil {
		return
	}
	for _, n := range zero {
		c.omittedSpans = append(c.omittedSpans, [2]token.Pos{n.Pos(), n.End()})
	}
	c.reportBranch(ifs, x, blind,
		Related{Pos: blind.Pos(), End: blind.End(), Message: "unfenced write"},
		Related{Pos: fenced.Pos(), End: fenced.End(), Message: "fenced write"})
}

// reportBranch reports the token test ifs of x whose zero path runs write
// unfenced. The write, when it is in a lock scope, goes on the defect:
// unfencedwrite reports the same call, so a reader can tell one root
// cause.
func (c *optChecker) reportBranch(ifs *ast.IfStmt, x ast.Expr, write *ast.CallExpr, related ...Related) {
	d := c.report(ifs.Cond.Pos(), ifs.Cond.End(), TokenUse{Shape: ShapeBranch, Name: types.ExprString(x), Func: types.ExprString(write.Fun), Zero: c.zeroWord(ifs.Cond, x)}, related...)
	if d == nil {
		return
	}
	if n, ok := c.e.callEvals[write.Lparen]; ok {
		d.Write = n.ev.write
	}
}

// checkChosenStatement reports a test of the token that only chooses the
// statement a later write runs:
//
//	q := "UPDATE docs SET body = $2 WHERE id = $1"
//	if tok > 0 {
//		q = "UPDATE docs SET body = $2, fence = $3 WHERE id = $1 AND fence < $3"
//		args = append(args, tok)
//	}
//	pool.Exec(ctx, q, args...)
//
// The if's body assigns a string variable (= or +=) that the write after
// it takes as an argument; when the body is the token's branch it must
// also use the token (or name a fence column in what it assigns), so that
// an if that picks a table name is not read as a fence.
func (c *optChecker) checkChosenStatement(ifs *ast.IfStmt, rest []ast.Stmt, x ast.Expr, zeroInBody bool) {
	key := types.ExprString(x)
	var chosen types.Object
	var assign ast.Node
	fenceWord := false
	for _, st := range ifs.Body.List {
		as, ok := st.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || (as.Tok != token.ASSIGN && as.Tok != token.ADD_ASSIGN) {
			continue
		}
		id, ok := as.Lhs[0].(*ast.Ident)
		if !ok {
			continue
		}
		obj := c.pass.TypesInfo.Uses[id]
		if obj == nil || !types.Identical(obj.Type().Underlying(), types.Typ[types.String]) {
			continue
		}
		chosen, assign = obj, as
		if tv, ok := c.pass.TypesInfo.Types[as.Rhs[0]]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
			notIdent := func(r rune) bool { return r >= utf8.RuneSelf || !isIdentByte(byte(r)) }
			for _, w := range strings.FieldsFunc(constant.StringVal(tv.Value), notIdent) {
				if fenceLikeColumn(w) {
					fenceWord = true
				}
			}
		}
		break
	}
	if chosen == nil {
		return
	}
	if !zeroInBody && !fenceWord && !mentions(ifs.Body, key) {
		return
	}
	var restNodes []ast.Node
	for _, st := range rest {
		restNodes = append(restNodes, st)
	}
	write := c.findWrite(restNodes, func(call *ast.CallExpr) bool {
		// The engine does not read a statement chosen at run time (its
		// verdict is no write), so the library's rule says it writes.
		fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
		if fn == nil {
			return false
		}
		if w, ok := c.e.writeOf(fn); !ok || w.Kind.Mechanism() != rules.MechText {
			return false
		}
		for _, a := range call.Args {
			if id, ok := ast.Unparen(a).(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == chosen {
				return true
			}
		}
		return false
	})
	if write == nil {
		return
	}
	c.reportBranch(ifs, x, write,
		Related{Pos: assign.Pos(), End: assign.End(), Message: "the statement chosen by the test"},
		Related{Pos: write.Pos(), End: write.End(), Message: "the write that runs it"})
}

// zeroWord names the missing token as the test sees it: "nil" for a nil
// pointer or interface, "empty" for "", "unset" for a nullable's Valid,
// "zero" for a number.
func (c *optChecker) zeroWord(cond, x ast.Expr) string {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return "unset" // !tok.Valid, tok.Valid
	}
	for _, side := range []ast.Expr{b.X, b.Y} {
		switch lit := ast.Unparen(side).(type) {
		case *ast.Ident:
			if _, ok := c.pass.TypesInfo.Uses[lit].(*types.Nil); ok {
				return "nil"
			}
		case *ast.BasicLit:
			if lit.Kind == token.STRING {
				return "empty"
			}
		}
	}
	if t := c.pass.TypesInfo.TypeOf(x); t != nil {
		switch types.Unalias(t).Underlying().(type) {
		case *types.Pointer, *types.Interface:
			return "nil"
		}
	}
	return "zero"
}

// zeroTest matches tok == 0, tok <= 0, tok == "", tok == nil, !tok.Valid
// (zero branch: the body) and their negations (zero branch: the else).
func (c *optChecker) zeroTest(cond ast.Expr) (x ast.Expr, zeroInBody bool) {
	cond = ast.Unparen(cond)
	switch e := cond.(type) {
	case *ast.BinaryExpr:
		var op token.Token
		switch {
		case c.isZero(e.Y):
			x, op = e.X, e.Op
		case c.isZero(e.X):
			x, op = e.Y, mirrorOp(e.Op)
		default:
			return nil, false
		}
		if !isPath(x) {
			return nil, false
		}
		switch op {
		case token.EQL, token.LEQ:
			return x, true
		case token.NEQ, token.GTR:
			return x, false
		}
	case *ast.UnaryExpr:
		if sel, ok := ast.Unparen(e.X).(*ast.SelectorExpr); ok && e.Op == token.NOT && sel.Sel.Name == "Valid" && isPath(sel.X) {
			return sel.X, true
		}
	case *ast.SelectorExpr:
		if e.Sel.Name == "Valid" && isPath(e.X) && isBool(c.pass.TypesInfo.TypeOf(e)) {
			return e.X, false
		}
	}
	return nil, false
}

func (c *optChecker) isZero(e ast.Expr) bool {
	if c.zeroLiteral(e) != "" {
		return true
	}
	if lit, ok := ast.Unparen(e).(*ast.BasicLit); ok && lit.Kind == token.STRING {
		return lit.Value == `""` || lit.Value == "``"
	}
	return false
}

// isPath: an identifier or a field path (lease.Token, r.lease.Fence).
func isPath(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return isPath(e.X)
	}
	return false
}

// tokenish: the tested value is named like a token or a store's version.
func (c *optChecker) tokenish(x ast.Expr) bool {
	var name string
	switch e := ast.Unparen(x).(type) {
	case *ast.Ident:
		name = e.Name
	case *ast.SelectorExpr:
		name = e.Sel.Name
	}
	if rules.IsTokenishParamName(name) || c.isTokenType(c.pass.TypesInfo.TypeOf(x)) {
		return true
	}
	return rules.IsVersionName(name)
}

func terminates(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok == token.CONTINUE || s.Tok == token.BREAK || s.Tok == token.GOTO
	}
	return false
}

// findWrite returns the first call in nodes (not in closures) that pred
// accepts.
func (c *optChecker) findWrite(nodes []ast.Node, pred func(*ast.CallExpr) bool) *ast.CallExpr {
	var found *ast.CallExpr
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if found != nil {
				return false
			}
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if pred(call) {
				found = call
				return false
			}
			return true
		})
	}
	return found
}

// mentions reports whether key (an identifier or field path) occurs in n.
func mentions(n ast.Node, key string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if found {
			return false
		}
		switch e := n.(type) {
		case *ast.Ident, *ast.SelectorExpr:
			if types.ExprString(e.(ast.Expr)) == key {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

// passedToken reports whether a call in this package passes a lease- or
// lock-derived token as parameter i of fn: then the parameter is a
// fencing token whatever fn does with it.
func (c *optChecker) passedToken(fn *types.Func, i int) bool {
	if c.tokenArgs == nil {
		c.tokenArgs = map[*types.Func]map[int]bool{}
		for _, f := range c.e.funcs {
			for _, b := range f.Blocks {
				for _, instr := range b.Instrs {
					cc, _ := callOf(instr)
					if cc == nil || cc.IsInvoke() {
						continue
					}
					callee := calleeFunc(cc)
					if callee == nil || callee.Pkg() != c.pass.Pkg {
						continue
					}
					callee = callee.Origin()
					sig := callee.Type().(*types.Signature)
					for j, a := range params(cc) {
						if j >= sig.Params().Len() || !rules.IsTokenishParamName(sig.Params().At(j).Name()) {
							continue // only token-named parameters are asked about
						}
						if c.e.originOf(a).isToken() {
							if c.tokenArgs[callee] == nil {
								c.tokenArgs[callee] = map[int]bool{}
							}
							c.tokenArgs[callee][j] = true
						}
					}
				}
			}
		}
	}
	return c.tokenArgs[fn.Origin()][i]
}

// reachesWrite reports whether the value of parameter p of fn, or one
// derived from it (*p, p.V, p[0], strconv.FormatInt(p), a struct, slice or
// map holding it), is an argument of a write call in fn's body. It follows
// the value forwards through SSA referrers. Without SSA for fn (the filter
// found nothing to judge) it does not.
func (c *optChecker) reachesWrite(fn *types.Func, p *types.Var) bool {
	sf := c.e.prog.FuncValue(fn)
	if sf == nil || !hasBody(sf) || tooBig(sf) {
		return false
	}
	for _, sp := range sf.Params {
		if sp.Object() == p {
			return c.flowsToWrite(sp, map[ssa.Value]bool{}, 0)
		}
	}
	return false
}

func (c *optChecker) flowsToWrite(v ssa.Value, seen map[ssa.Value]bool, depth int) bool {
	if v == nil || seen[v] || depth > 16 || v.Referrers() == nil {
		return false
	}
	seen[v] = true
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case ssa.CallInstruction:
			cc := r.Common()
			if callee := calleeFunc(cc); callee != nil {
				if _, ok := c.e.writeOf(callee); ok || c.calleeWrites(callee) {
					return true
				}
			}
			// A value computed from it (strconv.FormatInt(p), fmt.Sprint).
			if call, ok := r.(*ssa.Call); ok && c.flowsToWrite(call, seen, depth+1) {
				return true
			}
		case *ssa.Store:
			if r.Val != v {
				continue
			}
			if c.flowsToWrite(r.Addr, seen, depth+1) {
				return true
			}
			switch a := r.Addr.(type) {
			case *ssa.FieldAddr:
				if c.flowsToWrite(a.X, seen, depth+1) {
					return true
				}
			case *ssa.IndexAddr:
				if c.flowsToWrite(a.X, seen, depth+1) {
					return true
				}
			}
		case *ssa.MapUpdate:
			if r.Value == v && c.flowsToWrite(r.Map, seen, depth+1) {
				return true
			}
		case ssa.Value:
			// *p, p.V, &p.V, p[0], conversions, interfaces, slices,
			// arithmetic, phis; not comparisons, whose bool is not the token.
			if bo, ok := r.(*ssa.BinOp); ok && isCompare(bo.Op) {
				continue
			}
			if c.flowsToWrite(r, seen, depth+1) {
				return true
			}
		}
	}
	return false
}
