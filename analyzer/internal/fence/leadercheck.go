package fence

import (
	"go/token"
	"go/types"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// Leadership checks. Services that elect a leader in the background often
// gate their work on a question asked in Go:
//
//	if ok, err := w.elector.IsLeader(ctx); err != nil || !ok {
//		return err
//	}
//	_, err = w.db.ExecContext(ctx, `UPDATE reports SET ...`)
//
// The answer is the client's view of a lease held elsewhere: a leader that
// pauses after the check writes after a new leader was elected. The code
// that runs only where the answer was yes is a scope of that leadership,
// and the check, which dominates every write in it, is appcheck's finding
// (guardOf). The check is a method named IsLeader, AmILeader, AmLeader or
// IsLeading returning a bool, or a bool or atomic.Bool field named
// isLeader, amLeader or isLeading (rules.IsLeadershipCheckMethod,
// rules.IsLeadershipFlag); names narrower than the ownership flags a guard
// accepts inside a scope, since here the name alone opens one. The
// leadership hands out no token. Code already in a lock scope keeps its
// scope; a _test.go file opens none.

// leaderCheckRegions opens a region after each leadership check of f.
func (e *engine) leaderCheckRegions(f *ssa.Function) {
	if e.inTestFile(f.Pos()) || e.bodyScope[f] != nil {
		return // a test; a body already under a lease, a lock or a token
	}
	for _, b := range f.Blocks {
		ifi := branchIf(b)
		if ifi == nil {
			continue
		}
		cond, yes := ifi.Cond, b.Succs[0]
		if not, ok := cond.(*ssa.UnOp); ok && not.Op == token.NOT {
			cond, yes = not.X, b.Succs[1]
		}
		name, pos, ok := leadershipCheck(cond)
		if !ok || len(yes.Preds) != 1 {
			continue // a yes-branch also reached another way is not gated by the check
		}
		s := &Scope{Kind: ScopeLeaderCheck, Pos: pos, Lock: "leadership checked by " + name, NoToken: true,
			Source: "heuristic: leadership check " + name}
		r := &region{scope: s, spans: map[*ssa.BasicBlock][]span{}}
		for _, d := range f.Blocks {
			if yes.Dominates(d) {
				r.addSpan(d, span{0, len(d.Instrs)})
			}
		}
		e.markRegion(r)
		e.regions[f] = append(e.regions[f], r)
	}
}

// leadershipCheck reads cond as a leadership check and names it
// ("IsLeader", "isLeader").
func leadershipCheck(cond ssa.Value) (string, token.Pos, bool) {
	if ex, ok := cond.(*ssa.Extract); ok {
		cond = ex.Tuple // ok, err := e.IsLeader(ctx)
	}
	switch c := cond.(type) {
	case *ssa.Call:
		fn := calleeFunc(c.Common())
		if fn == nil {
			return "", token.NoPos, false
		}
		sig := fn.Type().(*types.Signature)
		if sig.Recv() == nil || sig.Results().Len() == 0 || !isBool(sig.Results().At(0).Type()) {
			return "", token.NoPos, false
		}
		if rules.IsLeadershipCheckMethod(fn.Name()) {
			return fn.Name() + "()", c.Pos(), true
		}
		// w.isLeader.Load() on an atomic.Bool field
		if field, ok := atomicFieldLoad(c); ok && rules.IsLeadershipFlag(field) {
			return field, c.Pos(), true
		}
	case *ssa.UnOp:
		if c.Op != token.MUL || !isBool(c.Type()) {
			return "", token.NoPos, false
		}
		if fa, ok := c.X.(*ssa.FieldAddr); ok {
			if name, ok := leadershipField(fa); ok {
				return name, fa.Pos(), true
			}
		}
	}
	return "", token.NoPos, false
}

func leadershipField(fa *ssa.FieldAddr) (string, bool) {
	name := fieldNameOf(fa.X.Type(), fa.Field)
	return name, rules.IsLeadershipFlag(name)
}
