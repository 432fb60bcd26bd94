package fence

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/fencelint/fencelint/internal/lazyregexp"
	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// OutcomeKind says how a store tells its caller that a fence rejected a
// write. A fence rejects a stale holder without an error in most stores,
// so each store has its own signal.
type OutcomeKind uint8

const (
	// OutcomeNone: not modelled (unconditional write, go/defer call, a
	// write inside a helper); nothing is judged.
	OutcomeNone OutcomeKind = iota
	// OutcomeRows: a database/sql Result or pgx CommandTag whose
	// RowsAffected() is 0.
	OutcomeRows
	// OutcomeRowsField: gorm's *DB whose RowsAffected field is 0 (the
	// write is not an error).
	OutcomeRowsField
	// OutcomeNoRow: the Scan error of an UPDATE ... RETURNING query is
	// sql.ErrNoRows / pgx.ErrNoRows.
	OutcomeNoRow
	// OutcomeSucceeded: etcd's TxnResponse.Succeeded is false.
	OutcomeSucceeded
	// OutcomeOK: consul's ok result is false, with a nil error.
	OutcomeOK
	// OutcomeError: the write's error is the store's condition failure
	// (DynamoDB ConditionalCheckFailedException, S3 PreconditionFailed,
	// zk.ErrBadVersion, a GCS 412).
	OutcomeError
	// OutcomeCloseError: the condition failure comes from Close of the
	// writer the call returned (a GCS conditional upload).
	OutcomeCloseError
	// OutcomeReply: a Redis script's reply is its verdict: the script
	// returns one number when it wrote and another when the token was
	// stale, and neither is an error.
	OutcomeReply
	// OutcomeDropped: the call that runs the write throws the rejection
	// away (gocql's Exec of a lightweight transaction drops [applied]).
	OutcomeDropped
)

func (k OutcomeKind) String() string {
	switch k {
	case OutcomeRows:
		return "rows"
	case OutcomeRowsField:
		return "rows-field"
	case OutcomeNoRow:
		return "no-row"
	case OutcomeSucceeded:
		return "succeeded"
	case OutcomeOK:
		return "ok"
	case OutcomeError:
		return "error"
	case OutcomeCloseError:
		return "close-error"
	case OutcomeReply:
		return "reply"
	case OutcomeDropped:
		return "dropped"
	}
	return "none"
}

// Handling says what the code after a write does with its outcome.
type Handling uint8

const (
	// Handled: compared, told apart, or handed on (returned, passed to
	// another function, stored): precision first, it is assumed handled.
	Handled Handling = iota
	// Discarded: the outcome is thrown away.
	Discarded
	// DiscardedByDefer: the writer's Close, which carries the outcome, is
	// deferred and its error dropped.
	DiscardedByDefer
	// NeverRead: the outcome value is used, but the rejection signal
	// (RowsAffected, ok, Succeeded) is never compared or read.
	NeverRead
	// Logged: the error is only logged.
	Logged
	// AsSuccess: the branch taken on a rejection returns success.
	AsSuccess
	// Retried: the branch taken on a rejection loops back to the write.
	Retried
)

func (h Handling) String() string {
	switch h {
	case Discarded:
		return "discarded"
	case DiscardedByDefer:
		return "discarded-by-defer"
	case NeverRead:
		return "never-read"
	case Logged:
		return "logged"
	case AsSuccess:
		return "as-success"
	case Retried:
		return "retried"
	}
	return "handled"
}

// Outcome is how a fenced write's rejection reaches the caller, and what
// the caller does with it.
type Outcome struct {
	Kind OutcomeKind
	// Rejection is the store's name for a rejection, as messages say it:
	// "0 rows", "sql.ErrNoRows", "ConditionalCheckFailedException",
	// "PreconditionFailed", "zk.ErrBadVersion", "a 412 precondition
	// failure". For AsSuccess and Retried it is the error the code told
	// apart (TransactionCanceledException, say).
	Rejection string
	Handling  Handling
	// Accessor is the declared method or field that reads the rejection
	// ("RowsAffected", "Succeeded"), and Result the declared response
	// type ("TxnResponse"), for messages; "" when none.
	Accessor, Result string
	// Test is where the code tells the rejection apart (n == 0,
	// errors.Is(err, ...)) for AsSuccess and Retried; NoPos otherwise.
	Test token.Pos
}

// defect is the defect a write with this handling has, and its
// silentreject category; 0 when it has none.
func (h Handling) defect() (DefectKind, string) {
	switch h {
	case Discarded, DiscardedByDefer:
		return DefectDiscarded, "discarded"
	case NeverRead, Logged, AsSuccess:
		return DefectUnchecked, "unchecked"
	case Retried:
		return DefectRetried, "retried"
	}
	return 0, ""
}

// judgeOutcomes gives every fenced write an Outcome and turns a
// mishandled one into a defect. It runs after analyze: transactions can
// turn a statement's verdict into Fenced only once their function is done.
//
// The defects (DefectDiscarded, DefectUnchecked, DefectRetried) are
// anchored at the write call, with Category "discarded", "unchecked" or
// "retried" and an empty Detail: the analyzer words them from
// Write.Outcome. Related holds Outcome.Test when there is one.
func (e *engine) judgeOutcomes() {
	for _, w := range e.model.Writes {
		switch w.Verdict {
		case Fenced, WrongPredicate, WeakToken:
		default:
			continue // nothing fences it, so nothing rejects it
		}
		site, ok := e.sites[w]
		if !ok {
			continue
		}
		call, ok := site.instr.(*ssa.Call)
		if !ok {
			continue // go and defer discard by construction; not judged
		}
		e.guard(site.fn, func() {
			j := &outcomeJudge{e: e, w: w, call: call}
			if w.Helper != "" {
				// Inside a called function: judged only when the helper
				// hands the rejection back (helperoutcome.go).
				j.judgeHelper()
			} else {
				j.judge()
			}
			w.Outcome = j.out
			if k, cat := j.out.Handling.defect(); k != 0 {
				d := &Defect{Kind: k, Pos: w.Pos, End: w.End, Write: w, Category: cat}
				if j.out.Test.IsValid() {
					d.Related = []Related{{Pos: j.out.Test, End: j.out.Test, Message: "the rejection is told apart here"}}
				}
				e.model.Defects = append(e.model.Defects, d)
			}
		})
	}
}

