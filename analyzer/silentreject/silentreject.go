package silentreject

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/directive"
	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/lintutil"
	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"honnef.co/go/tools/analysis/lint"
)

// Lint is the analyzer with its documentation.
var Lint = lintutil.Init(&lint.Analyzer{
	Analyzer: &analysis.Analyzer{
		Name:     "silentreject",
		Run:      run,
		Requires: []*analysis.Analyzer{fence.Analyzer},
	},
	Doc: &lint.RawDocumentation{
		Title: "report fenced writes whose rejection is never observed",
		Text: `A fence rejects a stale holder's write without an error: the UPDATE
matches zero rows, the RETURNING query returns no row, etcd's Txn reports
Succeeded == false. The runbook's rule is "zero rows returned = a newer
holder has already written. Abort, do not retry." A caller that does not
look at the outcome carries on as if it had written.

silentreject reports, at the write call, fenced writes (the engine found a
token in their condition) whose rejection is never observed:

- "discarded": the result of a database/sql or pgx Exec, the error of a
  QueryRow(...).Scan, of a DynamoDB or S3 conditional write, or an etcd
  TxnResponse is thrown away;
- "unchecked": RowsAffected is never called or its value never compared;
  sql.ErrNoRows / pgx.ErrNoRows of a fenced UPDATE ... RETURNING leads to
  a successful return; a DynamoDB or S3 error is only logged; etcd's
  TxnResponse.Succeeded is never read;
- "retried": a loop re-issues the write after the fence rejected it.

Results that escape (returned, passed to another function, stored) are
assumed handled. Retries on transient errors that stop on a rejection, and
release paths, are not reported.`,
		Before: `
db.ExecContext(ctx, "UPDATE t SET v = $1, fence = $2 WHERE id = $3 AND fence < $2", v, tok, id)`,
		After: `
res, err := db.ExecContext(ctx, "UPDATE t SET v = $1, fence = $2 WHERE id = $3 AND fence < $2", v, tok, id)
if err != nil {
	return err
}
if n, err := res.RowsAffected(); err != nil || n == 0 {
	return ErrSuperseded // a newer holder has written: abort, do not retry
}`,
		Since:    "v0.1.0",
		Severity: lint.SeverityWarning,
		MergeIf:  lint.MergeIfAny,
	},
})

// Analyzer is the bare analyzer for go vet, golangci-lint and analysistest.
var Analyzer = Lint.Analyzer

type checker struct {
	pass  *analysis.Pass
	model *fence.Model
	ig    *directive.Ignores
}

func run(pass *analysis.Pass) (any, error) {
	model := pass.ResultOf[fence.Analyzer].(*fence.Model)
	if !model.Relevant {
		return nil, nil // fast path: nothing lock-related in reach
	}
	c := &checker{pass: pass, model: model, ig: directive.CollectIgnores(pass)}
	for _, w := range model.Writes {
		switch w.Verdict {
		case fence.Fenced, fence.WrongPredicate, fence.WeakToken:
		default:
			continue
		}
		call, ok := w.Instr.(*ssa.Call) // go and defer discard by construction; not judged
		if !ok || w.Helper != "" {
			continue
		}
		c.check(w, call)
	}
	c.ig.Finish(pass, lintutil.Names)
	return nil, nil
}

func (c *checker) report(w *fence.Write, category, msg string) {
	c.ig.Report(c.pass, analysis.Diagnostic{Pos: w.Pos, End: w.End, Category: category, Message: msg})
}

func (c *checker) check(w *fence.Write, call *ssa.Call) {
	fn := callee(call.Common())
	if fn == nil {
		return
	}
	name := fn.Name()
	switch w.Store {
	case "SQL":
		if len(w.Compares) == 0 {
			return // fenced by its transaction, not by its own condition: nothing to reject it
		}
		switch {
		case strings.HasPrefix(name, "Exec"):
			c.checkExec(w, call)
		case strings.HasPrefix(name, "QueryRow"):
			c.checkQueryRow(w, call)
		}
	case "DynamoDB":
		c.checkErrOnly(w, call)
	case "S3":
		if hasPrecondition(call) {
			c.checkErrOnly(w, call) // a token-keyed object without a precondition is never rejected
		}
	case "etcd":
		if name == "Commit" {
			c.checkTxn(w, call)
		}
	case "gorm":
		if len(w.Compares) == 0 {
			return // no comparison of its own: nothing to reject it
		}
		switch name {
		case "Update", "Updates", "UpdateColumn", "UpdateColumns", "Delete", "Exec":
			c.checkGorm(w, call)
		}
	case "consul KV", "consul":
		switch name {
		case "CAS", "DeleteCAS", "Acquire", "Txn":
			c.checkConsulOK(w, call)
		}
	case "GCS":
		switch name {
		case "NewWriter":
			c.checkGCSWriter(w, call)
		case "Update", "Delete", "Run":
			c.checkErrOnly(w, call)
		}
	case "ZooKeeper":
		if name == "Set" || name == "Delete" {
			c.checkErrOnly(w, call) // versioned: zk.ErrBadVersion is the rejection
		}
	}
}

