package optionaltoken

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"strconv"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/directive"
	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/lintutil"
	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
	"honnef.co/go/tools/analysis/lint"
)

// Lint is the analyzer with its documentation.
var Lint = lintutil.Init(&lint.Analyzer{
	Analyzer: &analysis.Analyzer{
		Name:       "optionaltoken",
		Run:        run,
		Requires:   []*analysis.Analyzer{fence.Analyzer},
		ResultType: reflect.TypeFor[*Covered](),
	},
	Doc: &lint.RawDocumentation{
		Title: "report fencing tokens that a caller can leave out",
		Text: `A fencing token only protects a write that carries it. A signature that
accepts an optional token is one refactor away from a call site that forgets
it, and the failure is silent until the day a lock holder pauses past its
lease: the write without a token is exactly the write the fence was meant to
reject.

optionaltoken reports, at the parameter, a fencing token taken by a function
that writes under a lock, is a write helper, or names the token (token,
fence, fencingToken, epoch, generation, revision, or a lease's token type)
as a pointer, a variadic, a sql.Null* or other nullable wrapper, any, or a
functional option (both the WithFence-style constructor and the function
taking ...Option). At the field, a lease or request struct's token field
that is a pointer or tagged omitempty (json, yaml, db). At the argument, a
literal 0 or nil passed for a token parameter, also across packages. At the
condition, an if that falls back to an unfenced write when the token is
zero (or nil).

A write whose fence is missing because of one of these (the write that
receives the literal, the write on the fallback branch) is this
analyzer's finding only: unfencedwrite and appcheck, which see the same
write unfenced, stay silent on it.`,
		Before: `
func SaveDoc(ctx context.Context, db *sql.DB, id string, fence *int64) error`,
		After: `
func SaveDoc(ctx context.Context, db *sql.DB, id string, fence int64) error`,
		Since:    "v0.1.0",
		Severity: lint.SeverityWarning,
		MergeIf:  lint.MergeIfAny,
	},
})

// Analyzer is the bare analyzer for go vet, golangci-lint and analysistest.
var Analyzer = Lint.Analyzer

// Covered is the analyzer's result: the writes whose missing fence it
// reports (a call given a literal 0 or nil token, the writes on the
// fallback branch of a zero-token test). unfencedwrite and appcheck
// require it and stay silent on those writes: one diagnosis per root
// cause, owned by optionaltoken because it points at the cause (the
// argument, the branch) rather than at its effect.
type Covered struct {
	calls map[token.Pos]bool // call expressions' Pos
	spans [][2]token.Pos     // fallback branches, [from, to)
}

// Has reports whether the write call starting at pos is covered.
func (c *Covered) Has(pos token.Pos) bool {
	if c == nil || !pos.IsValid() {
		return false
	}
	if c.calls[pos] {
		return true
	}
	for _, sp := range c.spans {
		if sp[0] <= pos && pos < sp[1] {
			return true
		}
	}
	return false
}

type checker struct {
	pass  *analysis.Pass
	model *fence.Model
	ig    *directive.Ignores

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
	covered          *Covered
}

func run(pass *analysis.Pass) (any, error) {
	model := pass.ResultOf[fence.Analyzer].(*fence.Model)
	if !model.Relevant {
		return (*Covered)(nil), nil // fast path: nothing lock-related in reach
	}
	c := &checker{
		pass:             pass,
		model:            model,
		ig:               directive.CollectIgnores(pass),
		tokenTypes:       leaseTokenTypes(pass.Pkg),
		decls:            map[*types.Func]*ast.FuncDecl{},
		writers:          map[*types.Func]bool{},
		options:          map[*types.Named]*types.Func{},
		writerParamTypes: map[*types.Named]bool{},
		reported:         map[token.Pos]bool{},
		covered:          &Covered{calls: map[token.Pos]bool{}},
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					c.decls[fn] = fd
				}
			}
		}
	}
	c.findWriters()
	for _, f := range pass.Files {
		c.checkDecls(f)
	}
	for _, f := range pass.Files {
		c.checkBody(f, !strings.HasSuffix(pass.Fset.File(f.FileStart).Name(), "_test.go"))
	}
	c.ig.Finish(pass, lintutil.Names)
	return c.covered, nil
}