// writeSite locates a Write in SSA; it stays in the engine, so the Model
// holds no SSA.
type writeSite struct {
	instr ssa.Instruction
	fn    *ssa.Function
}

// outcomeJudge follows one write's result.
type outcomeJudge struct {
	e    *engine
	w    *Write
	call *ssa.Call
	// rw is the write's rule; decl its declared outcome (rules/outcome.go).
	rw   *rules.Write
	decl rules.Outcome
	// k is the model's OutcomeKind for decl.Kind (outcomeReaders).
	k   OutcomeKind
	out Outcome
	// claim: the call is a lease-table claim; its refusal is the lock
	// being held by another, whatever its condition compares.
	claim bool
}

// set records the outcome; the first verdict on a write stands.
func (j *outcomeJudge) set(k OutcomeKind, rejection string, h Handling) {
	acc := j.decl.Method
	if j.decl.Field != "" {
		acc = j.decl.Field
	}
	j.out = Outcome{Kind: k, Rejection: rejection, Handling: h, Accessor: acc, Result: j.decl.Result}
}

// outcomeReader is the engine's reader of one declared rejection kind:
// the model's OutcomeKind it produces, and how it follows the result.
type outcomeReader struct {
	kind OutcomeKind
	read func(*outcomeJudge)
}

// outcomeReaders has one reader per rules.Rejection; a write declared
// RejectNever or RejectUnmodelled is not followed. The contract test
// (outcome_contract_test.go) requires an entry for every rules.Rejections.
var outcomeReaders = map[rules.Rejection]outcomeReader{
	rules.RejectNever:        {OutcomeNone, nil},
	rules.RejectUnmodelled:   {OutcomeNone, nil},
	rules.RejectRowsAffected: {OutcomeRows, (*outcomeJudge).rowsAffected},
	rules.RejectRowsField:    {OutcomeRowsField, (*outcomeJudge).rowsField},
	rules.RejectNoRow:        {OutcomeNoRow, (*outcomeJudge).noRow},
	rules.RejectFlagField:    {OutcomeSucceeded, (*outcomeJudge).flagField},
	rules.RejectFlag:         {OutcomeOK, (*outcomeJudge).flag},
	rules.RejectError:        {OutcomeError, (*outcomeJudge).errOnly},
	rules.RejectCloseError:   {OutcomeCloseError, (*outcomeJudge).closeError},
	rules.RejectReply:        {OutcomeReply, (*outcomeJudge).scriptReply},
	rules.RejectDropped:      {OutcomeDropped, (*outcomeJudge).dropped},
}

// judge follows the write's result with the reader of the outcome its
// rule declares. Nothing here looks at the store's or the method's name.
func (j *outcomeJudge) judge() {
	fn := calleeFunc(j.call.Common())
	if fn == nil {
		return
	}
	rw, ok := j.e.writeOf(fn)
	if !ok {
		return
	}
	j.rw, j.decl = rw, rw.Outcome
	r, ok := outcomeReaders[rw.Outcome.Kind]
	if !ok || r.read == nil || !j.rejectable() {
		return
	}
	j.k = r.kind
	r.read(j)
}

// rejectable: the write's own condition, as its mechanism reads it, can
// reject it. A SQL or gorm write fenced by its transaction (no compare of
// its own) and an S3 or Azure write fenced by a token-named object (no
// precondition) are never rejected, so their results say nothing.
func (j *outcomeJudge) rejectable() bool {
	switch j.rw.Kind {
	case rules.SQLWrite, rules.SQLStmtWrite, rules.GormChain, rules.CQLQuery, rules.CQLBatch, rules.MongoWrite, rules.MongoBulk:
		return len(j.w.Compares) > 0 || j.claim
	case rules.S3Write:
		return hasPrecondition(j.call, j.rw.InputArg)
	case rules.AzureWrite:
		return j.azurePrecondition()
	}
	return true
}

// azurePrecondition: the write's options set an AccessConditions
// precondition, so the service answers a stale holder with 412.
func (j *outcomeJudge) azurePrecondition() bool {
	ps := params(j.call.Common())
	if j.rw.InputArg < 0 || j.rw.InputArg >= len(ps) {
		return false
	}
	conditioned, ok := j.e.azureConditioned(ps[j.rw.InputArg])
	return ok && conditioned
}

// ---- a call that drops the rejection (RejectDropped) ----

// dropped: the call that runs the write discards the store's answer to
// its condition (gocql's Exec of a lightweight transaction drops the
// [applied] column), so nothing after it can tell a rejection apart.
func (j *outcomeJudge) dropped() {
	j.set(j.k, j.decl.Name, Discarded)
}

// ---- script replies (RejectReply) ----

// scriptReply: a fencing script's reply says whether it wrote. A Cmd
// thrown away loses it. When the script answers a stale token with a
// number (return 0) rather than an error or a nil reply, which the error
// accessor (Err()) would see, a Cmd whose reply is never compared loses it
// too: only Err() is read, or a Values accessor's (Int()'s) value only
// logged.
func (j *outcomeJudge) scriptReply() {
	k, rej := j.k, j.decl.Name
	uses := outcomeUses(j.call, 0)
	if len(uses) == 0 {
		j.set(k, rej, Discarded)
		return
	}
	j.set(k, rej, Handled)
	src, ok := j.e.scriptText(j.call.Common(), j.rw)
	if !ok || !repliesByNumber(src) {
		return // the rejection may be an error or a nil reply: Err() sees those
	}
	for _, u := range uses {
		if j.isErrCall(u, j.call) {
			continue
		}
		c, ok := u.(*ssa.Call)
		if !ok || !sameValue(receiver(c.Common()), j.call) {
			return // handed on
		}
		switch f := calleeFunc(c.Common()); {
		case f == nil:
			return
		case slices.Contains(j.decl.Values, f.Name()):
			v := usedExtract(c, 0)
			if v == nil {
				continue // only its error is read
			}
			var st rowsState
			followCount(v, &st)
			if st.escapes || st.compared {
				return
			}
		default:
			return // Result, Val, Bool, Text, ...: read; not followed
		}
	}
	j.out.Handling = NeverRead
}