// ---- SQL Exec ----

func (c *checker) checkExec(w *fence.Write, call *ssa.Call) {
	res := extract(call, 0)
	if res == nil {
		c.report(w, "discarded", fmt.Sprintf("the result of fenced write via %s is discarded: a write the fence rejected (0 rows) looks like success; check RowsAffected() and abort when it is 0", w.Call))
		return
	}
	st := c.followRows(res)
	c.judgeRows(w, st, fmt.Sprintf("fenced write via %s never compares RowsAffected(): a write the fence rejected (0 rows) looks like success; abort when it is 0", w.Call))
}

// judgeRows reports what a fenced write does with its row count: nothing
// when it escapes or is compared, a retry when the zero branch re-issues
// the write, unchecked (with the store's own wording) otherwise.
func (c *checker) judgeRows(w *fence.Write, st rowsState, unchecked string) {
	switch {
	case st.escapes:
		return
	case st.zeroBranch != nil:
		if c.retries(w, st.zeroBranch) {
			c.report(w, "retried", fmt.Sprintf("fenced write via %s is re-issued after the fence rejected it (0 rows): a newer holder has written; abort, do not retry", w.Call))
		}
		return
	case st.compared:
		return
	}
	c.report(w, "unchecked", unchecked)
}

// ---- consul ----

// checkConsulOK: consul reports a failed CAS, Acquire or transaction check
// as ok == false with a nil error, so the bool is the write's outcome.
func (c *checker) checkConsulOK(w *fence.Write, call *ssa.Call) {
	ok := extract(call, 0)
	if ok == nil {
		c.report(w, "discarded", fmt.Sprintf("the ok result of fenced write via %s is discarded: consul reports a write its check rejected as ok == false with a nil error; abort when it is false", w.Call))
		return
	}
	for _, u := range flowUses(ok, 0) {
		switch u.(type) {
		case *ssa.If, *ssa.BinOp, *ssa.UnOp, *ssa.Return, *ssa.Store, *ssa.Send, *ssa.MapUpdate, *ssa.Phi:
			return // tested, or handed on
		case *ssa.Call:
			if isLogCall(u.(*ssa.Call).Common()) {
				continue
			}
			return
		}
	}
	c.report(w, "unchecked", fmt.Sprintf("fenced write via %s never tests its ok result: consul reports a write its check rejected as ok == false with a nil error; abort when it is false", w.Call))
}

// ---- GCS ----

// checkGCSWriter: a conditional GCS upload reports its precondition
// failure from Writer.Close, so Close's error is the write's outcome.
func (c *checker) checkGCSWriter(w *fence.Write, call *ssa.Call) {
	for _, u := range flowUses(call, 0) {
		cl, ok := u.(*ssa.Call)
		if !ok {
			if _, ok := u.(*ssa.Defer); ok {
				if cc := u.(*ssa.Defer).Common(); isSame(fence.Receiver(cc), call) {
					if fn := callee(cc); fn != nil && fn.Name() == "Close" {
						c.report(w, "discarded", fmt.Sprintf("the error of fenced write via %s is discarded: a deferred Close drops %s, which is how the fence rejects a stale holder; check Close's error and abort on it", w.Call, rejection("GCS")))
						return
					}
				}
			}
			continue
		}
		if fn := callee(cl.Common()); fn == nil || fn.Name() != "Close" || !isSame(fence.Receiver(cl.Common()), call) {
			continue
		}
		c.checkErr(w, cl, "GCS")
		return
	}
}

// ---- gorm ----