func (c *checker) report(pos, end token.Pos, category, msg string, related ...analysis.RelatedInformation) {
	if c.reported[pos] {
		return // one report per root cause
	}
	c.reported[pos] = true
	c.ig.Report(c.pass, analysis.Diagnostic{Pos: pos, End: end, Category: category, Message: msg, Related: related})
}

// leaseTokenTypes are the named token types of lease-shaped structs in pkg
// and its imports.
func leaseTokenTypes(pkg *types.Package) map[types.Type]bool {
	out := map[types.Type]bool{}
	add := func(p *types.Package) {
		scope := p.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			if info, ok := rules.LeaseOf(tn.Type()); ok && info.Token != nil {
				if n, ok := types.Unalias(deref(info.Token.Type())).(*types.Named); ok {
					out[n] = true
				}
			}
		}
	}
	add(pkg)
	for _, imp := range pkg.Imports() {
		if !rules.IsLibraryPackage(imp.Path()) {
			add(imp)
		}
	}
	return out
}

// ---- writers ----

// findWriters marks functions that write: they contain a write the engine
// judged, a storage write rules/ knows, or a call of a write helper (facts,
// or a function of this package that writes).
func (c *checker) findWriters() {
	for _, w := range c.model.Writes {
		if fn := topFunc(w.Func); fn != nil {
			c.writers[fn] = true
		}
	}
	// The engine's summaries already say which functions write, directly
	// or through local helpers (transitively) and imported facts: reuse
	// them rather than walking every body again.
	for fn := range c.decls {
		if f := fence.FactOf(c.model, fn); f != nil && f.Write {
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

func (c *checker) isWriteCall(call *ast.CallExpr, fn *types.Func) bool {
	if w, ok := rules.WriteOf(fn); ok {
		if w.Kind == rules.SQLWrite && w.QueryArg >= 0 && w.QueryArg < len(call.Args) {
			// Have: db.QueryRowContext(ctx, "SELECT ..."): a read.
			tv := c.pass.TypesInfo.Types[call.Args[w.QueryArg]]
			if tv.Value != nil && tv.Value.Kind() == constant.String && c.isReadSQL(constant.StringVal(tv.Value)) {
				return false
			}
		}
		return true
	}
	f := fence.FactOf(c.model, fn)
	return f != nil && f.Write
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

func (c *checker) checkDecls(f *ast.File) {
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

// tokenName reports whether a parameter name says it is a fencing token:
// the contract's names, any name containing "fenc", and lease/lock-prefixed
// ones (leaseToken, lockEpoch). "tok" counts only in functions that write.
func tokenName(name string, writes bool) bool {
	if rules.IsTokenParamName(name) || rules.IsTokenFieldName(name) {
		return true
	}
	l := strings.ToLower(name)
	if strings.Contains(l, "fenc") {
		return true
	}
	for _, p := range []string{"lease", "lock", "write"} {
		if rest, ok := strings.CutPrefix(l, p); ok && rest != "" && rules.IsTokenParamName(rest) {
			return true
		}
	}
	return writes && (l == "tok" || l == "leasetok" || l == "locktok")
}

func (c *checker) isTokenType(t types.Type) bool {
	return c.tokenTypes[types.Unalias(t)]
}

// isTokenInt: an integer or a lease token type, not a pointer.
func (c *checker) isTokenInt(t types.Type) bool {
	if _, ok := types.Unalias(t).(*types.Pointer); ok {
		return false
	}
	return rules.IsIntegerLike(t) || c.isTokenType(t)
}

// checkParams reports token parameters of fn taken in an optional shape.
func (c *checker) checkParams(fn *types.Func, ft *ast.FuncType, writes bool) {
	sig := fn.Type().(*types.Signature)
	var fenced map[int]bool
	if f := fence.FactOf(c.model, fn); f != nil {
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
			c.checkParam(fn, p, variadic, writes, fenced[idx], pos, end)
		}
	}
}

func (c *checker) checkParam(fn *types.Func, p *types.Var, variadic, writes, fenced bool, pos, end token.Pos) {
	t := p.Type()
	named := tokenName(p.Name(), writes)
	who := fmt.Sprintf("fencing token parameter %s of %s", p.Name(), fn.Name())
	if variadic {
		elem := t.(*types.Slice).Elem()
		if opt, ctor := c.optionType(elem); opt != nil && ctor != nil {
			if isConstructorName(fn.Name()) && !writes {
				return // a client constructor's options configure the client
			}
			name := p.Name()
			if name == "" || name == "_" {
				name = "..." + opt.Obj().Name()
			}
			c.report(pos, end, "option", fmt.Sprintf(
				"%s of %s takes the fencing token as an option (%s): a caller can leave it out and skip the fence; make the token a required parameter",
				name, fn.Name(), ctor.Name()),
				analysis.RelatedInformation{Pos: ctor.Pos(), Message: "token option constructor"})
			return
		}
		if (named || c.isTokenType(elem)) && c.isTokenInt(elem) && !isByte(elem) {
			c.report(pos, end, "variadic", who+" is variadic: a caller can leave it out and skip the fence; make it a required parameter")
		}
		return
	}
	if !named && !fenced && !c.isTokenType(deref(t)) && !c.isNullableToken(t) {
		return
	}
	if ptr, ok := types.Unalias(t).(*types.Pointer); ok {
		elem := ptr.Elem()
		if c.isTokenInt(elem) && (named || fenced || c.isTokenType(elem)) {
			c.report(pos, end, "pointer", who+" is a pointer: a caller can pass nil and skip the fence; take it by value")
			return
		}
	}
	if (named || fenced) && c.isNullableToken(t) {
		c.report(pos, end, "nullable", fmt.Sprintf("%s is the nullable %s: a caller can pass it unset and skip the fence; take the token by value",
			who, types.TypeString(t, c.qualifier)))
		return
	}
	if iface, ok := types.Unalias(t).(*types.Interface); ok && iface.Empty() && named {
		c.report(pos, end, "any", who+" is any: a caller can pass nil and skip the fence; give it the token's integer type")
	}
}

func (c *checker) qualifier(p *types.Package) string {
	if p == c.pass.Pkg {
		return ""
	}
	return p.Name()
}

func isConstructorName(name string) bool {
	for _, p := range []string{"New", "Open", "Dial", "Connect", "Must"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
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

// nullable wrappers: a struct with a presence flag next to the value
// (sql.NullInt64, sql.Null[T], pgtype.Int8, null.Int), or a generic
// Optional/Option/Maybe/Nullable of one type argument.
var presenceFields = map[string]bool{
	"Valid": true, "Set": true, "IsSet": true, "Present": true, "Ok": true, "OK": true,
	"HasValue": true, "Defined": true, "Null": true, "IsNull": true,
}

var optionalNames = map[string]bool{
	"Optional": true, "Option": true, "Maybe": true, "Nullable": true, "Opt": true, "Null": true,
}

// isNullableToken reports whether t (or *t) is a nullable wrapper of an
// integer or token type.
func (c *checker) isNullableToken(t types.Type) bool {
	return c.nullable(deref(t), 0)
}

func (c *checker) nullable(t types.Type, depth int) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || depth > 1 {
		return false
	}
	if targs := n.TypeArgs(); targs != nil && targs.Len() == 1 && optionalNames[n.Obj().Name()] {
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
		case presenceFields[f.Name()] && isBool(f.Type()):
			flag = true
		case c.isTokenInt(f.Type()):
			value = true
		}
	}
	return flag && value && st.NumFields() <= 3
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// ---- functional options ----

// optionType reports whether t is a functional-option type (a named func
// type, or an interface) with a With<Token> constructor in its package
// that takes the token; it returns the type and that constructor.
func (c *checker) optionType(t types.Type) (*types.Named, *types.Func) {
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
func (c *checker) isTokenOptionCtor(fn *types.Func, opt *types.Named) bool {
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
func (c *checker) checkOptionConstructor(fn *types.Func, name *ast.Ident) {
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() != 1 {
		return
	}
	opt, ctor := c.optionType(sig.Results().At(0).Type())
	if opt == nil || ctor != fn {
		return
	}
	c.report(name.Pos(), name.End(), "option", fmt.Sprintf(
		"%s makes the fencing token an option: a caller can leave it out and skip the fence; make the token a required parameter of the write", fn.Name()))
}

// ---- fields ----

var requestSuffixes = []string{"Request", "Req", "Input", "Command", "Cmd", "Params", "Args", "Write", "Update"}

var omitemptyKeys = []string{"json", "yaml", "db", "dynamodbav", "bson", "toml", "msgpack"}

// checkFields reports token fields of lease and request structs that can be
// nil or are dropped on the wire when zero.
func (c *checker) checkFields(tn *types.TypeName, st *ast.StructType) {
	named, ok := types.Unalias(tn.Type()).(*types.Named)
	if !ok {
		return
	}
	kind := ""
	if _, ok := rules.LeaseOf(named); ok {
		kind = "lease"
	} else if c.writerParamTypes[named] || hasSuffix(tn.Name(), requestSuffixes) {
		kind = "request"
	}
	if kind == "" {
		return
	}
	for _, field := range st.Fields.List {
		for _, id := range field.Names {
			v, ok := c.pass.TypesInfo.Defs[id].(*types.Var)
			if !ok || !(rules.IsTokenFieldName(v.Name()) || rules.IsTokenParamName(v.Name()) || strings.Contains(strings.ToLower(v.Name()), "fenc")) {
				continue
			}
			t := v.Type()
			if !c.isTokenInt(deref(t)) {
				continue // an auth token string, a nested struct
			}
			who := fmt.Sprintf("fencing token field %s of %s %s", v.Name(), kind, tn.Name())
			if _, ptr := types.Unalias(t).(*types.Pointer); ptr {
				c.report(id.Pos(), id.End(), "field", who+" is a pointer: it can be nil and the write goes unfenced; make it a value")
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
					c.report(id.Pos(), id.End(), "field", fmt.Sprintf(
						"%s is tagged %s omitempty: a zero or missing token vanishes on the wire and the write goes unfenced; drop omitempty", who, key))
					break
				}
			}
		}
	}
}

func hasOmit(opts []string) bool {
	for _, o := range opts {
		if o == "omitempty" || o == "omitzero" {
			return true
		}
	}
	return false
}

func hasSuffix(name string, suffixes []string) bool {
	for _, s := range suffixes {
		if strings.HasSuffix(name, s) && name != s {
			return true
		}
	}
	return false
}

// ---- call sites ----

// tokenParams returns the parameters of fn that carry a fencing token:
// the engine's TokenParams/FencedBy (local inference, or facts of another
// package) and token-named parameters of a token shape.
func (c *checker) tokenParams(fn *types.Func) map[int]bool {
	out := map[int]bool{}
	if f := fence.FactOf(c.model, fn); f != nil {
		for _, i := range f.TokenParams {
			out[i] = true
		}
		for _, i := range f.FencedBy {
			out[i] = true
		}
	}
	sig := fn.Type().(*types.Signature)
	writes := c.writers[fn.Origin()]
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		if tokenName(p.Name(), writes) || c.isTokenType(deref(p.Type())) {
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
		if _, ok := rules.LeaseOf(t); ok || rules.IsLockType(t) {
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
func (c *checker) checkBody(f *ast.File, calls bool) {
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
func (c *checker) checkCall(call *ast.CallExpr) {
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
		c.covered.calls[call.Pos()] = true
		c.report(arg.Pos(), arg.End(), "literal", fmt.Sprintf(
			"literal %s passed as fencing token %s of %s: the write is not fenced; pass the lease's token",
			lit, p.Name(), calleeName(c.pass.Pkg, fn)))
	}
}

// calleeWrites: the callee writes (this package's writers, write facts),
// or is an interface method named like a write.
func (c *checker) calleeWrites(fn *types.Func) bool {
	fn = fn.Origin()
	if c.writers[fn] {
		return true
	}
	if f := fence.FactOf(c.model, fn); f != nil && (f.Write || len(f.FencedBy) > 0 || len(f.TokenParams) > 0) {
		return true
	}
	sig := fn.Type().(*types.Signature)
	if recv := sig.Recv(); recv != nil && types.IsInterface(recv.Type()) {
		return isWriteName(fn.Name())
	}
	return false
}

var writeVerbs = []string{"Put", "Set", "Save", "Write", "Update", "Delete", "Store", "Commit", "Insert", "Upsert", "Apply", "CAS", "Compare", "Publish", "Append", "Remove", "Create", "Replace", "Patch"}

func isWriteName(name string) bool {
	for _, v := range writeVerbs {
		if strings.HasPrefix(name, v) {
			return true
		}
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
func (c *checker) zeroLiteral(e ast.Expr) string {
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
	case *ast.CallExpr:
		if tv, ok := c.pass.TypesInfo.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return c.zeroLiteral(e.Args[0])
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
func (c *checker) checkIf(ifs *ast.IfStmt, rest []ast.Stmt) {
	x, zeroInBody := c.zeroTest(ifs.Cond)
	if x == nil {
		return
	}
	// Only a token can be "zero": `if err != nil` after an acquire is the
	// acquire's own check (measured on real etcd code).
	if t := c.pass.TypesInfo.TypeOf(x); t == nil || types.Identical(t, types.Universe.Lookup("error").Type()) || !c.tokenish(x) {
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
	blind := c.findWrite(zero, func(call *ast.CallExpr, fn *types.Func) bool { return c.isBlindWrite(call, fn, key) })
	if blind == nil {
		return
	}
	fenced := c.findWrite(other, func(call *ast.CallExpr, fn *types.Func) bool {
		if !c.isWriteCall(call, fn) {
			return false // errors.Wrap(err, ...) mentions the value but writes nothing
		}
		if mentions(call, key) {
			return true
		}
		return c.isConditionalWrite(call, fn) && c.tokenish(x)
	})
	if fenced == nil {
		return
	}
	for _, n := range zero {
		c.covered.spans = append(c.covered.spans, [2]token.Pos{n.Pos(), n.End()})
	}
	word, article := c.zeroWord(ifs.Cond, x)
	c.report(ifs.Cond.Pos(), ifs.Cond.End(), "branch", fmt.Sprintf(
		"when %s is %s the write falls back to an unfenced %s: reject %s %s token instead of skipping the fence",
		key, word, types.ExprString(blind.Fun), article, word),
		analysis.RelatedInformation{Pos: blind.Pos(), Message: "unfenced write"},
		analysis.RelatedInformation{Pos: fenced.Pos(), Message: "fenced write"})
}

// zeroWord names the missing token as the test sees it: "nil" for a nil
// pointer or interface, "empty" for "", "unset" for a nullable's Valid,
// "zero" for a number; with its article.
func (c *checker) zeroWord(cond, x ast.Expr) (word, article string) {
	if b, ok := ast.Unparen(cond).(*ast.BinaryExpr); ok {
		for _, side := range []ast.Expr{b.X, b.Y} {
			switch lit := ast.Unparen(side).(type) {
			case *ast.Ident:
				if _, ok := c.pass.TypesInfo.Uses[lit].(*types.Nil); ok {
					return "nil", "a"
				}
			case *ast.BasicLit:
				if lit.Kind == token.STRING {
					return "empty", "an"
				}
			}
		}
		if t := c.pass.TypesInfo.TypeOf(x); t != nil {
			switch types.Unalias(t).Underlying().(type) {
			case *types.Pointer, *types.Interface:
				return "nil", "a"
			}
		}
		return "zero", "a"
	}
	return "unset", "an" // !tok.Valid, tok.Valid
}

// zeroTest matches tok == 0, tok <= 0, tok == "", tok == nil, !tok.Valid
// (zero branch: the body) and their negations (zero branch: the else).
func (c *checker) zeroTest(cond ast.Expr) (x ast.Expr, zeroInBody bool) {
	cond = ast.Unparen(cond)
	switch e := cond.(type) {
	case *ast.BinaryExpr:
		var op token.Token
		switch {
		case c.isZero(e.Y):
			x, op = e.X, e.Op
		case c.isZero(e.X):
			x, op = e.Y, flip(e.Op)
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

func flip(op token.Token) token.Token {
	switch op {
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	}
	return op
}

func (c *checker) isZero(e ast.Expr) bool {
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
func (c *checker) tokenish(x ast.Expr) bool {
	var name string
	switch e := ast.Unparen(x).(type) {
	case *ast.Ident:
		name = e.Name
	case *ast.SelectorExpr:
		name = e.Sel.Name
	}
	if tokenName(name, true) || c.isTokenType(c.pass.TypesInfo.TypeOf(x)) {
		return true
	}
	l := strings.ToLower(name)
	for _, s := range []string{"index", "version", "rev", "seq"} {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
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
func (c *checker) findWrite(nodes []ast.Node, pred func(*ast.CallExpr, *types.Func) bool) *ast.CallExpr {
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
			fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
			if fn != nil && pred(call, fn) {
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

// isBlindWrite: a write that can overwrite a newer holder's data and does
// not involve the token: etcd/consul/Redis blind writes, SQL UPDATE,
// DELETE and upserts, DynamoDB and S3 writes without a condition,
// ZooKeeper writes at version -1, and helpers known to write unfenced.
func (c *checker) isBlindWrite(call *ast.CallExpr, fn *types.Func, key string) bool {
	if mentions(call, key) {
		return false
	}
	w, ok := rules.WriteOf(fn)
	if !ok {
		f := fence.FactOf(c.model, fn)
		// A helper whose unfenced writes only create (mkdirs, INSERTs)
		// cannot overwrite, like a direct Create or INSERT.
		return f != nil && f.Write && f.Unfenced != "" && len(f.FencedBy) == 0 && !f.CreateOnly
	}
	switch w.Kind {
	case rules.KVBlind:
		return fn.Name() != "Create" // ZooKeeper Create fails when the node exists
	case rules.SQLWrite:
		if w.QueryArg < 0 || w.QueryArg >= len(call.Args) {
			return false
		}
		tv := c.pass.TypesInfo.Types[call.Args[w.QueryArg]]
		if tv.Value == nil || tv.Value.Kind() != constant.String {
			return false // dynamic SQL is not guessed at
		}
		return blindSQL(constant.StringVal(tv.Value))
	case rules.DynamoWrite:
		return !c.inputHas(call, w.InputArg, "ConditionExpression", "Expected", "ConditionalOperator")
	case rules.S3Write:
		return !c.inputHas(call, w.InputArg, "IfMatch", "IfNoneMatch")
	case rules.ZKVersioned:
		if w.VersionArg >= 0 && w.VersionArg < len(call.Args) {
			tv := c.pass.TypesInfo.Types[call.Args[w.VersionArg]]
			if tv.Value != nil {
				v, ok := constant.Int64Val(tv.Value)
				return ok && v == -1
			}
		}
	}
	return false
}

// isReadSQL: no statement of q writes.
func (c *checker) isReadSQL(q string) bool {
	stmts, err := c.model.ParseSQL(q)
	if err != nil || len(stmts) == 0 {
		return false
	}
	for _, s := range stmts {
		if s.Verb.IsWrite() {
			return false
		}
	}
	return true
}

// blindSQL: UPDATE, DELETE and upserts overwrite; a plain INSERT fails on
// a duplicate key, which is a condition of its own.
func blindSQL(q string) bool {
	u := strings.ToUpper(strings.TrimSpace(q))
	switch {
	case strings.HasPrefix(u, "UPDATE"), strings.HasPrefix(u, "DELETE"), strings.HasPrefix(u, "REPLACE"), strings.HasPrefix(u, "UPSERT"):
		return true
	case strings.HasPrefix(u, "INSERT"):
		return strings.Contains(u, "DO UPDATE") || strings.Contains(u, "ON DUPLICATE KEY")
	}
	return false
}

// inputHas reports whether the input struct literal at arg sets one of
// the fields; an input not built in place counts as conditional (silence
// on doubt).
func (c *checker) inputHas(call *ast.CallExpr, arg int, fields ...string) bool {
	if arg < 0 || arg >= len(call.Args) {
		return true
	}
	e := ast.Unparen(call.Args[arg])
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	cl, ok := e.(*ast.CompositeLit)
	if !ok {
		return true
	}
	for _, elt := range cl.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return true
		}
		if id, ok := kv.Key.(*ast.Ident); ok {
			for _, f := range fields {
				if id.Name == f {
					return true
				}
			}
		}
	}
	return false
}

// isConditionalWrite: a write the store itself conditions (consul CAS,
// etcd Txn, versioned ZooKeeper writes, Redis scripts, fenced helpers).
func (c *checker) isConditionalWrite(call *ast.CallExpr, fn *types.Func) bool {
	w, ok := rules.WriteOf(fn)
	if !ok {
		return false
	}
	switch w.Kind {
	case rules.Conditional, rules.EtcdTxnCommit, rules.ZKMulti, rules.RedisScript:
		return true
	case rules.ZKVersioned:
		return !c.isBlindWrite(call, fn, "\x00")
	}
	return false
}