// isErrCall: u is cmd.Err() (the declared error accessor), directly or through the embedded field Err
// is promoted from (go-redis's baseCmd).
func (j *outcomeJudge) isErrCall(u ssa.Instruction, cmd ssa.Value) bool {
	switch u := u.(type) {
	case *ssa.Call:
		f := calleeFunc(u.Common())
		return f != nil && f.Name() == j.decl.Method && sameValue(receiver(u.Common()), cmd)
	case *ssa.FieldAddr:
		refs := u.Referrers()
		if refs == nil || len(*refs) == 0 {
			return false
		}
		for _, r := range *refs {
			if !j.isErrCall(r, u) {
				return false
			}
		}
		return true
	}
	return false
}

// scriptText is the Lua source of a script call, as evalRedisScript
// reads it.
func (e *engine) scriptText(cc *ssa.CallCommon, rw *rules.Write) (string, bool) {
	ps := params(cc)
	if rw.QueryArg >= 0 && rw.QueryArg < len(ps) {
		return constString(ps[rw.QueryArg])
	}
	if r := receiver(cc); r != nil {
		return e.scriptSource(r)
	}
	return "", false
}

var (
	luaReturn       = lazyregexp.New(`\breturn\b\s*([^\s;]*)`)
	luaNumber       = lazyregexp.New(`^-?\d+$`)
	luaEndsInReturn = lazyregexp.New(`(^|[\s;])return\s+-?\d+\s*;?$`)
	luaErrorLike    = lazyregexp.New(`error_reply|\{\s*err\s*=|redis\.error|\berror\s*\(`)
)

// repliesByNumber: every return of the script returns a number literal,
// there are at least two different ones (a "wrote" and a "stale"), no
// error is raised on purpose, and the script ends in one of those returns
// (so no path falls off its end with a nil reply). Anything else is not
// judged: the rejection might be an error or a nil reply.
func repliesByNumber(src string) bool {
	var code []string
	for _, line := range strings.Split(src, "\n") {
		if l := strings.TrimSpace(stripLuaStrings(line)); l != "" {
			code = append(code, l)
		}
	}
	if len(code) == 0 || luaErrorLike.MatchString(src) {
		return false
	}
	values := map[string]bool{}
	for _, l := range code {
		for _, m := range luaReturn.FindAllStringSubmatch(l, -1) {
			if !luaNumber.MatchString(m[1]) {
				return false // return nil, return false, return cur, a bare return
			}
			values[m[1]] = true
		}
	}
	return len(values) >= 2 && luaEndsInReturn.MatchString(code[len(code)-1])
}

// ---- a count method (RejectRowsAffected) ----

// rowsAffected: result 0's declared Method (RowsAffected) is the number
// of rows written, and 0 the rejection.
func (j *outcomeJudge) rowsAffected() {
	var res ssa.Value
	if _, ok := j.call.Type().(*types.Tuple); ok {
		res = usedExtract(j.call, 0)
	} else if refs := j.call.Referrers(); refs != nil && len(*refs) > 0 {
		res = j.call // sqlx's MustExec: the result alone (it panics on an error)
	}
	if res == nil {
		j.set(j.k, j.decl.Name, Discarded)
		return
	}
	j.judgeRows(j.followRows(res))
}

// judgeRows records what a fenced write does with its row count: nothing
// when it escapes or is compared, a retry when the zero branch re-issues
// the write, never read otherwise.
func (j *outcomeJudge) judgeRows(st rowsState) {
	k, rej := j.k, j.decl.Name
	switch {
	case st.escapes:
		j.set(k, rej, Handled)
	case st.zeroBranch != nil:
		j.set(k, rej, Handled)
		switch {
		case j.retries(st.zeroBranch):
			j.set(k, rej, Retried)
			j.out.Test = st.zeroTest
		case rejoins(st.zeroBranch, j.call.Block(), false):
			// if n == 0 { log.Printf("stale") }: told apart, then the
			// same path as a write that succeeded.
			j.set(k, rej, Logged)
			j.out.Test = st.zeroTest
		}
	case st.compared:
		j.set(k, rej, Handled)
	default:
		j.set(k, rej, NeverRead)
	}
}

// ---- a bool result (RejectFlag) ----

// flag: the store reports a failed check as a false bool result with a
// nil error (consul's CAS, Acquire, Txn), so the bool is the outcome.
func (j *outcomeJudge) flag() {
	ok := usedExtract(j.call, 0)
	if ok == nil {
		j.set(j.k, j.decl.Name, Discarded)
		return
	}
	j.set(j.k, j.decl.Name, Handled)
	for _, u := range outcomeUses(ok, 0) {
		switch u := u.(type) {
		case *ssa.If, *ssa.BinOp, *ssa.UnOp, *ssa.Return, *ssa.Store, *ssa.Send, *ssa.MapUpdate, *ssa.Phi:
			return // tested, or handed on
		case *ssa.Call:
			if isLogCall(u.Common()) {
				continue
			}
			return
		}
	}
	j.out.Handling = NeverRead
}

// ---- the error of a writer's Close (RejectCloseError) ----

// closeError: a conditional upload reports its precondition failure from
// the declared Method (Close) of the writer it returned (a GCS Writer), so
// that call's error is the write's outcome.
func (j *outcomeJudge) closeError() {
	k, rej, closer := j.k, j.decl.Name, j.decl.Method
	for _, u := range outcomeUses(j.call, 0) {
		cl, ok := u.(*ssa.Call)
		if !ok {
			if d, ok := u.(*ssa.Defer); ok {
				if cc := d.Common(); sameValue(receiver(cc), j.call) {
					if fn := calleeFunc(cc); fn != nil && fn.Name() == closer {
						j.set(k, rej, DiscardedByDefer)
						return
					}
				}
			}
			continue
		}
		if fn := calleeFunc(cl.Common()); fn == nil || fn.Name() != closer || !sameValue(receiver(cl.Common()), j.call) {
			continue
		}
		j.checkErr(cl)
		return
	}
}

// ---- a count field (RejectRowsField) ----

