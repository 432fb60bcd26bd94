package fence

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// Guard is a Go-side check that a write only runs under. Only two kinds
// of check are guards: a comparison of the token with a read of the stored
// fence (read-then-compare, GuardToken), and the client's own view of its
// lease (validity, expiry, an ownership flag, a session's liveness). An
// error check, a zero-token test or any other branch is not: the write
// under it keeps its own verdict.
type Guard struct {
	// Pos and End span the checked expression: a call, a selector, a
	// comparison, a receive.
	Pos, End token.Pos
	// Text renders it: "lease.Valid()", "stored >= lease.Token".
	Text string
	Kind GuardKind
	// Read is, for a GuardToken, the call that read the stored value the
	// token is compared with (QueryRow(...).Scan, GetItem, HeadObject).
	Read token.Pos
}

// GuardKind says what a Guard checks; it is appcheck's category.
type GuardKind string

const (
	GuardToken   GuardKind = "token"   // the token compared in Go with a read of the stored fence
	GuardLease   GuardKind = "lease"   // the client's view of its lease: Valid(), TTL, Until
	GuardClock   GuardKind = "clock"   // time.Now().Before(expiry)
	GuardFlag    GuardKind = "flag"    // an in-memory ownership flag
	GuardSession GuardKind = "session" // an etcd session's liveness
)

// guardOf returns the Go-side check that the write at instr only runs
// under, or nil. Such writes are appcheck's finding, not unfencedwrite's:
// one diagnosis per root cause.
func (e *engine) guardOf(f *ssa.Function, instr ssa.Instruction, s *Scope) *Guard {
	b := instr.Block()
	if b == nil {
		return nil
	}
	for d := b.Idom(); d != nil; d = d.Idom() {
		ifi := branchIf(d)
		if ifi == nil {
			continue
		}
		t, f2 := d.Succs[0].Dominates(b), d.Succs[1].Dominates(b)
		if t == f2 {
			continue
		}
		if g := e.isClientCheck(ifi.Cond, 0); g != nil {
			if g.Pos == token.NoPos {
				g.Pos = ifi.Cond.Pos()
			}
			pos := g.Pos
			g.Pos, g.End = e.condSpan(pos)
			g.Text = e.condText(pos)
			return g
		}
	}
	return e.partialTokenGuard(f, b)
}

// partialTokenGuard finds a read-then-compare that guards the write in
// block b on some paths only: the check runs where the read succeeded
// (head, err := HeadObject(...); if err == nil { if stored > tok { return
// ErrStale } }; PutObject(...)). Its rejecting branch cannot reach the
// write and its passing branch can, so the write was meant to be fenced
// by the Go check: appcheck's finding, as for a check that dominates it.
// Only token checks count: a lease or flag check on one path is no
// statement about the write. The function's checks are found once
// (tokenChecks): most functions have none, and a giant one must not pay a
// walk of its blocks per write.
func (e *engine) partialTokenGuard(f *ssa.Function, b *ssa.BasicBlock) *Guard {
	for _, c := range e.tokenChecks(f) {
		t, f2 := reaches(c.block.Succs[0], b), reaches(c.block.Succs[1], b)
		if t == f2 {
			continue
		}
		g := &Guard{Kind: GuardToken, Read: c.read}
		g.Pos, g.End = e.condSpan(c.cond.Pos())
		g.Text = e.condText(c.cond.Pos())
		return g
	}
	return nil
}

// tokenCheck is a block of f that ends in a read-then-compare.
type tokenCheck struct {
	block *ssa.BasicBlock
	cond  *ssa.BinOp
	read  token.Pos
}

