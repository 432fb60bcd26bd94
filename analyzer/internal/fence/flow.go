package fence

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// origin says where a token-derived value comes from.
type origin struct {
	desc string // "lease.Token", "m.Header().Revision", "parameter tok"
	weak bool   // not monotonic across grants
	why  string // why it is weak
	// param >= 0: the value derives from that parameter of a function
	// that is not itself a scope; only summaries use such origins.
	param int
	pos   token.Pos // where the token value is produced
	// rule is the rules/ token a weak origin comes from: its Weakness and
	// Issuer, which weaktoken's defects carry (nil when not from rules).
	rule *rules.Token
}

func (o *origin) isToken() bool { return o != nil && o.param < 0 }

// originOf follows v backwards through SSA def-use and returns where its
// token content comes from, or nil when it carries no token.
func (e *engine) originOf(v ssa.Value) *origin {
	return e.trace(v, 0, map[ssa.Value]bool{})
}

func (e *engine) trace(v ssa.Value, depth int, seen map[ssa.Value]bool) (o *origin) {
	if v == nil || depth > maxDepth || seen[v] {
		return nil
	}
	if o, ok := e.memo[v]; ok {
		return o
	}
	seen[v] = true
	defer func() {
		if depth == 0 {
			e.memo[v] = o
		}
	}()
	next := func(w ssa.Value) *origin { return e.trace(w, depth+1, seen) }
	first := func(ws ...ssa.Value) *origin {
		var b bestOrigin
		for _, w := range ws {
			if b.add(next(w)) {
				break
			}
		}
		return b.get()
	}

	switch v := v.(type) {
	case *ssa.Const, *ssa.Global, *ssa.Function, *ssa.Builtin:
		return nil
	case *ssa.Parameter:
		return e.paramOrigin(v)
	case *ssa.FreeVar:
		return first(e.bindings(v)...)
	case *ssa.Call:
		return e.callOrigin(v, depth, seen)
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok {
			if f := e.calleeFact(e.callee(call.Common())); f != nil && f.Acquire && f.TokenResult == v.Index {
				return &origin{desc: e.exprAt(call.Pos()), param: -1, pos: e.exprPos(call.Pos())}
			}
			if ro := e.returnedToken(call.Common()); ro != nil {
				if v.Index != 0 {
					return nil // tok, err := helper(l): err is no token
				}
				return e.carried(ro, e.exprAt(call.Pos()), e.exprPos(call.Pos()))
			}
		}
		return next(v.Tuple)
	case *ssa.Field:
		if o := e.fieldOrigin(v.X.Type(), v.Field, v.Pos()); o != nil {
			return o
		}
		if load, ok := v.X.(*ssa.UnOp); ok && load.Op == token.MUL {
			return first(e.storedInto(load.X, v.Field)...)
		}
		return e.paramCarrier(v.X)
	case *ssa.FieldAddr:
		if o := e.fieldOrigin(v.X.Type(), v.Field, v.Pos()); o != nil {
			return o
		}
		if o := first(storesTo(v)...); o != nil {
			return o
		}
		return e.paramCarrier(v.X)
	case *ssa.UnOp:
		switch v.Op {
		case token.MUL:
			switch x := v.X.(type) {
			case *ssa.FieldAddr:
				if o := e.fieldOrigin(x.X.Type(), x.Field, x.Pos()); o != nil {
					return o
				}
				if o := first(e.storedInto(x.X, x.Field)...); o != nil {
					return o
				}
				return e.paramCarrier(x.X)
			case *ssa.Alloc, *ssa.IndexAddr:
				return next(x)
			case *ssa.FreeVar, *ssa.Parameter:
				return next(x)
			case *ssa.UnOp:
				// *lease.Spec.LeaseTransitions: a pointer read from a
				// token field points at the token.
				return next(x)
			}
			return nil
		case token.SUB, token.XOR:
			return next(v.X)
		}
		return nil
	case *ssa.Alloc:
		if o := e.claimTokenOrigin(v); o != nil {
			return o // Scan(&tok) of a lease-table claim's RETURNING token
		}
		return first(allStores(v)...)
	case *ssa.IndexAddr:
		return first(append(storesTo(v), v.X)...)
	case *ssa.Index:
		return next(v.X)
	case *ssa.MakeMap:
		var vals []ssa.Value
		for _, r := range *v.Referrers() {
			if u, ok := r.(*ssa.MapUpdate); ok && u.Map == v {
				vals = append(vals, u.Value)
			}
		}
		return first(vals...)
	case *ssa.Lookup:
		if key, ok := constString(v.Index); ok {
			if val := mapValue(v.X, key); val != nil {
				return next(val)
			}
		}
		return next(v.X)
	case *ssa.MakeInterface:
		return next(v.X)
	case *ssa.ChangeType:
		return next(v.X)
	case *ssa.Convert:
		return next(v.X)
	case *ssa.ChangeInterface:
		return next(v.X)
	case *ssa.TypeAssert:
		return next(v.X)
	case *ssa.SliceToArrayPointer:
		return next(v.X)
	case *ssa.Slice:
		return next(v.X)
	case *ssa.BinOp:
		switch v.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			return nil // a comparison's bool is not the token
		}
		return first(v.X, v.Y)
	case *ssa.Phi:
		// A value that is a clock or a random number on one path (if tok
		// == 0 { tok = time.Now().UnixNano() }) fences with it there:
		// the weak edge decides, where an operand of arithmetic does not.
		var b bestOrigin
		for _, w := range v.Edges {
			b.add(next(w))
		}
		if b.weak != nil {
			return b.weak
		}
		return b.get()
	}
	return nil
}