// rowsField: the store reports a write its condition rejected as success
// with the declared count Field of the returned handle at 0 (gorm's
// RowsAffected), not as an error, so a caller that reads only .Error, or
// nothing, carries on as if it had written.
func (j *outcomeJudge) rowsField() {
	var res ssa.Value = j.call
	if _, ok := j.call.Type().(*types.Tuple); ok {
		// (*mongo.UpdateResult, error): the handle is result 0.
		if res = usedExtract(j.call, 0); res == nil {
			j.set(j.k, j.decl.Name, Discarded)
			return
		}
	}
	uses := outcomeUses(res, 0)
	if len(uses) == 0 {
		j.set(j.k, j.decl.Name, Discarded)
		return
	}
	var st rowsState
	for _, u := range uses {
		fa, ok := u.(*ssa.FieldAddr)
		if !ok {
			st.escapes = true // returned, passed on, stored: handled elsewhere
			continue
		}
		if f := structFieldName(fa.X.Type(), fa.Field); f != j.decl.Field && !slices.Contains(j.decl.Values, f) {
			continue // .Error, .Statement, .UpsertedID
		}
		for _, r := range *fa.Referrers() {
			if l, ok := r.(*ssa.UnOp); ok && l.Op == token.MUL {
				followCount(l, &st)
			}
		}
	}
	j.judgeRows(st)
}

type rowsState struct {
	escapes  bool
	compared bool
	// zeroBranch is the block entered when the row count is zero, and
	// zeroTest the comparison that leads there.
	zeroBranch *ssa.BasicBlock
	zeroTest   token.Pos
}

// followRows follows a sql.Result / pgconn.CommandTag to the declared
// count method (RowsAffected) and its comparison.
func (j *outcomeJudge) followRows(res ssa.Value) rowsState {
	var st rowsState
	for _, u := range outcomeUses(res, 0) {
		switch u := u.(type) {
		case *ssa.Call:
			cc := u.Common()
			fn := calleeFunc(cc)
			if fn == nil {
				st.escapes = true
				continue
			}
			if !sameValue(receiver(cc), res) {
				if isLogCall(cc) {
					continue // log.Printf("%v", tag): printed, not read
				}
				st.escapes = true // passed to another function
				continue
			}
			switch fn.Name() {
			case j.decl.Method:
				var n ssa.Value = u
				if _, ok := u.Type().(*types.Tuple); ok {
					n = usedExtract(u, 0)
				}
				if n == nil {
					continue
				}
				followCount(n, &st)
			case "String":
				if !onlyLogged(u) {
					st.escapes = true // "UPDATE 0" read as text
				}
			}
		case *ssa.Return, *ssa.Store, *ssa.Send, *ssa.MapUpdate:
			st.escapes = true
		}
	}
	return st
}

// rootParam is the parameter v is read from (id, ids[0], l.Token,
// *p), or nil.
func rootParam(v ssa.Value) *ssa.Parameter {
	for range 8 {
		switch x := stripValue(v).(type) {
		case *ssa.Parameter:
			return x
		case *ssa.UnOp:
			v = x.X
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.Index:
			v = x.X
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		default:
			return nil
		}
	}
	return nil
}

// onlyLogged: every use of v is a log call's argument.
func onlyLogged(v ssa.Value) bool {
	uses := outcomeUses(v, 0)
	for _, u := range uses {
		c, ok := u.(*ssa.Call)
		if !ok || !isLogCall(c.Common()) {
			return false
		}
	}
	return len(uses) > 0
}