// tokenChecks returns f's read-then-compare branches, computed once.
func (e *engine) tokenChecks(f *ssa.Function) []tokenCheck {
	if cs, ok := e.tokenCheckMemo[f]; ok {
		return cs
	}
	var cs []tokenCheck
	for _, d := range f.Blocks {
		ifi := branchIf(d)
		if ifi == nil {
			continue
		}
		c, ok := ifi.Cond.(*ssa.BinOp)
		if !ok || !isCompare(c.Op) {
			continue
		}
		if read, ok := e.readThenCompare(c); ok {
			cs = append(cs, tokenCheck{block: d, cond: c, read: read})
		}
	}
	if e.tokenCheckMemo == nil {
		e.tokenCheckMemo = map[*ssa.Function][]tokenCheck{}
	}
	e.tokenCheckMemo[f] = cs
	return cs
}

// reaches reports whether block to can be reached from block from.
func reaches(from, to *ssa.BasicBlock) bool {
	seen := make([]bool, len(from.Parent().Blocks))
	stack := []*ssa.BasicBlock{from}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == to {
			return true
		}
		if seen[x.Index] {
			continue
		}
		seen[x.Index] = true
		stack = append(stack, x.Succs...)
	}
	return false
}

// condSpan and condText render the checked expression at pos: a call
// (by its '('), a selector (by its Sel) or a binary expression (by its
// operator).
func (e *engine) condSpan(pos token.Pos) (token.Pos, token.Pos) {
	if n := e.nodeAt(pos); n != nil {
		return n.Pos(), n.End()
	}
	return pos, token.NoPos
}

func (e *engine) condText(pos token.Pos) string {
	if n := e.nodeAt(pos); n != nil {
		return types.ExprString(n)
	}
	if u := e.receiveAt(pos); u != nil {
		return types.ExprString(u)
	}
	return "a check in Go"
}

// receiveAt finds the receive expression (<-ch) whose arrow is at pos:
// select cases are not in the position indexes.
func (e *engine) receiveAt(pos token.Pos) *ast.UnaryExpr {
	var found *ast.UnaryExpr
	for _, f := range e.pass.Files {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil || found != nil || n.Pos() > pos || n.End() <= pos {
				return false
			}
			if u, ok := n.(*ast.UnaryExpr); ok && u.OpPos == pos && u.Op == token.ARROW {
				found = u
			}
			return true
		})
	}
	return found
}

func (e *engine) nodeAt(pos token.Pos) ast.Expr {
	if c, ok := e.calls.at(pos); ok {
		return c
	}
	if s, ok := e.sels.at(pos); ok {
		return s
	}
	if b, ok := e.binops.at(pos); ok {
		return b
	}
	return nil
}

func (e *engine) isClientCheck(cond ssa.Value, depth int) *Guard {
	if depth > 6 || cond == nil {
		return nil
	}
	switch c := cond.(type) {
	case *ssa.UnOp:
		if c.Op == token.NOT {
			return e.isClientCheck(c.X, depth+1)
		}
		if c.Op == token.MUL {
			if fa, ok := c.X.(*ssa.FieldAddr); ok {
				if st, ok := derefStruct(fa.X.Type()); ok && rules.IsOwnershipFlagName(st.Field(fa.Field).Name()) && isBool(st.Field(fa.Field).Type()) {
					return &Guard{Pos: fa.Pos(), Kind: GuardFlag}
				}
			}
		}
	case *ssa.Field:
		if st, ok := derefStruct(c.X.Type()); ok && rules.IsOwnershipFlagName(st.Field(c.Field).Name()) && isBool(st.Field(c.Field).Type()) {
			return &Guard{Pos: c.Pos(), Kind: GuardFlag}
		}
	case *ssa.BinOp:
		if !isCompare(c.Op) {
			return nil
		}
		if pos, ok := e.livenessSelect(c); ok {
			return &Guard{Pos: pos, Kind: GuardSession}
		}
		if read, ok := e.readThenCompare(c); ok {
			return &Guard{Pos: c.Pos(), Kind: GuardToken, Read: read}
		}
		for _, side := range []ssa.Value{c.X, c.Y} {
			if pos, kind, ok := e.isCheckCall(side); ok {
				return &Guard{Pos: pos, Kind: kind}
			}
		}
	case *ssa.Call, *ssa.Extract:
		if pos, kind, ok := e.isCheckCall(c); ok {
			return &Guard{Pos: pos, Kind: kind}
		}
	}
	return nil
}

