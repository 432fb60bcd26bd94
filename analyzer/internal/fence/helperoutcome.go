package fence

import (
	"go/types"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// Outcomes of write helpers (issue 13: sqlc's :execrows and :one).
//
// A helper fenced by a parameter may hand its caller the signal its store
// rejects a stale holder with: sqlc's :execrows methods return the
// statement's RowsAffected(), its :one methods over an UPDATE ... RETURNING
// return the error of QueryRow's Scan, pgx.ErrNoRows or sql.ErrNoRows
// when the fence let no row through. The helper's fact says which result
// carries it (FuncFact.RowsResult, FuncFact.NoRowsResult), and the caller's
// handling of that result is judged as the write's own would be.

// helperOutcomes fills the outcome results of a parameter-fenced write
// helper's fact from its returns.
func (e *engine) helperOutcomes(f *ssa.Function, ff *FuncFact) {
	results := f.Signature.Results()
	if results.Len() == 0 || len(ff.FencedBy) == 0 {
		return
	}
	var rets []*ssa.Return
	for _, b := range f.Blocks {
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			rets = append(rets, r)
		}
	}
	if len(rets) == 0 {
		return
	}
	for i := 0; i < results.Len(); i++ {
		if rules.IsIntegerLike(results.At(i).Type()) && e.allReturnRows(rets, i) {
			ff.RowsResult = i + 1
			break
		}
	}
	last := results.Len() - 1
	if ff.RowsResult == 0 && isErrorType(results.At(last).Type()) && e.returnsScanErr(rets, last) {
		ff.NoRowsResult = last + 1
	}
}

func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// allReturnRows: every return hands back, as result i, the RowsAffected()
// of a SQL write's result in this function, or the constant 0 (the error
// path), and at least one return hands back a count.
func (e *engine) allReturnRows(rets []*ssa.Return, i int) bool {
	counts := 0
	for _, r := range rets {
		if i >= len(r.Results) {
			return false
		}
		v := stripValue(r.Results[i])
		if c, ok := constInt(v); ok && c == 0 {
			continue
		}
		if x, ok := v.(*ssa.Extract); ok {
			v = x.Tuple // std: return result.RowsAffected()
		}
		call, ok := v.(*ssa.Call)
		if !ok || !e.isRowsOfWrite(call) {
			return false
		}
		counts++
	}
	return counts > 0
}

// isRowsOfWrite: call is x.RowsAffected() where x is the result of a SQL
// write call (pgx's CommandTag, database/sql's Result).
func (e *engine) isRowsOfWrite(call *ssa.Call) bool {
	fn := calleeFunc(call.Common())
	if fn == nil || fn.Name() != "RowsAffected" {
		return false
	}
	recv := stripValue(receiver(call.Common()))
	x, ok := recv.(*ssa.Extract)
	if !ok || x.Index != 0 {
		return false
	}
	w, ok := x.Tuple.(*ssa.Call)
	return ok && e.isSQLWriteCall(w)
}

func (e *engine) isSQLWriteCall(c *ssa.Call) bool {
	wfn := calleeFunc(c.Common())
	if wfn == nil {
		return false
	}
	rw, ok := e.writeOf(wfn)
	return ok && rw.Kind == rules.SQLWrite
}

// returnsScanErr: every return that is not the constant nil hands back
// as result i the error of Scan on the Row of a QueryRow write in this
// function (sqlc's :one: row := q.db.QueryRow(...); err := row.Scan(...);
// return i, err).
func (e *engine) returnsScanErr(rets []*ssa.Return, i int) bool {
	scans := 0
	for _, r := range rets {
		if i >= len(r.Results) {
			return false
		}
		v := stripValue(r.Results[i])
		if c, ok := v.(*ssa.Const); ok && c.IsNil() {
			continue
		}
		call, ok := v.(*ssa.Call)
		if !ok {
			return false
		}
		fn := calleeFunc(call.Common())
		if fn == nil || fn.Name() != "Scan" {
			return false
		}
		row, ok := stripValue(receiver(call.Common())).(*ssa.Call)
		if !ok || !e.isSQLWriteCall(row) {
			return false
		}
		if q := calleeFunc(row.Common()); q == nil || (q.Name() != "QueryRow" && q.Name() != "QueryRowContext") {
			return false
		}
		if !e.writesReturning(row) {
			return false // a SELECT's ErrNoRows is no rejection
		}
		scans++
	}
	return scans > 0
}

// judgeHelper judges the outcome of a call of a fenced write helper whose
// fact names the result that carries the rejection.
func (j *outcomeJudge) judgeHelper() {
	fn := calleeFunc(j.call.Common())
	if fn == nil {
		return
	}
	ff := j.e.calleeFact(fn)
	if ff == nil {
		if callee, ok := j.call.Common().Value.(*ssa.Function); ok && callee.Pkg == j.e.pkg {
			ff = j.e.summary(callee)
		}
	}
	if ff == nil {
		return
	}
	switch {
	case ff.RowsResult > 0:
		res := usedExtract(j.call, ff.RowsResult-1)
		if j.call.Type() != nil {
			if _, tuple := j.call.Type().(*types.Tuple); !tuple {
				res = j.call // a single result
				if j.call.Referrers() == nil || len(*j.call.Referrers()) == 0 {
					res = nil
				}
			}
		}
		j.k, j.decl = OutcomeRows, rules.SQLRowsOutcome()
		if res == nil {
			j.set(j.k, j.decl.Name, Discarded)
			return
		}
		var st rowsState
		followCount(res, &st)
		j.judgeRows(st)
	case ff.NoRowsResult > 0:
		res := usedExtract(j.call, ff.NoRowsResult-1)
		j.k, j.decl = OutcomeNoRow, rules.SQLNoRowOutcome()
		if res == nil {
			j.set(j.k, j.decl.Name, Discarded)
			return
		}
		j.checkErr(res)
	}
}

// writesReturning: the QueryRow call's constant SQL is a write with a
// RETURNING list, so no row back means the condition let nothing through.
func (e *engine) writesReturning(row *ssa.Call) bool {
	fn := calleeFunc(row.Common())
	rw, ok := e.writeOf(fn)
	if !ok || rw.QueryArg < 0 {
		return false
	}
	ps := params(row.Common())
	if rw.QueryArg >= len(ps) {
		return false
	}
	q, ok := e.sqlString(ps[rw.QueryArg])
	if !ok {
		return false
	}
	for _, st := range e.parseSQL(q) {
		if st.Verb.IsWrite() && len(st.Returning) > 0 {
			return true
		}
	}
	return false
}