func followCount(n ssa.Value, st *rowsState) {
	for _, u := range outcomeUses(n, 0) {
		switch u := u.(type) {
		case *ssa.BinOp:
			if !isCompare(u.Op) {
				st.escapes = true // arithmetic: give up
				continue
			}
			st.compared = true
			if b := zeroBranch(u, n); b != nil {
				st.zeroBranch, st.zeroTest = b, u.Pos()
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

// zeroBranch returns the block taken when the count is 0, for `n == 0`,
// `n != 0`, `n < 1`, `n > 0`, `n >= 1`, `0 == n` ... used by an If.
func zeroBranch(b *ssa.BinOp, n ssa.Value) *ssa.BasicBlock {
	var k int64
	op := b.Op
	switch {
	case sameValue(b.X, n):
		v, ok := constInt(b.Y)
		if !ok {
			return nil
		}
		k = v
	case sameValue(b.Y, n):
		v, ok := constInt(b.X)
		if !ok {
			return nil
		}
		k = v
		op = mirrorOp(op)
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

// mirrorOp turns `k op n` into `n op' k`.
func mirrorOp(op token.Token) token.Token {
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
// again without leaving the function, and it is the same write: not the
// next item of a range over a collection, and not one whose arguments
// change on the way back (ids[i] of a counting loop, a refreshed token).
// A call that cannot return ends a path: the SSA builder puts a panic
// after it (see noReturns).
func (j *outcomeJudge) retries(from *ssa.BasicBlock) bool {
	target := j.call.Block()
	deps, ok := phiDeps(j.call)
	if !ok {
		return false // too much to follow: not judged
	}
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{from}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		if strings.HasPrefix(b.Comment, "range") && !strings.HasPrefix(b.Comment, "rangeint") {
			continue // iterating over items, not retrying
		}
		if changesInput(b, deps) {
			continue // a loop variable the write reads moves on here: another write
		}
		if invokesNoReturn(b) {
			continue // tb.Fatalf through testing.TB: the SSA builder ends only static calls
		}
		if b == target || j.recurses(b) {
			return true
		}
		stack = append(stack, b.Succs...)
	}
	return false
}

// recurses: b calls the function the write is in again, passing on
// unchanged every parameter the write takes directly (return
// save(ctx, db, id, tries+1) after 0 rows): a retry by recursion.
func (j *outcomeJudge) recurses(b *ssa.BasicBlock) bool {
	fn := j.call.Parent()
	if fn.Parent() != nil {
		return false // a closure cannot call itself by name
	}
	for _, instr := range b.Instrs {
		call, ok := instr.(*ssa.Call)
		if !ok || call.Common().StaticCallee() != fn {
			continue
		}
		args := call.Common().Args
		var reads []ssa.Value
		for _, a := range j.call.Common().Args {
			if vs, ok := unpackVariadic(a); ok {
				reads = append(reads, vs...) // ExecContext(ctx, q, args...): each argument
				continue
			}
			reads = append(reads, a)
		}
		for _, a := range reads {
			p := rootParam(a)
			if p == nil {
				continue
			}
			i := slices.Index(fn.Params, p)
			if i < 0 || i >= len(args) || args[i] != ssa.Value(p) {
				return false // another id, another write
			}
		}
		return true
	}
	return false
}

// invokesNoReturn: b calls, through an interface, a method that cannot
// return (rules.NoReturn lists testing.TB's).
func invokesNoReturn(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		if c, ok := instr.(*ssa.Call); ok && c.Common().IsInvoke() && rules.IsNoReturn(c.Common().Method) {
			return true
		}
	}
	return false
}

// phiDeps returns the phis the write's operands depend on (the values a
// loop changes from one iteration to the next). ok is false when the
// operands lead to more values than the budget allows.
func phiDeps(call *ssa.Call) (map[*ssa.Phi]bool, bool) {
	const budget = 256 // values visited; a write's arguments are a few dozen at most
	deps := map[*ssa.Phi]bool{}
	seen := map[ssa.Value]bool{}
	var stack []ssa.Value
	push := func(ops []*ssa.Value) {
		for _, op := range ops {
			if v := *op; v != nil && !seen[v] {
				seen[v] = true
				stack = append(stack, v)
			}
		}
	}
	push(call.Operands(nil))
	for len(stack) > 0 {
		if len(seen) > budget {
			return nil, false
		}
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if p, ok := v.(*ssa.Phi); ok {
			deps[p] = true
		}
		if instr, ok := v.(ssa.Instruction); ok {
			push(instr.Operands(nil))
		}
		if a, ok := v.(*ssa.Alloc); ok {
			// Have: the variadic []any{...} or a &T{...} argument: its
			// contents are stored into it, not operands of it.
			for _, sv := range allocStores(a) {
				push([]*ssa.Value{&sv})
			}
		}
	}
	return deps, true
}

// allocStores returns the values stored into a (and into its elements
// and fields, one level down).
func allocStores(a *ssa.Alloc) []ssa.Value {
	var out []ssa.Value
	refs := a.Referrers()
	if refs == nil {
		return nil
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr == a {
				out = append(out, r.Val)
			}
		case *ssa.IndexAddr, *ssa.FieldAddr:
			if rr := r.(ssa.Value).Referrers(); rr != nil {
				for _, x := range *rr {
					if st, ok := x.(*ssa.Store); ok && st.Addr == r.(ssa.Value) {
						out = append(out, st.Val)
					}
				}
			}
		}
	}
	return out
}

// changesInput: b merges a new value into something the write reads.
func changesInput(b *ssa.BasicBlock, deps map[*ssa.Phi]bool) bool {
	for _, instr := range b.Instrs {
		p, ok := instr.(*ssa.Phi)
		if !ok {
			return false // phis come first in a block
		}
		if deps[p] {
			return true
		}
	}
	return false
}

// ---- a row whose Scan fails (RejectNoRow) ----

// noRow: UPDATE ... RETURNING through QueryRow returns no row when the
// condition rejected it; the declared Method (Scan) then returns one of
// the declared Sentinels (sql.ErrNoRows).
func (j *outcomeJudge) noRow() {
	sql := j.rw.Kind.Mechanism() == rules.MechText
	if sql && !j.returning(j.w.SQL) {
		return
	}
	uses := outcomeUses(j.call, 0)
	if len(uses) == 0 && !sql {
		// A MongoDB FindOneAndUpdate whose result is dropped: the
		// document that says it matched is never looked at.
		j.set(j.k, j.decl.Name, Discarded)
		return
	}
	var scanErr ssa.Value
	for _, u := range uses {
		cu, ok := u.(*ssa.Call)
		if !ok {
			return // the row escapes
		}
		fn := calleeFunc(cu.Common())
		if fn == nil || (fn.Name() != j.decl.Method && !slices.Contains(j.decl.Values, fn.Name())) || !sameValue(receiver(cu.Common()), j.call) {
			return
		}
		scanErr = cu
	}
	if scanErr == nil {
		return // no Scan: the row is not read here
	}
	j.checkErr(scanErr)
}

func (j *outcomeJudge) returning(sql string) bool {
	for _, s := range j.e.parseSQL(sql) {
		if s.Verb.IsWrite() && len(s.Returning) > 0 {
			return true
		}
	}
	return false
}

// ---- the call's error (RejectError) ----

// errOnly: the write's error result is its condition failure
// (ConditionalCheckFailedException, PreconditionFailed, zk.ErrBadVersion,
// a 412).
func (j *outcomeJudge) errOnly() {
	var err ssa.Value
	switch t := j.call.Type().(type) {
	case *types.Tuple:
		if t.Len() < 2 {
			return
		}
		err = usedExtract(j.call, t.Len()-1)
	default:
		if !types.Identical(t, errorType) {
			return
		}
		if refs := j.call.Referrers(); refs != nil && len(*refs) > 0 {
			err = j.call // conn.Delete(path, version): the error is the result
		}
	}
	if err == nil {
		j.set(j.k, j.decl.Name, Discarded)
		return
	}
	j.checkErr(err)
}

// checkErr judges the uses of a write's error value: thrown away, only
// logged, or told apart (by the declared Sentinels, ErrTypes or ErrCode)
// and then retried or turned into success.
func (j *outcomeJudge) checkErr(err ssa.Value) {
	k, rej := j.k, j.decl.Name
	uses := outcomeUses(err, 0)
	if len(uses) == 0 {
		j.set(k, rej, Discarded)
		return
	}
	j.set(k, rej, Handled)
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
			if name, ok := j.sentinel(u.X); ok {
				j.judgeRejection(onRejection, name, u.Pos())
				return
			}
			if name, ok := j.sentinel(u.Y); ok {
				j.judgeRejection(onRejection, name, u.Pos())
				return
			}
			// err != nil: a nil check alone tells nothing apart
		case *ssa.Call:
			cc := u.Common()
			if isLogCall(cc) {
				logged = true
				continue
			}
			fn := calleeFunc(cc)
			if fn != nil && len(cc.Args) == 1 && slices.Contains(j.decl.Predicates, rules.Key(fn)) {
				// apierrors.IsConflict(err): true on the rejection.
				j.judgeRejection(trueBranch(u), j.decl.Name, u.Pos())
				return
			}
			if exc := j.predicateHelper(fn, cc); exc != "" {
				// isCCF(err), a helper of the package that returns
				// errors.As(err, &ccf): true on the rejection.
				j.judgeRejection(trueBranch(u), exc, u.Pos())
				return
			}
			if fn == nil || len(cc.Args) != 2 {
				return // wrapping, any other function: handled
			}
			switch rules.ErrorMatchers[rules.Key(fn)] {
			case "is":
				if name, ok := j.sentinel(cc.Args[1]); ok {
					j.judgeRejection(trueBranch(u), name, u.Pos())
				}
			case "as":
				if exc := j.errType(cc.Args[1]); exc != "" {
					j.judgeRejection(trueBranch(u), exc, u.Pos())
				} else if b, code := j.errCodeBranch(cc.Args[1]); b != nil {
					j.judgeRejection(b, code, u.Pos())
				}
			}
			return // errors.As, wrapping, any other function: handled
		case *ssa.Return:
			// Returned from a func a retrier runs again on the rejection
			// (retry.RetryOnConflict(backoff, func() error { ...; return err })).
			if at := j.retrierOf(u.Parent()); at.IsValid() {
				j.set(k, rej, Retried)
				j.out.Test = at
			}
			return // returned: handled by the caller
		case *ssa.TypeAssert:
			// _, ok := err.(*types.ConditionalCheckFailedException), and
			// each case of a type switch: ok is true on the rejection.
			if !u.CommaOk {
				return
			}
			if exc := j.errTypeOf(u.AssertedType); exc != "" {
				if ok := usedExtract(u, 1); ok != nil {
					j.judgeRejection(trueBranch(ok), exc, u.Pos())
				}
			}
			return
		default:
			return // stored, sent: handled
		}
	}
	if logged {
		j.out.Handling = Logged
	}
	// otherwise only compared with nil: the branch decides; not judged
}

// retrierOf returns the position of the call that hands fn, a function
// literal, to one of the declared Retriers as the func it runs again
// while it fails; NoPos when there is none.
func (j *outcomeJudge) retrierOf(fn *ssa.Function) token.Pos {
	parent := fn.Parent()
	if len(j.decl.Retriers) == 0 || parent == nil {
		return token.NoPos
	}
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			callee := calleeFunc(call.Common())
			if callee == nil {
				continue
			}
			idx, ok := j.decl.Retriers[rules.Key(callee)]
			if !ok || idx >= len(call.Common().Args) {
				continue
			}
			arg := stripValue(call.Common().Args[idx])
			if mc, ok := arg.(*ssa.MakeClosure); ok {
				arg = mc.Fn
			}
			if arg == fn {
				return call.Pos()
			}
		}
	}
	return token.NoPos
}