// readThenCompare: c compares a token-derived value with a value read
// from storage (the stored fence) and returns where it was read. A
// comparison with a constant (a zero-token test), with a parameter or
// another lease's token, or of an error that happens to derive from a token-carrying call (the
// error of a fenced write helper) is no read-then-compare.
func (e *engine) readThenCompare(c *ssa.BinOp) (token.Pos, bool) {
	for _, pair := range [][2]ssa.Value{{c.X, c.Y}, {c.Y, c.X}} {
		tok, stored := pair[0], pair[1]
		if !isTokenValueType(tok.Type()) || !e.originOf(tok).isToken() {
			continue
		}
		// The stored side may itself be a token by rules (an etcd Get's
		// ModRevision): what makes it the stored fence is that it was read.
		if pos := e.readCall(stored, 0); pos != token.NoPos {
			return pos, true
		}
	}
	return token.NoPos, false
}

// isTokenValueType: a token compared in Go is an integer or a string,
// never an error, a bool or a pointer.
func isTokenValueType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsString) != 0
}

// livenessSelect: the branch of a select taken when a session's or
// lease's Done channel is closed,
//
//	select {
//	case <-session.Done():
//		return errLost
//	default:
//	}
//
// which SSA compiles to a comparison of the select's chosen index with
// that case's. It returns the position of the Done call.
func (e *engine) livenessSelect(c *ssa.BinOp) (token.Pos, bool) {
	if c.Op != token.EQL && c.Op != token.NEQ {
		return token.NoPos, false
	}
	for _, pair := range [][2]ssa.Value{{c.X, c.Y}, {c.Y, c.X}} {
		ex, ok := pair[0].(*ssa.Extract)
		if !ok || ex.Index != 0 {
			continue
		}
		sel, ok := ex.Tuple.(*ssa.Select)
		if !ok {
			continue
		}
		k, ok := constInt(pair[1])
		if !ok || k < 0 || int(k) >= len(sel.States) {
			continue
		}
		st := sel.States[k]
		if st.Dir != types.RecvOnly {
			continue
		}
		if pos, ok := e.livenessChan(st.Chan); ok {
			return pos, true
		}
		if e.lostChannel(st.Chan) {
			return st.Pos, true // <-lostCh: reported at the receive
		}
	}
	return token.NoPos, false
}

// livenessChan: session.Done(), session.Ctx().Done(), or Done() of a
// lease or lock object.
func (e *engine) livenessChan(ch ssa.Value) (token.Pos, bool) {
	call, ok := stripValue(ch).(*ssa.Call)
	if !ok {
		return token.NoPos, false
	}
	fn := calleeFunc(call.Common())
	if fn == nil || fn.Name() != "Done" {
		return token.NoPos, false
	}
	recv := receiver(call.Common())
	if recv == nil {
		return token.NoPos, false
	}
	if isSession(recv.Type()) || rules.IsLockType(recv.Type()) {
		return call.Pos(), true
	}
	if _, ok := e.leaseOf(recv.Type()); ok {
		return call.Pos(), true
	}
	if r, ok := stripValue(recv).(*ssa.Call); ok { // session.Ctx().Done()
		if rf := calleeFunc(r.Common()); rf != nil && rf.Name() == "Ctx" {
			if rr := receiver(r.Common()); rr != nil && isSession(rr.Type()) {
				return call.Pos(), true
			}
		}
	}
	return token.NoPos, false
}

// lostChannel: the channel an acquire returns, closed when the lock is lost
// (consul's lostCh, _ := lock.Lock(stop)).
func (e *engine) lostChannel(ch ssa.Value) bool {
	ex, ok := stripValue(ch).(*ssa.Extract)
	if !ok {
		return false
	}
	call, ok := ex.Tuple.(*ssa.Call)
	if !ok {
		return false
	}
	if _, isChan := ex.Type().Underlying().(*types.Chan); !isChan {
		return false
	}
	_, acquire := e.acquireOf(call)
	return acquire
}