// paramCarrier: a field read from a parameter of a helper (req.Fence) is
// fenced by whatever the caller put in that parameter: a parameter origin,
// which summaries export as FencedBy. Token origins are never invented here.
func (e *engine) paramCarrier(base ssa.Value) *origin {
	if load, ok := base.(*ssa.UnOp); ok && load.Op == token.MUL {
		base = load.X
	}
	if a, ok := base.(*ssa.Alloc); ok {
		// A struct parameter the SSA builder spilled to a local (its
		// fields are read through FieldAddr): sqlc's arg.Fence.
		if vs := storesTo(a); len(vs) == 1 {
			base = vs[0]
		}
	}
	p, ok := base.(*ssa.Parameter)
	if !ok {
		return nil
	}
	if _, tok := e.tokenParams[p]; tok {
		return nil // a token parameter's fields are not the token
	}
	if o := e.paramOrigin(p); o != nil && o.param >= 0 {
		return o
	}
	return nil
}

// isLeaseTokenMethod: lease.Token(), lease.FencingToken() on a
// lease-shaped type, returning an integer.
func (e *engine) isLeaseTokenMethod(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || sig.Results().Len() == 0 || !rules.IsTokenFieldName(fn.Name()) {
		return false
	}
	if _, ok := e.leaseOf(sig.Recv().Type()); !ok {
		return false
	}
	return rules.IsIntegerLike(sig.Results().At(0).Type())
}

// paramOrigin: token parameters are tokens; other parameters are param
// origins, which summaries turn into "fenced by parameter i" facts.
func (e *engine) paramOrigin(p *ssa.Parameter) *origin {
	if desc, ok := e.tokenParams[p]; ok {
		return &origin{desc: desc, param: -1, pos: p.Pos()}
	}
	f := p.Parent()
	if f == nil {
		return nil
	}
	for i, q := range f.Params {
		if q == p {
			if f.Signature.Recv() != nil {
				i-- // facts index declared parameters, receiver excluded
			}
			if i < 0 {
				return nil
			}
			return &origin{desc: "parameter " + p.Name(), param: i, pos: p.Pos()}
		}
	}
	return nil
}