// sentinel: v loads one of the declared Sentinels (sql.ErrNoRows,
// zk.ErrBadVersion); name is how messages call it, "sql.ErrNoRows".
func (j *outcomeJudge) sentinel(v ssa.Value) (name string, ok bool) {
	load, ok := stripValue(v).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return "", false
	}
	g, ok := load.X.(*ssa.Global)
	if !ok || g.Pkg == nil || !slices.Contains(j.decl.Sentinels, g.Pkg.Pkg.Path()+"."+g.Name()) {
		return "", false
	}
	return g.Pkg.Pkg.Name() + "." + g.Name(), true
}

// errType names the error type an errors.As target stands for when it is
// one of the declared ErrTypes: &ccf with ccf
// *types.ConditionalCheckFailedException, say.
func (j *outcomeJudge) errType(target ssa.Value) string {
	return j.errTypeOf(stripValue(target).Type())
}

// errTypeOf is errType for a type: t, or what it points to (twice, for
// errors.As's **T), when it is one of the declared ErrTypes.
func (j *outcomeJudge) errTypeOf(t types.Type) string {
	for range 2 {
		p, ok := t.Underlying().(*types.Pointer)
		if !ok {
			break
		}
		t = p.Elem()
	}
	key := rules.TypeKey(t)
	if key == "" || !slices.Contains(j.decl.ErrTypes, key) {
		return ""
	}
	return key[strings.LastIndexByte(key, '.')+1:]
}

// predicateHelper: fn, a function of the package with one error
// parameter and a bool result, ends in "return errors.As(param, &x)"
// with x of a declared ErrType (func isCCF(err error) bool { var c
// *types.ConditionalCheckFailedException; return errors.As(err, &c) });
// the type's name, or "". Read from the syntax: such a helper touches no
// lock or store, so its SSA is not built.
func (j *outcomeJudge) predicateHelper(fn *types.Func, cc *ssa.CallCommon) string {
	if fn == nil || len(cc.Args) != 1 || fn.Pkg() != j.e.pass.Pkg {
		return ""
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Results().Len() != 1 || !types.Identical(sig.Params().At(0).Type(), errorType) {
		return ""
	}
	fd := j.e.funcDecl(fn)
	if fd == nil || fd.Body == nil || len(fd.Body.List) == 0 {
		return ""
	}
	ret, ok := fd.Body.List[len(fd.Body.List)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return ""
	}
	call, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
	if !ok || len(call.Args) != 2 {
		return ""
	}
	info := j.e.pass.TypesInfo
	as, _ := typeutil.Callee(info, call).(*types.Func)
	if as == nil || rules.ErrorMatchers[rules.Key(as)] != "as" {
		return ""
	}
	if id, ok := ast.Unparen(call.Args[0]).(*ast.Ident); !ok || info.Uses[id] != sig.Params().At(0) {
		return ""
	}
	t := info.TypeOf(call.Args[1])
	if t == nil {
		return ""
	}
	return j.errTypeOf(t)
}

// errCodeBranch: for errors.As(err, &apiErr) with apiErr of the declared
// ErrCode interface (smithy.APIError), the block entered when its code
// method (ErrorCode()) equals one of the declared codes, and that code.
func (j *outcomeJudge) errCodeBranch(target ssa.Value) (*ssa.BasicBlock, string) {
	ec := j.decl.ErrCode
	if ec == nil {
		return nil, ""
	}
	alloc, ok := stripValue(target).(*ssa.Alloc)
	if !ok || alloc.Referrers() == nil {
		return nil, ""
	}
	p, ok := alloc.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil, ""
	}
	if n, isNamed := types.Unalias(p.Elem()).(*types.Named); !isNamed || !rules.HasTypeKey(n, ec.Type) {
		return nil, "" // not the interface itself (a **APIError, say)
	}
	for _, r := range *alloc.Referrers() {
		load, ok := r.(*ssa.UnOp)
		if !ok || load.Op != token.MUL || load.Referrers() == nil {
			continue
		}
		for _, lr := range *load.Referrers() {
			call, ok := lr.(*ssa.Call)
			if !ok || !call.Common().IsInvoke() || call.Common().Method.Name() != ec.Method || call.Referrers() == nil {
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
				code, ok := constString(other)
				if !ok || !slices.Contains(ec.Codes, code) {
					continue
				}
				if bo.Op == token.NEQ {
					return falseBranch(bo), code
				}
				return trueBranch(bo), code
			}
		}
	}
	return nil, ""
}

