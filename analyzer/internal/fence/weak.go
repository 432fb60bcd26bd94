package fence

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/fencelint/fencelint/analyzer/internal/sqlcond"
	"github.com/fencelint/fencelint/internal/lazyregexp"
	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// Weak tokens: values that reach a token position but are not monotonic
// across grants (random or opaque IDs, wall-clock readings, etcd lease
// IDs, Redis INCR counters). The engine finds them during its run and
// records one DefectWeakToken per source; weaktoken only formats them.

// WeakSource is, for a DefectWeakToken, the weak value at its source.
type WeakSource struct {
	// Desc is the value as written: "time.Now().UnixNano()", "g.ID".
	Desc string
	// Why says, in one clause, why it is not monotonic.
	Why string
	// Weakness is how it fails to be monotonic.
	Weakness rules.Weakness
	// Issuer is the Store of the service that handed the value out
	// ("etcd", "Redis"), empty for values minted by the application.
	Issuer string
}

// incrWhy is the reason of a Redis script's INCR result, the same as
// rules' INCR tokens.
const incrWhy = "INCR is monotonic on one shard but can regress after an asynchronous failover"

// ruleOrigin is the origin of a value a rules/ token produces; weak ones
// are remembered by position so that a write's Compare (which carries only
// the position) can be told its rule.
func (e *engine) ruleOrigin(t *rules.Token, desc string, pos token.Pos) *origin {
	o := &origin{desc: desc, weak: t.Weak != rules.NotWeak, why: t.Why, param: -1, pos: pos, rule: t}
	if o.weak {
		if e.weakAt == nil {
			e.weakAt = map[token.Pos]*origin{}
		}
		e.weakAt[pos] = o
	}
	return o
}

// weakWrite is a write whose condition compares only weak tokens, in a
// lock scope (Write set) or outside any (an application that mints its
// own token and fences with it).
type weakWrite struct {
	write    *Write // nil outside a scope
	instr    ssa.Instruction
	store    string
	call     string
	compares []Compare
	recorded []string
}

// noteWeakWrite remembers an out-of-scope write judged WeakToken; in-scope
// ones are read back from the Model's writes.
func (e *engine) noteWeakWrite(instr ssa.Instruction, ev *eval) {
	if ev.verdict != WeakToken || !ev.isWrite {
		return
	}
	_, pos := callOf(instr)
	if e.weakSeen[pos] {
		return // a summary can be asked for twice
	}
	if e.weakSeen == nil {
		e.weakSeen = map[token.Pos]bool{}
	}
	e.weakSeen[pos] = true
	e.weakOut = append(e.weakOut, weakWrite{instr: instr, store: ev.store, call: e.callName(pos), compares: ev.compares, recorded: ev.recorded})
}

