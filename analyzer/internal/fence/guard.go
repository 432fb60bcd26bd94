package fence

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// guardOf returns the position of a Go-side check that the write at instr
// only runs under: a comparison with the token in application code, or
// the client's own view of its lease. Such writes are appcheck's finding,
// not unfencedwrite's: one diagnosis per root cause.
func (e *engine) guardOf(f *ssa.Function, instr ssa.Instruction, s *Scope) (token.Pos, string, string) {
	b := instr.Block()
	if b == nil {
		return token.NoPos, "", ""
	}
	for d := b.Idom(); d != nil; d = d.Idom() {
		ifi, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok || len(d.Succs) != 2 {
			continue
		}
		t, f2 := d.Succs[0].Dominates(b), d.Succs[1].Dominates(b)
		if t == f2 {
			continue
		}
		if pos, kind, ok := e.isClientCheck(ifi.Cond, 0); ok {
			if pos == token.NoPos {
				pos = ifi.Cond.Pos()
			}
			if kind == "token" {
				e.lastRead = e.readOf(ifi.Cond)
			}
			return e.condStart(pos), e.condText(pos), kind
		}
	}
	return token.NoPos, "", ""
}

// condStart and condText render the checked expression at pos: a call
// (by its '('), a selector (by its Sel) or a binary expression (by its
// operator).
func (e *engine) condStart(pos token.Pos) token.Pos {
	if n := e.nodeAt(pos); n != nil {
		return n.Pos()
	}
	return pos
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

// ownershipFlags are bool fields that hold the client's belief it holds
// the lock.
var ownershipFlags = map[string]bool{
	"held": true, "isheld": true, "isleader": true, "leader": true, "amleader": true,
	"owner": true, "isowner": true, "locked": true, "islocked": true, "holding": true,
	"haslock": true, "hold": true, "valid": true, "active": true,
}

func (e *engine) isClientCheck(cond ssa.Value, depth int) (token.Pos, string, bool) {
	if depth > 6 || cond == nil {
		return token.NoPos, "", false
	}
	switch c := cond.(type) {
	case *ssa.UnOp:
		if c.Op == token.NOT {
			return e.isClientCheck(c.X, depth+1)
		}
		if c.Op == token.MUL {
			if fa, ok := c.X.(*ssa.FieldAddr); ok {
				if st, ok := derefStruct(fa.X.Type()); ok && ownershipFlags[strings.ToLower(st.Field(fa.Field).Name())] && isBool(st.Field(fa.Field).Type()) {
					return fa.Pos(), "flag", true
				}
			}
		}
	case *ssa.Field:
		if st, ok := derefStruct(c.X.Type()); ok && ownershipFlags[strings.ToLower(st.Field(c.Field).Name())] && isBool(st.Field(c.Field).Type()) {
			return c.Pos(), "flag", true
		}
	case *ssa.BinOp:
		if !isCompare(c.Op) {
			return token.NoPos, "", false
		}
		if pos, ok := e.livenessSelect(c); ok {
			return pos, "session", true
		}
		for _, side := range []ssa.Value{c.X, c.Y} {
			if o := e.originOf(side); o.isToken() {
				return c.Pos(), "token", true // the token compared in Go, not in the write
			}
			if pos, kind, ok := e.isCheckCall(side); ok {
				return pos, kind, true
			}
		}
	case *ssa.Call, *ssa.Extract:
		return e.isCheckCall(c)
	}
	return token.NoPos, "", false
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
	if _, ok := rules.LeaseOf(recv.Type()); ok {
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
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "go.etcd.io/etcd/client/v3/concurrency" && n.Obj().Name() == "Session"
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// isCheckCall: lease.Valid(), lock.TTL(ctx), mutex.Until(),
// time.Now().Before(exp), time.Until(exp), session.Ctx().Err().
func (e *engine) isCheckCall(v ssa.Value) (token.Pos, string, bool) {
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
		return call.Pos(), "lease", true
	case fn.Pkg() != nil && fn.Pkg().Path() == "time" && (name == "Before" || name == "After" || name == "Until" || name == "Since" || name == "Compare"):
		return call.Pos(), "clock", true
	case name == "Err" && sig.Recv() != nil:
		// session.Ctx().Err(): the session's own liveness.
		if r, ok := stripValue(receiver(call.Common())).(*ssa.Call); ok {
			if rf := calleeFunc(r.Common()); rf != nil && rf.Name() == "Ctx" && strings.Contains(rf.FullName(), "concurrency.Session") {
				return call.Pos(), "session", true
			}
		}
	}
	return token.NoPos, "", false
}

// readOf finds, for a Go-side comparison of the token with a stored value,
// the call that read that value: QueryRow(...).Scan(&stored), a Get whose
// result is compared. NoPos when it cannot be told.
func (e *engine) readOf(cond ssa.Value) token.Pos {
	bo, ok := cond.(*ssa.BinOp)
	if !ok {
		if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
			return e.readOf(u.X)
		}
		return token.NoPos
	}
	for _, side := range []ssa.Value{bo.X, bo.Y} {
		if e.originOf(side).isToken() {
			continue
		}
		if pos := e.readCall(side, 0); pos != token.NoPos {
			return pos
		}
	}
	return token.NoPos
}

func (e *engine) readCall(v ssa.Value, depth int) token.Pos {
	if depth > 6 || v == nil {
		return token.NoPos
	}
	switch x := stripValue(v).(type) {
	case *ssa.UnOp:
		if x.Op == token.MUL {
			if alloc, ok := x.X.(*ssa.Alloc); ok {
				// Have: row.Scan(&stored): the call that filled the variable,
				// through the variadic []any it was passed in.
				if c := callUsing(alloc, 0); c != nil {
					if recv := receiver(c.Common()); recv != nil {
						if rc, ok := stripValue(recv).(*ssa.Call); ok {
							return e.exprPos(rc.Pos())
						}
					}
					return e.exprPos(c.Pos())
				}
			}
			return e.readCall(x.X, depth+1)
		}
	case *ssa.Field:
		return e.readCall(x.X, depth+1)
	case *ssa.FieldAddr:
		return e.readCall(x.X, depth+1)
	case *ssa.Extract:
		return e.readCall(x.Tuple, depth+1)
	case *ssa.Call:
		return e.exprPos(x.Pos())
	}
	return token.NoPos
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
