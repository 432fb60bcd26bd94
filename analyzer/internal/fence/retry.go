package fence

import (
	"go/types"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// Locks taken and released through a retry runner (rules.RetryRunners):
//
//	err := retry.Do(ctx, b, func(ctx context.Context) error {
//		_, err := l.store.AcquireLock(ctx, db, l.lockID)
//		return err
//	})
//	if err != nil { return err }
//	// the lock is held here
//
// Inside the function literal the acquire opens a region that reaches its
// return: the literal returns with the lock held (noteHeldAtReturn). The
// runner returns nil only once the literal did, so the runner's call is
// the acquire for the code after it (runnerAcquire): a scope there, and,
// when that reaches the enclosing function's return, an acquire wrapper
// for its callers. A runner whose function releases a lock is a release
// (runnerReleasesLock), so that such a scope ends at it.

// noteHeldAtReturn records that function literal f returns with r's lock
// held. It counts as a new wrapper, so that findRegions runs again for a
// caller scanned before f (literals follow their parents in e.funcs).
func (e *engine) noteHeldAtReturn(f *ssa.Function, r *region) {
	if _, ok := e.heldAtReturn[f]; ok {
		return
	}
	if r.acq.advisory && r.acq.session != nil && rules.IsTxType(r.acq.session.Type()) {
		// An advisory lock taken on the literal's transaction ends with
		// it: a runner that commits the transaction it hands the literal
		// (store.WithTx(ctx, func(tx *sql.Tx) error {...})) returns with
		// no lock held.
		return
	}
	if e.heldAtReturn == nil {
		e.heldAtReturn = map[*ssa.Function]acquireInfo{}
	}
	// Only what describes the lock: the call's values (key, session) are
	// the literal's, not the caller's.
	held := acquireInfo{
		lock: r.scope.Lock, noToken: r.scope.NoToken, source: r.acq.source,
		lease: r.acq.lease, constructed: r.acq.constructed, ownLock: r.acq.ownLock,
	}
	held.sessionKey = e.receiverSession(r.scope) // the receiver's connection, the same in the caller
	e.heldAtReturn[f] = held
	e.wrappers++
}

// runnerFunc returns the function a call of a retry runner runs: a
// function literal or a named function or method value; nil for any other
// call.
func runnerFunc(cc *ssa.CallCommon) *ssa.Function {
	fn := calleeFunc(cc)
	i, ok := rules.RetryRunnerArg(fn)
	if !ok {
		return homeGrownRunnerFunc(cc, fn)
	}
	if i >= len(cc.Args) {
		return nil
	}
	return funcOf(cc.Args[i])
}

// homeGrownRunnerFunc returns the function literal a call of an
// application's own runner runs: a function or method outside the
// libraries rules/ describes (the standard library's such functions,
// filepath.Walk or sql.Conn.Raw, are not given a lock-taking literal),
// whose last result is an error, given exactly one function literal whose last result is an
// error too (retry(func() error {...}), database.CasRestoreOnErr(&locked,
// false, true, ErrLocked, func() error {...})). Its body is not read (in
// another package it is export data only): a literal that returns with a
// lock held exists to take it, and a runner that returns an error is
// taken to return the literal's. Only literals count, so a named function
// passed on is judged by its own facts.
func homeGrownRunnerFunc(cc *ssa.CallCommon, fn *types.Func) *ssa.Function {
	// The literal first: most calls are given none, and this runs for
	// every call asked whether it acquires or releases.
	var lit *ssa.Function
	for _, a := range cc.Args {
		var f *ssa.Function
		switch v := stripValue(a).(type) {
		case *ssa.MakeClosure:
			f, _ = v.Fn.(*ssa.Function)
		case *ssa.Function:
			f = v
		default:
			continue
		}
		if f == nil || f.Parent() == nil || f.Synthetic != "" {
			continue
		}
		if lit != nil || !lastResultIsError(f.Signature) {
			return nil
		}
		lit = f
	}
	if lit == nil || fn == nil || fn.Pkg() == nil || !lastResultIsError(fn.Type().(*types.Signature)) {
		return nil
	}
	if path := fn.Pkg().Path(); rules.IsLibraryPackage(path) || rules.IsKnownPath(path) {
		return nil
	}
	return lit
}

func lastResultIsError(sig *types.Signature) bool {
	r := sig.Results()
	return r.Len() > 0 && isError(r.At(r.Len()-1).Type())
}

// runnerAcquire classifies a call of a retry runner whose function returns
// with a lock held as an acquire of that lock, successful when the runner
// returns a nil error.
func (e *engine) runnerAcquire(cc *ssa.CallCommon, fn *types.Func) (acquireInfo, bool) {
	cb := runnerFunc(cc)
	if cb == nil {
		return acquireInfo{}, false
	}
	ai, ok := e.heldAtReturn[cb]
	if !ok {
		obj, isFunc := cb.Object().(*types.Func)
		if !isFunc {
			return acquireInfo{}, false
		}
		f := e.calleeFact(obj)
		if f == nil || !f.Acquire {
			return acquireInfo{}, false
		}
		ai = e.factAcquire(obj, f)
	}
	ai.success = rules.ErrNil // every runner's last result is its function's last error
	ai.keyArg = -1
	ai.tokenResult = -1
	if _, known := rules.RetryRunnerArg(fn); known {
		ai.source += ", retried by " + fn.Pkg().Name() + "." + fn.Name()
	} else {
		ai.source += ", run by " + fn.Pkg().Name() + "." + fn.Name()
	}
	return ai, true
}

// runnerReleasesLock reports whether cc calls a retry runner whose function
// releases a lock: it calls a release, or is one (a fact).
func (e *engine) runnerReleasesLock(cc *ssa.CallCommon) bool {
	cb := runnerFunc(cc)
	if cb == nil {
		return false
	}
	if obj, ok := cb.Object().(*types.Func); ok && (obj.Pkg() != e.pass.Pkg || len(cb.Blocks) == 0) {
		f := e.calleeFact(obj)
		return f != nil && f.Release
	}
	// A literal, or a function of this package, whose release fact may
	// not be inferred yet (inferRelease goes in declaration order).
	if rel, ok := e.runnerReleases[cb]; ok {
		return rel
	}
	if e.runnerReleases == nil {
		e.runnerReleases = map[*ssa.Function]bool{}
	}
	e.runnerReleases[cb] = false // a cycle (f retries itself) finds no release
	rel := false
	for _, instr := range e.callSites(cb) {
		if c, _ := callOf(instr); e.isReleaseCall(c) {
			rel = true
			break
		}
	}
	e.runnerReleases[cb] = rel
	return rel
}