// judgeRejection: the branch taken on the store's rejection must abort;
// one that goes back to the write (a retry loop) or returns success
// carries on as if the stale holder still held the lock.
func (j *outcomeJudge) judgeRejection(b *ssa.BasicBlock, exc string, test token.Pos) {
	k := j.k
	switch {
	case b == nil:
	case j.retries(b):
		j.set(k, exc, Retried)
		j.out.Test = test
	case returnsSuccess(b), rejoins(b, j.call.Block(), true):
		j.set(k, exc, AsSuccess)
		j.out.Test = test
	}
}

// rejoins reports whether the rejection branch b, entered from an If,
// does nothing but log (and, when cleared, set the error to nil) before
// it jumps to the If's other successor: the rejection was told apart and
// then treated as a write that went through. With cleared, the join must
// also receive a nil error from b (if errors.Is(err, sql.ErrNoRows) {
// err = nil }), since a join that still sees the error may abort on it.
func rejoins(b, write *ssa.BasicBlock, cleared bool) bool {
	if len(b.Preds) != 1 || len(b.Preds[0].Succs) != 2 {
		return false
	}
	iff := b.Preds[0]
	other := iff.Succs[0]
	if other == b {
		other = iff.Succs[1]
	}
	if reaches(other, write) {
		// The loop's next iteration: skipping the rejected item (log,
		// continue) is how a loop over items moves on; re-issuing the
		// same write is judged by retries.
		return false
	}
	prev, cur := iff, b
	for range 8 {
		if cur == other {
			return !cleared || clearsError(cur, prev)
		}
		if len(cur.Preds) != 1 || !onlyLogs(cur) {
			return false
		}
		last, ok := cur.Instrs[len(cur.Instrs)-1].(*ssa.Jump)
		if !ok || last == nil {
			return false
		}
		prev, cur = cur, cur.Succs[0]
	}
	return false
}

// clearsError: the join has an error-typed phi whose edge from pred is
// the nil constant.
func clearsError(join, pred *ssa.BasicBlock) bool {
	i := slices.Index(join.Preds, pred)
	if i < 0 {
		return false
	}
	for _, instr := range join.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		if !types.Identical(phi.Type(), errorType) {
			continue
		}
		if k, ok := phi.Edges[i].(*ssa.Const); ok && k.IsNil() {
			return true
		}
	}
	return false
}

// onlyLogs: every instruction of b is a log call or what builds its
// arguments, and b ends in a jump.
func onlyLogs(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		switch in := instr.(type) {
		case *ssa.Call:
			if !isLogCall(in.Common()) {
				fn := calleeFunc(in.Common())
				if fn == nil || (fn.Name() != "Error" && fn.Name() != "String" && rules.Key(fn) != "fmt.Sprintf") {
					return false
				}
			}
		case *ssa.Store:
			// the variadic array of a log call
			ia, ok := in.Addr.(*ssa.IndexAddr)
			if !ok {
				return false
			}
			if _, ok := ia.X.(*ssa.Alloc); !ok {
				return false
			}
		case *ssa.Alloc, *ssa.IndexAddr, *ssa.Slice, *ssa.MakeInterface, *ssa.ChangeType, *ssa.Convert,
			*ssa.BinOp, *ssa.UnOp, *ssa.Field, *ssa.FieldAddr, *ssa.Extract, *ssa.DebugRef, *ssa.Jump:
		default:
			return false
		}
	}
	return true
}

// falseBranch returns the block an If on v enters when v is false.
func falseBranch(v ssa.Value) *ssa.BasicBlock { return branchOn(v, false) }

// trueBranch returns the block an If on v enters when v is true.
func trueBranch(v ssa.Value) *ssa.BasicBlock { return branchOn(v, true) }