// checkGorm: gorm reports a write its WHERE rejected as success with
// RowsAffected == 0 (not as an error), so a caller that reads only .Error,
// or nothing, carries on as if it had written.
func (c *checker) checkGorm(w *fence.Write, call *ssa.Call) {
	uses := flowUses(call, 0)
	if len(uses) == 0 {
		c.report(w, "discarded", fmt.Sprintf("the result of fenced write via %s is discarded: gorm reports a write the fence rejected as RowsAffected == 0, not as an error; check it and abort", w.Call))
		return
	}
	var st rowsState
	for _, u := range uses {
		fa, ok := u.(*ssa.FieldAddr)
		if !ok {
			st.escapes = true // returned, passed on, stored: handled elsewhere
			continue
		}
		st2, ok := derefStructField(fa)
		if !ok || st2 != "RowsAffected" {
			continue // .Error, .Statement
		}
		for _, r := range *fa.Referrers() {
			if l, ok := r.(*ssa.UnOp); ok && l.Op == token.MUL {
				c.followCount(l, &st)
			}
		}
	}
	c.judgeRows(w, st, fmt.Sprintf("fenced write via %s never compares RowsAffected: gorm reports a write the fence rejected as 0 rows, not as an error; abort when it is 0", w.Call))
}

// derefStructField names the field a FieldAddr selects.
func derefStructField(fa *ssa.FieldAddr) (string, bool) {
	p, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return "", false
	}
	st, ok := p.Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return "", false
	}
	return st.Field(fa.Field).Name(), true
}

type rowsState struct {
	escapes  bool
	compared bool
	// zeroBranch is the block entered when the row count is zero.
	zeroBranch *ssa.BasicBlock
}

// followRows follows a sql.Result / pgconn.CommandTag to RowsAffected and
// its comparison.
func (c *checker) followRows(res ssa.Value) rowsState {
	var st rowsState
	for _, u := range flowUses(res, 0) {
		switch u := u.(type) {
		case *ssa.Call:
			cc := u.Common()
			fn := callee(cc)
			if fn == nil {
				st.escapes = true
				continue
			}
			recv := fence.Receiver(cc)
			if !isSame(recv, res) {
				st.escapes = true // passed to another function
				continue
			}
			switch fn.Name() {
			case "RowsAffected":
				var n ssa.Value = u
				if _, ok := u.Type().(*types.Tuple); ok {
					n = extract(u, 0)
				}
				if n == nil {
					continue
				}
				c.followCount(n, &st)
			case "String":
				st.escapes = true // "UPDATE 0" read as text
			}
		case *ssa.Return, *ssa.Store, *ssa.Send, *ssa.MapUpdate:
			st.escapes = true
		}
	}
	return st
}

func (c *checker) followCount(n ssa.Value, st *rowsState) {
	for _, u := range flowUses(n, 0) {
		switch u := u.(type) {
		case *ssa.BinOp:
			if !isCompare(u.Op) {
				st.escapes = true // arithmetic: give up
				continue
			}
			st.compared = true
			if b := zeroSuccessor(u, n); b != nil {
				st.zeroBranch = b
			}
		case *ssa.Call:
			if isLogCall(u.Common()) {
				continue
			}
			st.escapes = true
		case *ssa.Return, *ssa.Store, *ssa.Send, *ssa.MapUpdate:
			st.escapes = true
		}
	}
}

// zeroSuccessor returns the block taken when the count is 0, for
// `n == 0`, `n != 0`, `n < 1`, `n > 0`, `n >= 1`, `0 == n` ... used by an If.
func zeroSuccessor(b *ssa.BinOp, n ssa.Value) *ssa.BasicBlock {
	var k int64
	op := b.Op
	switch {
	case isSame(b.X, n):
		v, ok := intConst(b.Y)
		if !ok {
			return nil
		}
		k = v
	case isSame(b.Y, n):
		v, ok := intConst(b.X)
		if !ok {
			return nil
		}
		k = v
		op = mirror(op)
	default:
		return nil
	}
	var zeroTrue bool
	switch op {
	case token.EQL:
		zeroTrue = k == 0
	case token.NEQ:
		zeroTrue = k != 0
	case token.LSS:
		zeroTrue = 0 < k
	case token.LEQ:
		zeroTrue = 0 <= k
	case token.GTR:
		zeroTrue = 0 > k
	case token.GEQ:
		zeroTrue = 0 >= k
	}
	for _, r := range *b.Referrers() {
		if iff, ok := r.(*ssa.If); ok && iff.Cond == b {
			succ := iff.Block().Succs
			if len(succ) != 2 {
				return nil
			}
			if zeroTrue {
				return succ[0]
			}
			return succ[1]
		}
	}
	return nil
}

