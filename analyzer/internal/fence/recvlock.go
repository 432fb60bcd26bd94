package fence

import (
	"go/token"
	"go/types"
	"strings"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// A lock held in the receiver (issue 13 item 4). A type whose own method
// takes a lock and returns holding it, keeping the lock, its handle or
// its state in a field of the receiver (terraform's remote-state clients:
// Lock() takes a consul or PostgreSQL advisory lock, Put() writes the
// state), runs its other exported methods under that lock: they are what
// the lock's holder calls between Lock and Unlock. Each such method is a
// region from its entry to the first release it makes (a method that
// unlocks before writing writes outside the lock).
//
// Kept narrow for precision: the acquiring method must return with the
// lock held on some path (no deferred release) and store into the
// receiver inside the region, or be the type's Lock beside its Unlock
// (lockUnlockPair); methods that take or release a lock
// themselves, lock-named methods, methods already in a scope, and
// methods the package's own code calls outside any lock are left alone. Token values the acquiring method stores into the
// receiver's fields are tokens when the other methods read them back.

// receiverScopes finds the types that hold a lock in their receiver and
// opens the regions of their other methods.
func (e *engine) receiverScopes() {
	type holder struct {
		scope  *Scope
		method *ssa.Function
	}
	holders := map[*types.TypeName]holder{}
	for _, f := range e.funcs {
		tn := recvTypeName(f)
		if tn == nil || f.Parent() != nil || hasDeferredRelease(e, f) {
			continue
		}
		if _, done := holders[tn]; done {
			continue
		}
		recv := f.Params[0]
		for _, r := range e.regions[f] {
			if r.call == nil || !r.holdsAtReturn(f) || !e.keptInReceiver(f, r, recv) {
				continue
			}
			e.receiverTokenFields(f, r, recv)
			s := &Scope{Kind: ScopeAcquire, Pos: r.scope.Pos, Key: r.scope.Key,
				Lock:    r.scope.Lock + " held in the " + tn.Name() + " by " + f.Name(),
				NoToken: r.scope.NoToken, Hint: r.scope.Hint,
				Source: "lock held in the receiver: " + tn.Name() + "." + f.Name() + " (" + r.scope.Source + ")"}
			if !s.NoToken {
				s.Token = "the token of the lock " + f.Name() + " keeps in the " + tn.Name()
			}
			if key := e.receiverSession(r.scope); key != "" {
				e.sessions[s] = key // the other methods run on the same connection field
			}
			holders[tn] = holder{scope: s, method: f}
			break
		}
	}
	if len(holders) == 0 {
		return
	}
	if len(e.recvTokens) > 0 {
		e.memo = map[ssa.Value]*origin{} // field reads traced before are tokens now
	}
	for _, g := range e.funcs {
		tn := recvTypeName(g)
		h, ok := holders[tn]
		if !ok || g == h.method || g.Parent() != nil || !e.runsUnderReceiverLock(g) || e.calledWithoutLock(g) {
			continue
		}
		e.receiverRegion(g, h.scope)
	}
}

// recvTypeName returns the named type of a method's receiver, nil for
// functions and interface methods.
func recvTypeName(f *ssa.Function) *types.TypeName {
	if f.Signature.Recv() == nil || len(f.Params) == 0 {
		return nil
	}
	t := f.Signature.Recv().Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || types.IsInterface(n) {
		return nil
	}
	return n.Origin().Obj()
}

// holdsAtReturn: some return of f lies inside the region.
func (r *region) holdsAtReturn(f *ssa.Function) bool {
	for _, instr := range r.instrs(f) {
		if _, ok := instr.(*ssa.Return); ok {
			return true
		}
	}
	return false
}

// isRecvField reports whether v is (a load of) a field of the receiver.
func isRecvField(v ssa.Value, recv *ssa.Parameter) *ssa.FieldAddr {
	v = stripValue(v)
	if u, ok := v.(*ssa.UnOp); ok {
		v = u.X
	}
	if fa, ok := v.(*ssa.FieldAddr); ok && isRecv(fa.X, recv) {
		return fa
	}
	return nil
}

// isRecv: v is the receiver, or its value loaded from the cell SSA boxes
// it in when a closure captures it.
func isRecv(v ssa.Value, recv *ssa.Parameter) bool {
	v = stripValue(v)
	if v == ssa.Value(recv) {
		return true
	}
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		if alloc, ok := u.X.(*ssa.Alloc); ok {
			vals := storesTo(alloc)
			return len(vals) == 1 && vals[0] == ssa.Value(recv)
		}
	}
	return false
}