// isSession: an etcd concurrency session (its lease keeps the locks).
func isSession(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	return rules.HasTypeKey(t, rules.EtcdSession)
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// isCheckCall: lease.Valid(), lock.TTL(ctx), mutex.Until(),
// time.Now().Before(exp), time.Until(exp), session.Ctx().Err().
func (e *engine) isCheckCall(v ssa.Value) (token.Pos, GuardKind, bool) {
	v = stripValue(v)
	if ex, ok := v.(*ssa.Extract); ok {
		v = ex.Tuple
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return token.NoPos, "", false
	}
	fn := calleeFunc(call.Common())
	if fn == nil {
		return token.NoPos, "", false
	}
	name := fn.Name()
	sig := fn.Type().(*types.Signature)
	switch {
	case sig.Recv() != nil && rules.ClientCheckMethods[name]:
		return call.Pos(), GuardLease, true
	case fn.Pkg() != nil && fn.Pkg().Path() == rules.ClockPkg && rules.ClockChecks[name]:
		return call.Pos(), GuardClock, true
	case name == "Load":
		// w.isLeader.Load() on an atomic.Bool ownership flag.
		if field, ok := atomicFieldLoad(call); ok && rules.IsOwnershipFlagName(field) {
			return call.Pos(), GuardFlag, true
		}
	case name == "Err" && sig.Recv() != nil:
		// session.Ctx().Err(): the session's own liveness.
		if r, ok := stripValue(receiver(call.Common())).(*ssa.Call); ok {
			if rf := calleeFunc(r.Common()); rf != nil && rules.Key(rf) == rules.EtcdSessionCtx {
				return call.Pos(), GuardSession, true
			}
		}
	}
	return token.NoPos, "", false
}

// readCall finds the call that read v from storage: QueryRow(...).Scan
// (&stored), a gorm First(&row) whose field is compared, a GetItem whose
// attribute is type-asserted and parsed, HeadObject metadata, an in-house
// Get. Conversions and parsing (strconv, a type assertion, a map or slice
// index) are looked through. NoPos when v is not read here: a constant, a
// parameter, a write's result.
func (e *engine) readCall(v ssa.Value, depth int) token.Pos {
	// The depth fits out.Item["fence"].(*types.AttributeValueMemberN).Value
	// parsed by strconv: eleven steps from the comparison to GetItem.
	if depth > 16 || v == nil {
		return token.NoPos
	}
	switch x := stripValue(v).(type) {
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return e.readCall(x.X, depth+1)
		}
	case *ssa.Alloc:
		// Have: row.Scan(&stored), tx.First(&row): the call that filled
		// the variable, through the variadic []any it was passed in.
		if c := callUsing(x, 0); c != nil && !e.writesCall(c.Common()) {
			if recv := receiver(c.Common()); recv != nil {
				if rc, ok := stripValue(recv).(*ssa.Call); ok {
					return e.exprPos(rc.Pos())
				}
			}
			return e.exprPos(c.Pos())
		}
	case *ssa.Field:
		return e.readCall(x.X, depth+1)
	case *ssa.FieldAddr:
		return e.readCall(x.X, depth+1)
	case *ssa.TypeAssert:
		return e.readCall(x.X, depth+1) // item["fence"].(*types.AttributeValueMemberN)
	case *ssa.Lookup:
		return e.readCall(x.X, depth+1) // out.Item["fence"], head.Metadata["fence"]
	case *ssa.Index:
		return e.readCall(x.X, depth+1)
	case *ssa.IndexAddr:
		return e.readCall(x.X, depth+1)
	case *ssa.Extract:
		return e.readCall(x.Tuple, depth+1)
	case *ssa.Phi:
		for _, ed := range x.Edges {
			if pos := e.readCall(ed, depth+1); pos != token.NoPos {
				return pos
			}
		}
	case *ssa.Call:
		cc := x.Common()
		if _, builtin := cc.Value.(*ssa.Builtin); builtin {
			return token.NoPos
		}
		fn := calleeFunc(cc)
		if fn != nil && fn.Pkg() != nil && isParsePkg(fn.Pkg().Path()) {
			// strconv.ParseInt(s, 10, 64): where s was read.
			if len(cc.Args) > 0 {
				return e.readCall(cc.Args[0], depth+1)
			}
			return token.NoPos
		}
		if e.writesCall(cc) {
			return token.NoPos // a write's result is not the stored fence
		}
		if fn != nil {
			if _, ok := rules.TokenOfFunc(fn); ok {
				return token.NoPos // a token source (m.Header()), not a read of storage
			}
			if ff := e.calleeFact(fn); ff != nil && (ff.Acquire || ff.Token) {
				return token.NoPos // a lease just granted, not the stored fence
			}
		}
		if _, ok := e.acquireOf(x); ok {
			return token.NoPos
		}
		return e.exprPos(x.Pos())
	}
	return token.NoPos
}