func mirror(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// retries: from the block entered on rejection, control reaches the write
// again without leaving the function, through a loop that is not a range
// over a collection (that writes another item, not the same one again).
func (c *checker) retries(w *fence.Write, from *ssa.BasicBlock) bool {
	target := w.Instr.Block()
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{from}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		if strings.HasPrefix(b.Comment, "range") {
			continue // iterating over items, not retrying
		}
		if b == target {
			return true
		}
		stack = append(stack, b.Succs...)
	}
	return false
}

// ---- SQL QueryRow ... RETURNING ----

func (c *checker) checkQueryRow(w *fence.Write, call *ssa.Call) {
	if !c.returning(w.SQL) {
		return
	}
	var scanErr ssa.Value
	for _, u := range flowUses(call, 0) {
		cu, ok := u.(*ssa.Call)
		if !ok {
			return // the row escapes
		}
		fn := callee(cu.Common())
		if fn == nil || fn.Name() != "Scan" || !isSame(fence.Receiver(cu.Common()), call) {
			return
		}
		scanErr = cu
	}
	if scanErr == nil {
		return // no Scan: the row is not read here
	}
	c.checkErr(w, scanErr, "sql")
}

func (c *checker) returning(sql string) bool {
	stmts, err := c.model.ParseSQL(sql)
	if err != nil {
		return false
	}
	for _, s := range stmts {
		if s.Verb.IsWrite() && len(s.Returning) > 0 {
			return true
		}
	}
	return false
}

// ---- errors of DynamoDB, S3 and Scan ----

func (c *checker) checkErrOnly(w *fence.Write, call *ssa.Call) {
	var err ssa.Value
	switch t := call.Type().(type) {
	case *types.Tuple:
		if t.Len() < 2 {
			return
		}
		err = extract(call, t.Len()-1)
	default:
		if !types.Identical(t, errorType) {
			return
		}
		if refs := call.Referrers(); refs != nil && len(*refs) > 0 {
			err = call // conn.Delete(path, version): the error is the result
		}
	}
	if err == nil {
		c.report(w, "discarded", fmt.Sprintf("the error of fenced write via %s is discarded: a failed condition (%s) is how the fence rejects a stale holder; return it or tell it apart with errors.As", w.Call, rejection(w.Store)))
		return
	}
	c.checkErr(w, err, w.Store)
}

func rejection(store string) string {
	switch store {
	case "DynamoDB":
		return "ConditionalCheckFailedException"
	case "S3":
		return "PreconditionFailed"
	case "ZooKeeper":
		return "zk.ErrBadVersion"
	case "GCS":
		return "a 412 precondition failure"
	}
	return "sql.ErrNoRows"
}

// checkErr judges the uses of a write's error value.
func (c *checker) checkErr(w *fence.Write, err ssa.Value, store string) {
	uses := flowUses(err, 0)
	if len(uses) == 0 {
		c.report(w, "discarded", fmt.Sprintf("the error of fenced write via %s is discarded: %s is how the fence rejects a stale holder; return it or abort on it", w.Call, rejection(store)))
		return
	}
	logged := false
	for _, u := range uses {
		switch u := u.(type) {
		case *ssa.BinOp:
			if !isCompare(u.Op) {
				return
			}
			// The branch taken on the rejection: err == X's true branch,
			// err != X's false branch.
			onRejection := trueBranch(u)
			if u.Op == token.NEQ {
				onRejection = falseBranch(u)
			}
			if isNoRows(u.X) || isNoRows(u.Y) {
				if b := onRejection; b != nil && store == "sql" && returnsSuccess(b) {
					c.reportNoRows(w)
				}
				return // told apart
			}
			if isBadVersion(u.X) || isBadVersion(u.Y) {
				c.judgeRejection(w, onRejection, "zk.ErrBadVersion")
				return
			}
			// err != nil: a nil check alone tells nothing apart
		case *ssa.Call:
			cc := u.Common()
			if isLogCall(cc) {
				logged = true
				continue
			}
			if fn := callee(cc); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && fn.Name() == "Is" && len(cc.Args) == 2 && isNoRows(cc.Args[1]) {
				if b := trueBranch(u); b != nil && store == "sql" && returnsSuccess(b) {
					c.reportNoRows(w)
				}
				return
			}
			if fn := callee(cc); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && fn.Name() == "Is" && len(cc.Args) == 2 && isBadVersion(cc.Args[1]) {
				c.judgeRejection(w, trueBranch(u), "zk.ErrBadVersion")
				return
			}
			if fn := callee(cc); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && fn.Name() == "As" && len(cc.Args) == 2 {
				if exc := conditionFailure(cc.Args[1]); exc != "" {
					c.judgeRejection(w, trueBranch(u), exc)
				} else if b := preconditionFailedBranch(cc.Args[1]); b != nil {
					c.judgeRejection(w, b, "PreconditionFailed")
				}
				return
			}
			return // errors.As, wrapping, any other function: handled
		default:
			return // returned, stored, sent, type-switched: handled
		}
	}
	if !logged {
		return // only compared with nil: the branch decides; not judged
	}
	c.report(w, "unchecked", fmt.Sprintf("the error of fenced write via %s is only logged: %s means a newer holder has written; abort instead of carrying on", w.Call, rejection(store)))
}