func (e *engine) callOrigin(call *ssa.Call, depth int, seen map[ssa.Value]bool) *origin {
	cc := call.Common()
	fn := calleeFunc(cc)
	if fn != nil {
		if t, ok := rules.TokenOfFunc(fn); ok {
			return e.ruleOrigin(t, e.exprAt(call.Pos()), e.exprPos(call.Pos()))
		}
		if f := e.calleeFact(fn); f != nil && f.Token {
			return &origin{desc: e.exprAt(call.Pos()), param: -1, pos: e.exprPos(call.Pos())}
		}
		if e.isLeaseTokenMethod(fn) {
			return &origin{desc: e.exprAt(call.Pos()), param: -1, pos: e.exprPos(call.Pos())}
		}
		if _, isWrite := e.writeOf(fn); isWrite {
			return nil // a write's result is not the token
		}
		if o := e.returnedToken(cc); o != nil && cc.Signature().Results().Len() == 1 {
			// tokAV(l): a helper of this package that builds its result
			// from the lease it is given (its l.Token), or returns a token
			// of its own.
			return e.carried(o, e.exprAt(call.Pos()), e.exprPos(call.Pos()))
		}
	}
	// Values computed from a token carry it: strconv, fmt, conversions,
	// builders, key formatting, methods on a token-bearing receiver.
	var b bestOrigin
	args := cc.Args
	if cc.IsInvoke() {
		args = append([]ssa.Value{cc.Value}, args...)
	}
	for _, a := range args {
		if b.add(e.trace(a, depth+1, seen)) {
			break
		}
	}
	return b.get()
}

// bestOrigin keeps, of the origins of a value's operands, the one that
// says most: a monotonic token, else a weak one (a clock or random value
// mixed with the token does not hide the token: uuid + "@" + rev), else a
// parameter.
type bestOrigin struct{ strong, weak, param *origin }

// add records o and reports whether it is a monotonic token (no operand
// can say more).
func (b *bestOrigin) add(o *origin) bool {
	switch {
	case o == nil:
	case o.param >= 0:
		if b.param == nil {
			b.param = o
		}
	case o.weak:
		if b.weak == nil {
			b.weak = o
		}
	default:
		b.strong = o
		return true
	}
	return false
}

func (b *bestOrigin) get() *origin {
	switch {
	case b.strong != nil:
		return b.strong
	case b.weak != nil:
		return b.weak
	}
	return b.param
}

// fieldOrigin reports reads of token fields: rules' fields, lease-shaped
// types' token field, //fencelint:token fields.
func (e *engine) fieldOrigin(ptrOrStruct types.Type, index int, pos token.Pos) *origin {
	st, ok := derefStruct(ptrOrStruct)
	if !ok || index >= st.NumFields() {
		return nil
	}
	f := st.Field(index)
	desc := e.selectorAt(pos, f.Name())
	if t, ok := rules.TokenOfField(ptrOrStruct, f); ok {
		return e.ruleOrigin(t, desc, e.selectorPos(pos))
	}
	if info, ok := e.leaseOf(ptrOrStruct); ok && info.Token == f {
		return &origin{desc: desc, param: -1, pos: e.selectorPos(pos)}
	}
	if e.isTokenField(f) {
		return &origin{desc: desc, param: -1, pos: e.selectorPos(pos)}
	}
	if o := e.recvTokens[f]; o != nil {
		// c.rev = m.Header().Revision, or w.fence = time.Now().UnixNano():
		// the field is as strong as what was stored in it.
		return e.carried(o, desc, e.selectorPos(pos))
	}
	return nil
}