// keptInReceiver: the lock object is a field of the receiver
// (c.consulLock.Lock(...)), or the method stores into a field of the
// receiver inside the region (c.lockCh = ch, c.info = info): it keeps the
// lock, its handle or its ID for the other methods.
func (e *engine) keptInReceiver(f *ssa.Function, r *region, recv *ssa.Parameter) bool {
	// A lease-table claim runs on a database handle or a store of
	// queries, which is no lock object: sqlc's Queries runs every query on
	// q.db, one of them a claim, and a business store calls
	// s.querier.InsertLock like any other query (leasetable.go). Only a
	// store into the receiver keeps such a lock.
	if rv := receiver(r.call.Common()); rv != nil && isRecvField(rv, recv) != nil && !r.leaseTable() && !e.isStoreCall(r.call.Common()) {
		return true // c.lock.Lock(): not c.db.QueryRow(advisory SQL), whose receiver is the client
	}
	if lockUnlockPair(f) {
		return true
	}
	for _, instr := range r.instrs(f) {
		if st, ok := instr.(*ssa.Store); ok && isRecvField(st.Addr, recv) != nil {
			return true
		}
	}
	return false
}

// receiverTokenFields marks the receiver's fields that f stores a token
// into inside the region (c.rev = m.Header().Revision).
func (e *engine) receiverTokenFields(f *ssa.Function, r *region, recv *ssa.Parameter) {
	for _, instr := range r.instrs(f) {
		st, ok := instr.(*ssa.Store)
		if !ok {
			continue
		}
		fa := isRecvField(st.Addr, recv)
		if fa == nil {
			continue
		}
		o := e.originOf(st.Val)
		if !o.isToken() {
			continue
		}
		if sv, ok := derefStruct(fa.X.Type()); ok && fa.Field < sv.NumFields() {
			if e.recvTokens == nil {
				e.recvTokens = map[*types.Var]*origin{}
			}
			e.recvTokens[sv.Field(fa.Field)] = o
		}
	}
}

// runsUnderReceiverLock: an exported method that takes, releases or
// renews no lock of its own, is not named like a lock operation and is
// not already a scope.
func (e *engine) runsUnderReceiverLock(g *ssa.Function) bool {
	fn, ok := g.Object().(*types.Func)
	if !ok || !fn.Exported() || e.bodyScope[g] != nil || len(e.regions[g]) > 0 {
		return false
	}
	name := fn.Name()
	if rules.IsReleaseName(name) || rules.IsRenewName(name) || strings.Contains(strings.ToLower(name), "lock") || strings.HasPrefix(name, "Acquire") {
		return false
	}
	if rules.IsDestroyName(name) {
		// Delete() removes the resource the lock guards outright: its
		// callers do that instead of a locked update, not between Lock and
		// Unlock (every terraform backend's DeleteWorkspace, and tests).
		return false
	}
	if ff := e.local[fn]; ff != nil && (ff.Acquire || ff.Release || ff.Callback >= 0) {
		return false
	}
	return true
}

// calledWithoutLock: code of the package outside its tests calls g in no
// lock scope (terraform's DeleteWorkspace calls client.Delete() on a client
// it never locked), so g is not only what the holder calls under the
// lock. Tests are left out: they call Put on an unlocked client to test it.
func (e *engine) calledWithoutLock(g *ssa.Function) bool {
	for _, f := range e.funcs {
		if f == g || e.inTestFile(f.Pos()) {
			continue
		}
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				cc, _ := callOf(instr)
				if cc == nil || cc.StaticCallee() != g {
					continue
				}
				if e.scopeOf(f, instr) == nil {
					return true
				}
			}
		}
	}
	return false
}

// receiverRegion makes g's instructions from its entry up to the first
// release on each path a region of scope s.
func (e *engine) receiverRegion(g *ssa.Function, s *Scope) {
	e.regionFromEntry(g, s, nil, func(_ *region, c *ssa.Call) bool { return e.isReleaseCall(c.Common()) })
}

// isStoreCall: cc calls a store's write method (an advisory lock's SQL, a
// create-if-absent write), whose receiver is a client, not a lock.
func (e *engine) isStoreCall(cc *ssa.CallCommon) bool {
	fn := calleeFunc(cc)
	if fn == nil {
		return false
	}
	_, ok := e.writeOf(fn)
	return ok
}

// lockUnlockPair: f is an exported acquire-named method (Lock, TryLock,
// Acquire) of a type that also has an Unlock or Release method. Such a
// type is the lock's holder even when it keeps nothing: its caller takes the lock through it and gives it back through it
// (terraform's statemgr.Locker clients return the lock's ID from
// Lock(info) and take it back in Unlock(id)), so its other methods are
// what the holder calls in between. A Lock that takes a key (a string)
// does not count.
func lockUnlockPair(f *ssa.Function) bool {
	fn, ok := f.Object().(*types.Func)
	if !ok || !fn.Exported() || !rules.IsAcquireName(fn.Name()) {
		return false
	}
	recv := f.Signature.Recv()
	if recv == nil {
		return false
	}
	// Lock(ctx, key string) locks whatever key it is given: a store that
	// offers it beside Get/Set is a store, not the holder of one lock.
	ps := f.Signature.Params()
	for i := 0; i < ps.Len(); i++ {
		if isStringType(ps.At(i).Type()) {
			return false
		}
	}
	t := recv.Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	ms := types.NewMethodSet(types.NewPointer(t))
	for i := 0; i < ms.Len(); i++ {
		// Unlock or Release, not Close: a client with a Close and a
		// lock method is a client, not a holder.
		if name := ms.At(i).Obj().Name(); name == "Unlock" || name == "Release" {
			return true
		}
	}
	return false
}