// conditionFailure names the exception an errors.As target stands for
// when it is DynamoDB's rejection of a failed condition: &ccf with
// ccf *types.ConditionalCheckFailedException (or, for TransactWriteItems,
// *types.TransactionCanceledException).
func conditionFailure(target ssa.Value) string {
	t := strip(target).Type()
	for range 2 {
		p, ok := t.Underlying().(*types.Pointer)
		if !ok {
			break
		}
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "github.com/aws/aws-sdk-go-v2/service/dynamodb/types" {
		return ""
	}
	switch name := n.Obj().Name(); name {
	case "ConditionalCheckFailedException", "TransactionCanceledException":
		return name
	}
	return ""
}

// preconditionFailedBranch: for errors.As(err, &apiErr) with apiErr a
// smithy.APIError, the block entered when apiErr.ErrorCode() equals
// "PreconditionFailed" (S3's answer to a failed IfMatch/IfNoneMatch).
func preconditionFailedBranch(target ssa.Value) *ssa.BasicBlock {
	alloc, ok := strip(target).(*ssa.Alloc)
	if !ok || alloc.Referrers() == nil {
		return nil
	}
	p, ok := alloc.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "github.com/aws/smithy-go" || n.Obj().Name() != "APIError" {
		return nil
	}
	for _, r := range *alloc.Referrers() {
		load, ok := r.(*ssa.UnOp)
		if !ok || load.Op != token.MUL || load.Referrers() == nil {
			continue
		}
		for _, lr := range *load.Referrers() {
			call, ok := lr.(*ssa.Call)
			if !ok || !call.Common().IsInvoke() || call.Common().Method.Name() != "ErrorCode" || call.Referrers() == nil {
				continue
			}
			for _, cr := range *call.Referrers() {
				bo, ok := cr.(*ssa.BinOp)
				if !ok || (bo.Op != token.EQL && bo.Op != token.NEQ) {
					continue
				}
				other := bo.Y
				if other == call {
					other = bo.X
				}
				if k, ok := other.(*ssa.Const); !ok || k.Value == nil || k.Value.ExactString() != `"PreconditionFailed"` {
					continue
				}
				if bo.Op == token.NEQ {
					return falseBranch(bo)
				}
				return trueBranch(bo)
			}
		}
	}
	return nil
}

// judgeRejection: the branch taken on the store's rejection must abort;
// one that goes back to the write (a retry loop) or returns success
// carries on as if the stale holder still held the lock.
func (c *checker) judgeRejection(w *fence.Write, b *ssa.BasicBlock, exc string) {
	switch {
	case b == nil:
	case c.retries(w, b):
		c.report(w, "retried", fmt.Sprintf("fenced write via %s is re-issued after the fence rejected it (%s): a newer holder has written; abort, do not retry", w.Call, exc))
	case returnsSuccess(b):
		c.report(w, "unchecked", fmt.Sprintf("fenced write via %s treats %s as success: the fence rejected a stale holder; abort, do not carry on", w.Call, exc))
	}
}

func (c *checker) reportNoRows(w *fence.Write) {
	c.report(w, "unchecked", fmt.Sprintf("fenced write via %s treats ErrNoRows as success: no row returned means a newer holder has already written; abort, do not carry on", w.Call))
}

// isNoRows: a load of database/sql.ErrNoRows or pgx.ErrNoRows.
func isNoRows(v ssa.Value) bool {
	p, ok := sentinelPkg(v, "ErrNoRows")
	return ok && (p == "database/sql" || strings.HasPrefix(p, "github.com/jackc/pgx"))
}

// sentinelPkg returns the package of the error variable name that v loads.
func sentinelPkg(v ssa.Value, name string) (string, bool) {
	load, ok := strip(v).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return "", false
	}
	g, ok := load.X.(*ssa.Global)
	if !ok || g.Name() != name || g.Pkg == nil {
		return "", false
	}
	return g.Pkg.Pkg.Path(), true
}