// weakDefects records a DefectWeakToken at the source of every weak value
// in a token position: the token a write's condition compares, the token
// field of a lease-shaped struct, the token an acquire returns. One defect
// per source; the first use found (writes in model order, then stores and
// returns) names it.
func (e *engine) weakDefects() {
	seen := map[token.Pos]bool{}
	add := func(src weakSource, where string, w *Write) {
		if !src.pos.IsValid() || seen[src.pos] {
			return
		}
		seen[src.pos] = true
		e.model.Defects = append(e.model.Defects, &Defect{
			Kind: DefectWeakToken, Pos: src.pos, End: src.end, Write: w,
			Category: weakCategory(src.WeakSource), Detail: where, Weak: &src.WeakSource,
		})
	}
	var ws []weakWrite
	for _, w := range e.model.Writes {
		if w.Verdict == WeakToken {
			ws = append(ws, weakWrite{write: w, instr: e.writeInstr[w], store: w.Store, call: w.Call, compares: w.Compares, recorded: w.Recorded})
		}
	}
	ws = append(ws, e.weakOut...)
	for _, w := range ws {
		where := fmt.Sprintf("the fence of %s write via %s", w.store, w.call)
		if src := e.writeWeak[w.write]; w.write != nil && src != nil {
			// A //fencelint:write call or a helper: the weak value taken
			// for its token, found when the call was judged.
			if src.Issuer == "" || src.Issuer != w.store {
				add(*src, where, w.write)
			}
			continue
		}
		if len(w.compares) > 0 {
			for _, cmp := range w.compares {
				if !cmp.Weak {
					continue
				}
				src := weakSource{pos: cmp.TokenPos, WeakSource: WeakSource{Desc: cmp.Token, Why: cmp.Why}}
				if o := e.weakAt[cmp.TokenPos]; o != nil && o.rule != nil {
					src.Weakness, src.Issuer = o.rule.Weak, o.rule.Issuer
				}
				if src.Issuer != "" && src.Issuer == w.store {
					continue // compared by the service that issued it
				}
				if w.write == nil && (src.Issuer != "" || !contains(w.recorded, cmp.Column)) {
					// Outside a lock scope only a token the application
					// mints and records in the very column it compares is
					// surely meant as a fence.
					continue
				}
				add(src, where, w.write)
			}
			continue
		}
		if w.write == nil {
			continue // outside a scope only a compared column says "fence"
		}
		// Other stores: the weak value among the call's operands.
		cc, _ := callOf(w.instr)
		if cc == nil {
			continue
		}
		vals := append([]ssa.Value{}, cc.Args...)
		if cc.IsInvoke() {
			vals = append(vals, cc.Value)
		}
		for _, v := range vals {
			if src, ok := e.weakOf(v); ok {
				if src.Issuer == "" || src.Issuer != w.store {
					add(src, where, w.write)
				}
				break
			}
		}
	}
	for _, f := range e.funcs {
		e.guard(f, func() { e.weakInFunc(f, add) })
	}
	// A clock reading, random number or UUID stored in a fence column that
	// some write's condition compares, in a lock scope or not: the claim
	// of a lease table that stamps its row with time.Now().UnixNano(), a
	// job row stamped with a UUID its later writes compare.
	for _, r := range e.weakRecords {
		if e.fenceCompared[r.column] {
			add(r.src, fmt.Sprintf("the fence %s, which a write's condition compares", r.column), nil)
		}
	}
}

// weakRecord is an application-minted weak value a SQL write stores in
// column ("table.column").
type weakRecord struct {
	column string
	src    weakSource
}

// noteFenceColumns remembers, for every SQL write read (in a lock scope or
// not, lease-table bookkeeping included), the fence-like columns its
// condition compares by order with a value, and the clock readings, random numbers
// and UUIDs the application mints and stores in a column. weakDefects
// pairs them: a weak value stored where a condition compares is meant as
// a fence and is not one. Columns are matched by table and name; expiry
// and holder columns are not fences.
func (e *engine) noteFenceColumns(stmt *sqlcond.Statement, b *binder) {
	table := stmt.Table
	if table == "" {
		return
	}
	isFence := func(col string) bool {
		return fenceLikeColumn(col) && !rules.IsLeaseExpiryColumn(col) && !rules.IsLeaseHolderColumn(col)
	}
	for _, conds := range [][]sqlcond.Conjunct{stmt.Where, stmt.ConflictWhere, stmt.MatchedWhere} {
		for _, c := range conds {
			for _, cmp := range c.Or {
				if !orderOp(cmp.Op) {
					// Equality with a unique value the holder stamped
					// is an ownership check: a later holder's stamp
					// differs, so the stale write matches no row.
					continue
				}
				for _, side := range [2][2]sqlcond.Operand{{cmp.Left, cmp.Right}, {cmp.Right, cmp.Left}} {
					col, ok := storedColumn(side[0])
					if !ok || !isFence(col) || len(side[1].Params) == 0 && side[1].Table != "excluded" {
						continue
					}
					if e.fenceCompared == nil {
						e.fenceCompared = map[string]bool{}
					}
					e.fenceCompared[table+"."+col] = true
				}
			}
		}
	}
	if !b.ok {
		return
	}
	for _, set := range [][]sqlcond.Assignment{stmt.Set, stmt.ConflictSet} {
		for _, a := range set {
			if !isFence(a.Column) {
				continue
			}
			for _, p := range a.Value.Params {
				v := b.value(p)
				if v == nil {
					continue
				}
				o := e.originOf(v)
				if !o.isToken() || !o.weak || o.rule != nil && (o.rule.Issuer != "" || o.rule.Weak == rules.WeakCounter) {
					continue // a strong token, or an ID a service issued
				}
				e.weakRecords = append(e.weakRecords, weakRecord{column: table + "." + a.Column, src: *e.weakSourceOf(o)})
			}
		}
	}
}

