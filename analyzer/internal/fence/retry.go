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
	if e.heldAtReturn == nil {
		e.heldAtReturn = map[*ssa.Function]acquireInfo{}
	}
	// Only what describes the lock: the call's values (key, session) are
	// the literal's, not the caller's.
	e.heldAtReturn[f] = acquireInfo{
		lock: r.scope.Lock, noToken: r.scope.NoToken, source: r.acq.source,
		lease: r.acq.lease, constructed: r.acq.constructed, ownLock: r.acq.ownLock,
	}
	e.wrappers++
}

// runnerFunc returns the function a call of a retry runner runs: a
// function literal or a named function or method value; nil for any other
// call.
func runnerFunc(cc *ssa.CallCommon) *ssa.Function {
	fn := calleeFunc(cc)
	i, ok := rules.RetryRunnerArg(fn)
	if !ok || i >= len(cc.Args) {
		return nil
	}
	return funcOf(cc.Args[i])
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
	ai.source += ", retried by " + fn.Pkg().Name() + "." + fn.Name()
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