// bindings returns the values bound to a free variable by the closures
// that create its function.
func (e *engine) bindings(fv *ssa.FreeVar) []ssa.Value {
	f := fv.Parent()
	idx := -1
	for i, x := range f.FreeVars {
		if x == fv {
			idx = i
		}
	}
	var out []ssa.Value
	for _, mc := range e.closures[f] {
		if idx >= 0 && idx < len(mc.Bindings) {
			out = append(out, mc.Bindings[idx])
		}
	}
	return out
}

// storedInto returns values stored into field index of the struct that
// addr points to (stores through any FieldAddr of the same base).
func (e *engine) storedInto(addr ssa.Value, index int) []ssa.Value {
	var out []ssa.Value
	refs := addr.Referrers()
	if refs == nil {
		return nil
	}
	for _, r := range *refs {
		if fa, ok := r.(*ssa.FieldAddr); ok && fa.X == addr && fa.Field == index {
			out = append(out, storesTo(fa)...)
		}
	}
	return out
}

// storesTo returns the values stored at addr.
func storesTo(addr ssa.Value) []ssa.Value {
	refs := addr.Referrers()
	if refs == nil {
		return nil
	}
	var out []ssa.Value
	for _, r := range *refs {
		if s, ok := r.(*ssa.Store); ok && s.Addr == addr {
			out = append(out, s.Val)
		}
	}
	return out
}

// allStores returns every value stored into an allocation: directly, into
// its fields and into its elements (composite literals, argument arrays).
func allStores(alloc ssa.Value) []ssa.Value {
	out := storesTo(alloc)
	refs := alloc.Referrers()
	if refs == nil {
		return out
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			if r.X == alloc {
				out = append(out, storesTo(r)...)
			}
		case *ssa.IndexAddr:
			if r.X == alloc {
				out = append(out, storesTo(r)...)
			}
		}
	}
	return out
}

// fieldStores returns, for a pointer to a struct literal (&T{...}) or a
// struct value loaded from one, the last value stored in each named field.
func fieldStores(v ssa.Value) (map[string]ssa.Value, bool) {
	v = stripValue(v)
	base := v
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		base = load.X
	}
	switch base.(type) {
	case *ssa.Alloc, *ssa.IndexAddr:
	default:
		return nil, false
	}
	st, ok := derefStruct(base.Type())
	if !ok || base.Referrers() == nil {
		return nil, false
	}
	out := map[string]ssa.Value{}
	for _, r := range *base.Referrers() {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.X != base {
			continue
		}
		for _, s := range storesTo(fa) {
			out[st.Field(fa.Field).Name()] = s
		}
	}
	return out, true
}

// stripValue looks through conversions that do not change a value.
func stripValue(v ssa.Value) ssa.Value {
	for i := 0; i < 8; i++ {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.Convert:
			v = x.X
		default:
			return v
		}
	}
	return v
}

// constString returns v's value when it is a constant string, looking
// through aws.String and similar pointer helpers.
func constString(v ssa.Value) (string, bool) {
	v = stripValue(v)
	switch x := v.(type) {
	case *ssa.Const:
		if x.Value != nil && x.Value.Kind() == constant.String {
			return constant.StringVal(x.Value), true
		}
	case *ssa.Call:
		// aws.String("...") and friends: one constant argument.
		if fn := calleeFunc(x.Common()); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == rules.AWSValueHelpersPkg && len(x.Common().Args) == 1 {
			return constString(x.Common().Args[0])
		}
	case *ssa.Alloc:
		// &s for a local string s: its single store.
		if ss := storesTo(x); len(ss) == 1 {
			return constString(ss[0])
		}
	}
	return "", false
}

// constInt returns v's value when it is an integer constant.
func constInt(v ssa.Value) (int64, bool) {
	v = stripValue(v)
	if c, ok := v.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Int {
		i, ok := constant.Int64Val(c.Value)
		return i, ok
	}
	return 0, false
}