// isBadVersion: a load of go-zookeeper's zk.ErrBadVersion, the answer to a
// Set or Delete whose expected version no longer matches.
func isBadVersion(v ssa.Value) bool {
	p, ok := sentinelPkg(v, "ErrBadVersion")
	return ok && rules.IsZooKeeperPath(p)
}

// falseBranch returns the block an If on v enters when v is false.
func falseBranch(v ssa.Value) *ssa.BasicBlock { return branch(v, false) }

// trueBranch returns the block an If on v enters when v is true.
func trueBranch(v ssa.Value) *ssa.BasicBlock { return branch(v, true) }

// branch returns the block an If on v enters when v equals want, looking
// through one negation (ok := !done; if ok {...}: the builder folds a
// negated if condition itself, a negated value it does not).
func branch(v ssa.Value, want bool) *ssa.BasicBlock {
	succ := func(iff *ssa.If, want bool) *ssa.BasicBlock {
		if want {
			return iff.Block().Succs[0]
		}
		return iff.Block().Succs[1]
	}
	refs := v.Referrers()
	if refs == nil {
		return nil
	}
	for _, r := range *refs {
		if iff, ok := r.(*ssa.If); ok && len(iff.Block().Succs) == 2 {
			return succ(iff, want)
		}
		if u, ok := r.(*ssa.UnOp); ok && u.Op == token.NOT {
			for _, r2 := range *u.Referrers() {
				if iff, ok := r2.(*ssa.If); ok && len(iff.Block().Succs) == 2 {
					return succ(iff, !want)
				}
			}
		}
	}
	return nil
}

// returnsSuccess: the block goes straight (through plain jumps) to a
// return whose error results are all nil.
func returnsSuccess(b *ssa.BasicBlock) bool {
	for range 8 {
		if len(b.Instrs) == 0 {
			return false
		}
		switch last := b.Instrs[len(b.Instrs)-1].(type) {
		case *ssa.Return:
			sawErr := false
			for _, r := range last.Results {
				if types.Identical(r.Type(), errorType) {
					sawErr = true
					if k, ok := r.(*ssa.Const); !ok || !k.IsNil() {
						return false
					}
				}
			}
			return sawErr
		case *ssa.Jump:
			b = b.Succs[0]
		default:
			return false
		}
	}
	return false
}

var errorType = types.Universe.Lookup("error").Type()

// ---- etcd Txn ----

func (c *checker) checkTxn(w *fence.Write, call *ssa.Call) {
	resp := extract(call, 0)
	if resp == nil {
		c.report(w, "discarded", fmt.Sprintf("the TxnResponse of fenced write via %s is discarded: a failed If is not an error, only Succeeded == false says the write was rejected", w.Call))
		return
	}
	for _, u := range flowUses(resp, 0) {
		switch u := u.(type) {
		case *ssa.FieldAddr:
			if fieldName(u.X.Type(), u.Field) == "Succeeded" {
				return
			}
		case *ssa.Field:
			if fieldName(u.X.Type(), u.Field) == "Succeeded" {
				return
			}
		case *ssa.Call:
			if isLogCall(u.Common()) {
				continue
			}
			return // passed on: handled
		case *ssa.Return, *ssa.Store, *ssa.Send, *ssa.MapUpdate:
			return
		}
	}
	c.report(w, "unchecked", fmt.Sprintf("fenced write via %s never reads TxnResponse.Succeeded: a failed If is not an error; abort when Succeeded is false", w.Call))
}

func fieldName(t types.Type, i int) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return ""
	}
	return st.Field(i).Name()
}

// hasPrecondition: the S3 input literal sets IfMatch or IfNoneMatch.
func hasPrecondition(call *ssa.Call) bool {
	cc := call.Common()
	args := cc.Args
	if fence.Receiver(cc) != nil && !cc.IsInvoke() {
		args = args[1:]
	}
	if len(args) < 2 {
		return false
	}
	base := strip(args[1]) // (ctx, input, ...)
	if base.Referrers() == nil {
		return false
	}
	for _, r := range *base.Referrers() {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.X != base {
			continue
		}
		switch fieldName(fa.X.Type(), fa.Field) {
		case "IfMatch", "IfNoneMatch":
			return true
		}
	}
	return false
}