// isParsePkg: packages whose functions convert a value already read.
func isParsePkg(path string) bool {
	return path == "strconv" || path == "math/big" || path == "encoding/binary"
}

// writesCall: the call is a write (a rules/ write or a write helper).
func (e *engine) writesCall(cc *ssa.CallCommon) bool {
	fn := calleeFunc(cc)
	if fn == nil {
		return false
	}
	if _, ok := e.writeOf(fn); ok {
		return true
	}
	ff := e.calleeFact(fn)
	return ff != nil && ff.Write
}

// callUsing finds the first call that receives v, directly or through an
// interface conversion and a variadic argument slice.
func callUsing(v ssa.Value, depth int) *ssa.Call {
	if depth > 4 || v.Referrers() == nil {
		return nil
	}
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.Call:
			return r
		case *ssa.MakeInterface:
			if c := callUsing(r, depth+1); c != nil {
				return c
			}
		case *ssa.Store:
			if ia, ok := r.Addr.(*ssa.IndexAddr); ok && r.Val == v {
				if arr, ok := ia.X.(*ssa.Alloc); ok {
					for _, ar := range *arr.Referrers() {
						if sl, ok := ar.(*ssa.Slice); ok {
							if c := callUsing(sl, depth+1); c != nil {
								return c
							}
						}
					}
				}
			}
		}
	}
	return nil
}

// appCheckDefects records one DefectAppChecked per Go-side check that
// unfenced writes sit under (after applyUnits, which can still fence a
// write through its transaction). The defect is anchored at the check; its
// Write is the first write it guards, and every guarded write, the read
// behind a read-then-compare and the lock scope are Related.
func (e *engine) appCheckDefects() {
	byPos := map[token.Pos]*Defect{}
	for _, w := range e.model.Writes {
		if w.Verdict != AppChecked || w.Guard == nil || w.Omitted {
			continue // Omitted: optionaltoken's finding
		}
		d := byPos[w.Guard.Pos]
		if d == nil {
			d = &Defect{Kind: DefectAppChecked, Pos: w.Guard.Pos, End: w.Guard.End, Write: w, Category: string(w.Guard.Kind)}
			if w.Guard.Read.IsValid() {
				d.Related = append(d.Related, Related{Pos: w.Guard.Read, Message: "stored fence read here"})
			}
			byPos[w.Guard.Pos] = d
			e.model.Defects = append(e.model.Defects, d)
		}
		d.Related = append(d.Related, Related{Pos: w.Pos, End: w.End, Message: "unfenced write " + w.Call})
	}
	for _, d := range byPos {
		d.Related = append(d.Related, Related{Pos: d.Write.Scope.Pos, Message: "lock scope opened here"})
	}
}