// mapValue returns the value stored under constant key in a map literal.
func mapValue(m ssa.Value, key string) ssa.Value {
	m = stripValue(m)
	if load, ok := m.(*ssa.UnOp); ok && load.Op == token.MUL {
		if ss := storesTo(load.X); len(ss) == 1 {
			m = stripValue(ss[0])
		}
	}
	mm, ok := m.(*ssa.MakeMap)
	if !ok {
		return nil
	}
	var val ssa.Value
	for _, r := range *mm.Referrers() {
		if u, ok := r.(*ssa.MapUpdate); ok && u.Map == mm {
			if k, ok := constString(u.Key); ok && k == key {
				val = u.Value
			}
		}
	}
	return val
}

// mapEntries returns all constant-keyed entries of a map literal.
func mapEntries(m ssa.Value) (map[string]ssa.Value, bool) {
	m = stripValue(m)
	if load, ok := m.(*ssa.UnOp); ok && load.Op == token.MUL {
		if ss := storesTo(load.X); len(ss) == 1 {
			m = stripValue(ss[0])
		}
	}
	mm, ok := m.(*ssa.MakeMap)
	if !ok {
		return nil, false
	}
	out := map[string]ssa.Value{}
	for _, r := range *mm.Referrers() {
		if u, ok := r.(*ssa.MapUpdate); ok && u.Map == mm {
			if k, ok := constString(u.Key); ok {
				out[k] = u.Value
			}
		}
	}
	return out, true
}

// unpackVariadic returns the elements of a variadic argument slice built
// at the call ([]any{a, b} in SSA: an array Alloc, stores, a Slice).
// ok is false when the slice came from elsewhere (args... of a parameter).
func unpackVariadic(v ssa.Value) ([]ssa.Value, bool) {
	if c, ok := v.(*ssa.Const); ok && c.IsNil() {
		return nil, true
	}
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return nil, false
	}
	alloc, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	arr, ok := alloc.Type().(*types.Pointer).Elem().Underlying().(*types.Array)
	if !ok {
		return nil, false
	}
	out := make([]ssa.Value, arr.Len())
	for _, r := range *alloc.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		i, ok := constInt(ia.Index)
		if !ok || i < 0 || int(i) >= len(out) {
			continue
		}
		for _, s := range storesTo(ia) {
			out[i] = stripValue(s)
		}
	}
	return out, true
}

// calleeFunc returns the function a call resolves to statically, or the
// interface method for dynamic calls.
func calleeFunc(cc *ssa.CallCommon) *types.Func {
	if cc.IsInvoke() {
		return cc.Method
	}
	switch f := cc.Value.(type) {
	case *ssa.Function:
		if obj, ok := f.Object().(*types.Func); ok {
			// A method of an instantiated type ((*Repo[int]).Touch) is
			// its generic declaration's: facts and summaries are the
			// declaration's.
			return obj.Origin()
		}
		if f.Origin() != nil {
			if obj, ok := f.Origin().Object().(*types.Func); ok {
				return obj
			}
		}
	case *ssa.MakeClosure:
		if fn, ok := f.Fn.(*ssa.Function); ok {
			if obj, ok := fn.Object().(*types.Func); ok {
				return obj
			}
		}
	}
	return nil
}

// params returns the call's declared arguments without the receiver.
func params(cc *ssa.CallCommon) []ssa.Value {
	if cc.IsInvoke() {
		return cc.Args
	}
	if fn, ok := cc.Value.(*ssa.Function); ok && fn.Signature.Recv() != nil && len(cc.Args) > 0 {
		return cc.Args[1:]
	}
	return cc.Args
}

// branchIf returns the If that ends b when b branches two ways, else nil.
func branchIf(b *ssa.BasicBlock) *ssa.If {
	if len(b.Instrs) == 0 || len(b.Succs) != 2 {
		return nil
	}
	ifi, _ := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	return ifi
}