// weakOfWrite returns the weak value a write judged WeakToken is fenced
// with, for the summary of the function it is in: the value taken for a
// directive's or helper's token, else a weak compare of its condition or a
// weak operand of the call; nil when the only weak values are compared by
// the service that issued them (an etcd lease ID in an etcd Txn).
func (e *engine) weakOfWrite(instr ssa.Instruction, ev *eval) *weakSource {
	if ev.weak != nil {
		return ev.weak
	}
	for _, cmp := range ev.compares {
		if !cmp.Weak {
			continue
		}
		src := &weakSource{pos: cmp.TokenPos, WeakSource: WeakSource{Desc: cmp.Token, Why: cmp.Why}}
		if o := e.weakAt[cmp.TokenPos]; o != nil && o.rule != nil {
			src.Weakness, src.Issuer = o.rule.Weak, o.rule.Issuer
		}
		if src.Issuer != "" && src.Issuer == ev.store {
			continue
		}
		return src
	}
	if len(ev.compares) > 0 {
		return nil
	}
	cc, _ := callOf(instr)
	if cc == nil {
		return nil
	}
	vals := append([]ssa.Value{}, cc.Args...)
	if cc.IsInvoke() {
		vals = append(vals, cc.Value)
	}
	for _, v := range vals {
		if src, ok := e.weakOf(v); ok {
			if src.Issuer != "" && src.Issuer == ev.store {
				return nil
			}
			return &src
		}
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// weakCategory is weaktoken's stable sub-rule: "counter" for a counter
// that can regress, "lease-id" for an etcd lease ID, "weak" otherwise.
func weakCategory(s WeakSource) string {
	switch {
	case s.Weakness == rules.WeakCounter:
		return "counter"
	case s.Issuer == "etcd":
		return "lease-id"
	}
	return "weak"
}

// weakSource is a WeakSource with its position.
type weakSource struct {
	pos, end token.Pos
	WeakSource
}

// weakInFunc finds weak values stored into a lease's token field or
// returned as an acquire function's token.
func (e *engine) weakInFunc(f *ssa.Function, add func(weakSource, string, *Write)) {
	fn, _ := f.Object().(*types.Func)
	acquire := false
	if fn != nil {
		if ff := e.local[fn]; ff != nil && ff.Acquire {
			acquire = true
		}
	}
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.Store:
				fa, ok := in.Addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				info, ok := e.leaseOf(fa.X.Type())
				if !ok || info.Token == nil {
					continue
				}
				st, ok := derefStruct(fa.X.Type())
				if !ok || fa.Field >= st.NumFields() || st.Field(fa.Field) != info.Token {
					continue
				}
				if src, ok := e.weakOf(in.Val); ok {
					add(src, fmt.Sprintf("the token of lease %s", info.Named.Obj().Name()), nil)
				}
			case *ssa.Return:
				if !acquire {
					continue
				}
				for _, r := range in.Results {
					if !rules.IsIntegerLike(r.Type()) {
						continue
					}
					if src, ok := e.weakOf(r); ok {
						add(src, fmt.Sprintf("the token returned by acquire %s", fn.Name()), nil)
					}
				}
			}
		}
	}
}

// weakOf says whether v derives from a weak source: a weak rules/ token,
// or the result of a Redis script that returns an INCR.
func (e *engine) weakOf(v ssa.Value) (weakSource, bool) {
	if o := e.originOf(v); o.isToken() {
		if !o.weak {
			return weakSource{}, false
		}
		src := weakSource{pos: o.pos, WeakSource: WeakSource{Desc: o.desc, Why: o.why}}
		if o.rule != nil {
			src.Weakness, src.Issuer = o.rule.Weak, o.rule.Issuer
		}
		return src, true
	}
	if call := e.incrScript(v, 0); call != nil {
		src := weakSource{pos: call.Pos(), WeakSource: WeakSource{
			Desc: "the Redis script's INCR result", Why: incrWhy, Weakness: rules.WeakCounter, Issuer: "Redis",
		}}
		if ce := e.calls.get(call.Common().Pos()); ce != nil {
			src.pos = ce.Pos()
			src.Desc = types.ExprString(ce.Fun) + "'s INCR result"
		}
		return src, true
	}
	return weakSource{}, false
}