// branchOn returns the block an If on v enters when v equals want,
// looking through one negation (ok := !done; if ok {...}: the builder
// folds a negated if condition itself, a negated value it does not).
func branchOn(v ssa.Value, want bool) *ssa.BasicBlock {
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
					if !nilResult(b, r) {
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

// nilResult: the returned value r of block b is the nil constant, or,
// in a function with defers (whose results go through their slots:
// "*t0 = nil; rundefers; t1 = *t0; return t1"), a load of the slot b
// last stored nil into.
func nilResult(b *ssa.BasicBlock, r ssa.Value) bool {
	if k, ok := r.(*ssa.Const); ok {
		return k.IsNil()
	}
	load, ok := r.(*ssa.UnOp)
	if !ok || load.Op != token.MUL || load.Block() != b {
		return false
	}
	slot, ok := load.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	for i := slices.Index(b.Instrs, ssa.Instruction(load)) - 1; i >= 0; i-- {
		if st, ok := b.Instrs[i].(*ssa.Store); ok && st.Addr == ssa.Value(slot) {
			k, ok := st.Val.(*ssa.Const)
			return ok && k.IsNil()
		}
	}
	return false
}

// ---- a bool field of the response (RejectFlagField) ----

// flagField: the response's declared bool Field (etcd's
// TxnResponse.Succeeded) is false when the condition failed; a failed If
// is not an error.
func (j *outcomeJudge) flagField() {
	resp := usedExtract(j.call, 0)
	if resp == nil {
		j.set(j.k, j.decl.Name, Discarded)
		return
	}
	j.set(j.k, j.decl.Name, Handled)
	for _, u := range outcomeUses(resp, 0) {
		switch u := u.(type) {
		case *ssa.FieldAddr:
			if structFieldName(u.X.Type(), u.Field) == j.decl.Field {
				for _, r := range *u.Referrers() {
					if l, ok := r.(*ssa.UnOp); ok && l.Op == token.MUL {
						j.judgeFlag(l, u.Pos())
						return
					}
				}
				return
			}
		case *ssa.Field:
			if structFieldName(u.X.Type(), u.Field) == j.decl.Field {
				j.judgeFlag(u, u.Pos())
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
	j.out.Handling = NeverRead
}

// judgeFlag judges what the code does with a rejection flag read once
// (resp.Succeeded): only logged, it is never read; an If on it enters
// its false branch on a rejection, which may retry or carry on as a
// success. Anything else hands it on.
func (j *outcomeJudge) judgeFlag(v ssa.Value, at token.Pos) {
	logged := false
	for _, u := range outcomeUses(v, 0) {
		switch u := u.(type) {
		case *ssa.If:
			j.judgeRejection(falseBranch(v), j.decl.Name, at)
			return
		case *ssa.UnOp:
			if u.Op == token.NOT {
				j.judgeRejection(falseBranch(v), j.decl.Name, at)
			}
			return
		case *ssa.Call:
			if isLogCall(u.Common()) {
				logged = true
				continue
			}
			return
		default:
			return
		}
	}
	if logged {
		j.out.Handling = Logged // log.Printf("%v", resp.Succeeded)
	}
}

// structFieldName names field i of a struct or pointer-to-struct type.
func structFieldName(t types.Type, i int) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return ""
	}
	return st.Field(i).Name()
}

// hasPrecondition: the input literal at inputArg sets one of
// rules.S3Preconditions (IfMatch, IfNoneMatch).
func hasPrecondition(call *ssa.Call, inputArg int) bool {
	ps := params(call.Common())
	if inputArg < 0 || inputArg >= len(ps) {
		return false
	}
	base := stripValue(ps[inputArg]) // (ctx, input, ...)
	if base.Referrers() == nil {
		return false
	}
	for _, r := range *base.Referrers() {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.X != base {
			continue
		}
		if slices.Contains(rules.S3Preconditions, structFieldName(fa.X.Type(), fa.Field)) {
			return true
		}
	}
	return false
}

// ---- following a result ----

// usedExtract returns the Extract of result i of a tuple-valued call, or
// nil when that result is not used.
func usedExtract(call ssa.Value, i int) ssa.Value {
	refs := call.Referrers()
	if refs == nil {
		return nil
	}
	for _, r := range *refs {
		if e, ok := r.(*ssa.Extract); ok && e.Index == i {
			if e.Referrers() != nil && len(*e.Referrers()) > 0 {
				return e
			}
		}
	}
	return nil
}

// outcomeUses returns the instructions using v, looking through value-
// preserving conversions, phis and locals (&v stored and loaded).
func outcomeUses(v ssa.Value, depth int) []ssa.Instruction {
	if depth > 6 {
		return nil
	}
	refs := v.Referrers()
	if refs == nil {
		return nil
	}
	var out []ssa.Instruction
	for _, r := range *refs {
		switch x := r.(type) {
		case *ssa.ChangeType:
			out = append(out, outcomeUses(x, depth+1)...)
		case *ssa.MakeInterface:
			out = append(out, outcomeUses(x, depth+1)...)
		case *ssa.ChangeInterface:
			out = append(out, outcomeUses(x, depth+1)...)
		case *ssa.Phi:
			out = append(out, outcomeUses(x, depth+1)...)
		case *ssa.DebugRef:
		case *ssa.Store:
			if a, ok := x.Addr.(*ssa.Alloc); ok && !a.Heap && x.Val == v {
				for _, ar := range *a.Referrers() {
					if l, ok := ar.(*ssa.UnOp); ok && l.Op == token.MUL {
						out = append(out, outcomeUses(l, depth+1)...)
					}
				}
				continue
			}
			if calls, ok := variadicUses(x); ok {
				out = append(out, calls...) // f(..., v, ...): the call uses v
				continue
			}
			out = append(out, r)
		default:
			out = append(out, r)
		}
	}
	return out
}

// variadicUses: a store of v into the backing array of a variadic
// argument (log.Printf("%d", n)) is a use by the calls taking the slice.
func variadicUses(s *ssa.Store) ([]ssa.Instruction, bool) {
	ia, ok := s.Addr.(*ssa.IndexAddr)
	if !ok {
		return nil, false
	}
	a, ok := ia.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	var out []ssa.Instruction
	for _, r := range *a.Referrers() {
		switch x := r.(type) {
		case *ssa.IndexAddr:
		case *ssa.Slice:
			for _, sr := range *x.Referrers() {
				c, ok := sr.(*ssa.Call)
				if !ok {
					return nil, false
				}
				out = append(out, c)
			}
		default:
			return nil, false
		}
	}
	return out, len(out) > 0
}

// sameValue reports whether a is b up to value-preserving conversions.
func sameValue(a, b ssa.Value) bool {
	return a != nil && b != nil && stripValue(a) == stripValue(b)
}

// isLogCall: logging and printing only records a value, it does not act
// on it: log, log/slog, fmt.Print*, zap, logrus.
func isLogCall(cc *ssa.CallCommon) bool {
	fn := calleeFunc(cc)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch p := fn.Pkg().Path(); {
	case rules.LogPackages[p]:
		return true
	case rules.PrintPackages[p]:
		return strings.HasPrefix(fn.Name(), "Print") || strings.HasPrefix(fn.Name(), "Fprint")
	}
	return false
}