// receiver returns the call's receiver, or nil for a plain function.
func receiver(cc *ssa.CallCommon) ssa.Value {
	if cc.IsInvoke() {
		return cc.Value
	}
	if fn, ok := cc.Value.(*ssa.Function); ok && fn.Signature.Recv() != nil && len(cc.Args) > 0 {
		return cc.Args[0]
	}
	return nil
}

// exprAt renders the call expression whose '(' is at pos.
func (e *engine) exprAt(pos token.Pos) string {
	if c, ok := e.calls.at(pos); ok {
		return types.ExprString(c)
	}
	return "the token"
}

// selectorAt renders the selector whose Sel is at pos (lease.Token).
func (e *engine) selectorAt(pos token.Pos, field string) string {
	if s, ok := e.sels.at(pos); ok {
		return types.ExprString(s)
	}
	return field
}

// exprPos returns the start of the call expression whose '(' is at pos.
func (e *engine) exprPos(pos token.Pos) token.Pos {
	if c, ok := e.calls.at(pos); ok {
		return c.Pos()
	}
	return pos
}

// selectorPos returns the start of the selector whose Sel is at pos.
func (e *engine) selectorPos(pos token.Pos) token.Pos {
	if s, ok := e.sels.at(pos); ok {
		return s.Pos()
	}
	return pos
}

// callName renders the function part of a call: "tx.ExecContext".
func (e *engine) callName(pos token.Pos) string {
	if c, ok := e.calls.at(pos); ok {
		return types.ExprString(c.Fun)
	}
	return "the call"
}

func (e *engine) callExpr(pos token.Pos) *ast.CallExpr { return e.calls.get(pos) }

// Receiver is the engine's SSA helper for silentreject, which still
// follows a write's result itself.

// Receiver returns a call's receiver, or nil for a plain function.
func Receiver(cc *ssa.CallCommon) ssa.Value { return receiver(cc) }

// returnedToken: cc calls a function of this package whose first result
// is, on every return, a token (not a parameter's value: those are carried
// by the arguments already). The answer is remembered per function; a
// recursive call sees none.
func (e *engine) returnedToken(cc *ssa.CallCommon) *origin {
	f := cc.StaticCallee()
	if f == nil || f.Pkg != e.pkg || f.Blocks == nil || f.Signature.Results().Len() == 0 {
		return nil
	}
	if t := f.Signature.Results().At(0).Type(); isError(t) || types.Identical(t.Underlying(), types.Typ[types.Bool]) {
		return nil // an error or a flag made from a token is not the token
	}
	if o, ok := e.retTokens[f]; ok {
		return o
	}
	if e.retTokens == nil {
		e.retTokens = map[*ssa.Function]*origin{}
	}
	e.retTokens[f] = nil // in progress
	got := e.tokenReturns(f, func(ret *ssa.Return) bool {
		// return nil, err; return 0, err: the error path carries no result
		return (isNilConst(ret.Results[0]) || isZeroConst(ret.Results[0])) && len(ret.Results) > 1
	})
	e.retTokens[f] = got
	return got
}

// carried is the origin of a value that carries token o under another
// name (a field it was stored in, a helper's result): desc at pos, as
// strong as o, a weak rule token remembered by position like any other.
func (e *engine) carried(o *origin, desc string, pos token.Pos) *origin {
	if o.weak && o.rule != nil {
		return e.ruleOrigin(o.rule, desc, pos)
	}
	return &origin{desc: desc, param: -1, pos: pos, weak: o.weak, why: o.why, rule: o.rule}
}

// tokenReturns returns the weakest token f's returns give as their first
// result, skipping those skip says carry no result, and nil when one of
// the others is no token, or none is left.
func (e *engine) tokenReturns(f *ssa.Function, skip func(*ssa.Return) bool) *origin {
	var got *origin
	for _, b := range f.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 || skip(ret) {
			continue
		}
		o := e.originOf(ret.Results[0])
		if !o.isToken() {
			return nil
		}
		if got == nil || (o.weak && !got.weak) {
			got = o
		}
	}
	return got
}