var incrReturnRe = lazyregexp.New(`(?is)return\s+redis\.p?call\(\s*['"]incr(by)?['"]`)

// incrScript follows v back (conversions, extracts, go-redis result
// accessors) to an Eval/EvalSha/Script.Run whose script returns an INCR.
func (e *engine) incrScript(v ssa.Value, depth int) *ssa.Call {
	if v == nil || depth > 8 {
		return nil
	}
	switch x := v.(type) {
	case *ssa.Convert:
		return e.incrScript(x.X, depth+1)
	case *ssa.ChangeType:
		return e.incrScript(x.X, depth+1)
	case *ssa.MakeInterface:
		return e.incrScript(x.X, depth+1)
	case *ssa.TypeAssert:
		return e.incrScript(x.X, depth+1)
	case *ssa.Extract:
		return e.incrScript(x.Tuple, depth+1)
	case *ssa.Phi:
		for _, ed := range x.Edges {
			if r := e.incrScript(ed, depth+1); r != nil {
				return r
			}
		}
	case *ssa.UnOp:
		if x.Op == token.MUL {
			if a, ok := x.X.(*ssa.Alloc); ok {
				for _, r := range *a.Referrers() {
					if s, ok := r.(*ssa.Store); ok && s.Addr == a {
						if r := e.incrScript(s.Val, depth+1); r != nil {
							return r
						}
					}
				}
			}
		}
	case *ssa.Call:
		cc := x.Common()
		fn := calleeFunc(cc)
		if fn == nil || fn.Pkg() == nil || !rules.IsGoRedisPath(fn.Pkg().Path()) {
			return nil
		}
		switch fn.Name() {
		case "Int64", "Int", "Uint64", "Result", "Val", "Text":
			if len(cc.Args) > 0 && !cc.IsInvoke() {
				return e.incrScript(cc.Args[0], depth+1)
			}
		case "Eval", "EvalSha", "Run", "EvalRO", "EvalShaRO":
			if script, ok := scriptSource(x); ok && incrReturnRe.MatchString(script) {
				return x
			}
		}
	}
	return nil
}

// scriptSource returns the constant Lua source of an Eval call or of the
// NewScript behind (*Script).Run.
func scriptSource(call *ssa.Call) (string, bool) {
	cc := call.Common()
	fn := calleeFunc(cc)
	args := cc.Args
	if cc.IsInvoke() {
		args = append([]ssa.Value{cc.Value}, args...)
	}
	if fn.Name() == "Run" {
		if len(args) == 0 {
			return "", false
		}
		return newScriptSource(args[0])
	}
	// (c cmdable).Eval(ctx, script, ...): receiver, ctx, script
	for _, a := range args {
		if k, ok := a.(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.String {
			return constant.StringVal(k.Value), true
		}
	}
	return "", false
}

func newScriptSource(v ssa.Value) (string, bool) {
	switch x := v.(type) {
	case *ssa.Call:
		if fn := calleeFunc(x.Common()); fn != nil && fn.Name() == "NewScript" && len(x.Common().Args) == 1 {
			if k, ok := x.Common().Args[0].(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.String {
				return constant.StringVal(k.Value), true
			}
		}
	case *ssa.UnOp:
		g, ok := x.X.(*ssa.Global)
		if !ok || g.Pkg == nil {
			return "", false
		}
		init := g.Pkg.Func("init")
		if init == nil {
			return "", false
		}
		for _, b := range init.Blocks {
			for _, instr := range b.Instrs {
				if s, ok := instr.(*ssa.Store); ok && s.Addr == g {
					return newScriptSource(s.Val)
				}
			}
		}
	}
	return "", false
}
