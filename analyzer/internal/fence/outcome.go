package fence

import (
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
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
	out  Outcome
}

// set records the outcome; the first verdict on a write stands.
func (j *outcomeJudge) set(k OutcomeKind, rejection string, h Handling) {
	j.out = Outcome{Kind: k, Rejection: rejection, Handling: h}
}

func (j *outcomeJudge) judge() {
	fn := calleeFunc(j.call.Common())
	if fn == nil {
		return
	}
	name := fn.Name()
	w := j.w
	switch w.Store {
	case "SQL":
		if len(w.Compares) == 0 {
			return // fenced by its transaction, not by its own condition: nothing to reject it
		}
		switch {
		case strings.HasPrefix(name, "Exec"):
			j.exec()
		case strings.HasPrefix(name, "QueryRow"):
			j.queryRow()
		}
	case "DynamoDB":
		j.errOnly()
	case "S3":
		if hasPrecondition(j.call) {
			j.errOnly() // a token-keyed object without a precondition is never rejected
		}
	case "etcd":
		if name == "Commit" {
			j.txn()
		}
	case "gorm":
		if len(w.Compares) == 0 {
			return // no comparison of its own: nothing to reject it
		}
		switch name {
		case "Update", "Updates", "UpdateColumn", "UpdateColumns", "Delete", "Exec":
			j.gorm()
		}
	case "consul KV", "consul":
		switch name {
		case "CAS", "DeleteCAS", "Acquire", "Txn":
			j.consulOK()
		}
	case "GCS":
		switch name {
		case "NewWriter":
			j.gcsWriter()
		case "Update", "Delete", "Run":
			j.errOnly()
		}
	case "ZooKeeper":
		switch name {
		case "Set", "Delete", "Multi":
			// versioned, or a Multi with a CheckVersionRequest: a failed
			// check is zk.ErrBadVersion
			j.errOnly()
		}
	case "Azure Blob":
		if j.azurePrecondition(fn) {
			j.errOnly() // a token-named blob without a precondition is never rejected
		}
	case "Redis":
		j.scriptReply(fn)
	}
}

// azurePrecondition: the write's options set an AccessConditions
// precondition, so the service answers a stale holder with 412.
func (j *outcomeJudge) azurePrecondition(fn *types.Func) bool {
	rw, ok := j.e.writeOf(fn)
	ps := params(j.call.Common())
	if !ok || rw.InputArg < 0 || rw.InputArg >= len(ps) {
		return false
	}
	conditioned, ok := j.e.azureConditioned(ps[rw.InputArg])
	return ok && conditioned
}

// ---- Redis scripts ----

// scriptReply: a fencing script's reply says whether it wrote. A Cmd
// thrown away loses it. When the script answers a stale token with a
// number (return 0) rather than an error or a nil reply, which Err()
// would see, a Cmd whose reply is never compared loses it too: only Err()
// is read, or Int()'s value only logged.
func (j *outcomeJudge) scriptReply(fn *types.Func) {
	rw, ok := j.e.writeOf(fn)
	if !ok || rw.Kind != rules.RedisScript {
		return
	}
	uses := outcomeUses(j.call, 0)
	if len(uses) == 0 {
		j.set(OutcomeReply, "a rejecting reply", Discarded)
		return
	}
	j.set(OutcomeReply, "a rejecting reply", Handled)
	src, ok := j.e.scriptText(j.call.Common(), rw)
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
		case f.Name() == "Int" || f.Name() == "Int64" || f.Name() == "Uint64":
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

// isErrCall: u is cmd.Err(), directly or through the embedded field Err
// is promoted from (go-redis's baseCmd).
func (j *outcomeJudge) isErrCall(u ssa.Instruction, cmd ssa.Value) bool {
	switch u := u.(type) {
	case *ssa.Call:
		f := calleeFunc(u.Common())
		return f != nil && f.Name() == "Err" && sameValue(receiver(u.Common()), cmd)
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
	luaReturn       = regexp.MustCompile(`\breturn\b\s*([^\s;]*)`)
	luaNumber       = regexp.MustCompile(`^-?\d+$`)
	luaEndsInReturn = regexp.MustCompile(`(^|[\s;])return\s+-?\d+\s*;?$`)
	luaErrorLike    = regexp.MustCompile(`error_reply|\{\s*err\s*=|redis\.error|\berror\s*\(`)
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

// ---- SQL Exec ----

func (j *outcomeJudge) exec() {
	res := usedExtract(j.call, 0)
	if res == nil {
		j.set(OutcomeRows, "0 rows", Discarded)
		return
	}
	j.judgeRows(OutcomeRows, j.followRows(res))
}

// judgeRows records what a fenced write does with its row count: nothing
// when it escapes or is compared, a retry when the zero branch re-issues
// the write, never read otherwise.
func (j *outcomeJudge) judgeRows(k OutcomeKind, st rowsState) {
	switch {
	case st.escapes:
		j.set(k, "0 rows", Handled)
	case st.zeroBranch != nil:
		j.set(k, "0 rows", Handled)
		if j.retries(st.zeroBranch) {
			j.set(k, "0 rows", Retried)
			j.out.Test = st.zeroTest
		}
	case st.compared:
		j.set(k, "0 rows", Handled)
	default:
		j.set(k, "0 rows", NeverRead)
	}
}

// ---- consul ----

// consulOK: consul reports a failed CAS, Acquire or transaction check as
// ok == false with a nil error, so the bool is the write's outcome.
func (j *outcomeJudge) consulOK() {
	ok := usedExtract(j.call, 0)
	if ok == nil {
		j.set(OutcomeOK, "ok == false", Discarded)
		return
	}
	j.set(OutcomeOK, "ok == false", Handled)
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

// ---- GCS ----

// gcsWriter: a conditional GCS upload reports its precondition failure
// from Writer.Close, so Close's error is the write's outcome.
func (j *outcomeJudge) gcsWriter() {
	rej := rejectionOf("GCS")
	for _, u := range outcomeUses(j.call, 0) {
		cl, ok := u.(*ssa.Call)
		if !ok {
			if d, ok := u.(*ssa.Defer); ok {
				if cc := d.Common(); sameValue(receiver(cc), j.call) {
					if fn := calleeFunc(cc); fn != nil && fn.Name() == "Close" {
						j.set(OutcomeCloseError, rej, DiscardedByDefer)
						return
					}
				}
			}
			continue
		}
		if fn := calleeFunc(cl.Common()); fn == nil || fn.Name() != "Close" || !sameValue(receiver(cl.Common()), j.call) {
			continue
		}
		j.checkErr(OutcomeCloseError, cl, "GCS")
		return
	}
}

// ---- gorm ----

// gorm reports a write its WHERE rejected as success with RowsAffected ==
// 0 (not as an error), so a caller that reads only .Error, or nothing,
// carries on as if it had written.
func (j *outcomeJudge) gorm() {
	uses := outcomeUses(j.call, 0)
	if len(uses) == 0 {
		j.set(OutcomeRowsField, "0 rows", Discarded)
		return
	}
	var st rowsState
	for _, u := range uses {
		fa, ok := u.(*ssa.FieldAddr)
		if !ok {
			st.escapes = true // returned, passed on, stored: handled elsewhere
			continue
		}
		if structFieldName(fa.X.Type(), fa.Field) != "RowsAffected" {
			continue // .Error, .Statement
		}
		for _, r := range *fa.Referrers() {
			if l, ok := r.(*ssa.UnOp); ok && l.Op == token.MUL {
				followCount(l, &st)
			}
		}
	}
	j.judgeRows(OutcomeRowsField, st)
}

type rowsState struct {
	escapes  bool
	compared bool
	// zeroBranch is the block entered when the row count is zero, and
	// zeroTest the comparison that leads there.
	zeroBranch *ssa.BasicBlock
	zeroTest   token.Pos
}

// followRows follows a sql.Result / pgconn.CommandTag to RowsAffected and
// its comparison.
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
				st.escapes = true // passed to another function
				continue
			}
			switch fn.Name() {
			case "RowsAffected":
				var n ssa.Value = u
				if _, ok := u.Type().(*types.Tuple); ok {
					n = usedExtract(u, 0)
				}
				if n == nil {
					continue
				}
				followCount(n, &st)
			case "String":
				st.escapes = true // "UPDATE 0" read as text
			}
		case *ssa.Return, *ssa.Store, *ssa.Send, *ssa.MapUpdate:
			st.escapes = true
		}
	}
	return st
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
		if b == target {
			return true
		}
		stack = append(stack, b.Succs...)
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

// ---- SQL QueryRow ... RETURNING ----

func (j *outcomeJudge) queryRow() {
	if !j.returning(j.w.SQL) {
		return
	}
	var scanErr ssa.Value
	for _, u := range outcomeUses(j.call, 0) {
		cu, ok := u.(*ssa.Call)
		if !ok {
			return // the row escapes
		}
		fn := calleeFunc(cu.Common())
		if fn == nil || fn.Name() != "Scan" || !sameValue(receiver(cu.Common()), j.call) {
			return
		}
		scanErr = cu
	}
	if scanErr == nil {
		return // no Scan: the row is not read here
	}
	j.checkErr(OutcomeNoRow, scanErr, "sql")
}

func (j *outcomeJudge) returning(sql string) bool {
	for _, s := range j.e.parseSQL(sql) {
		if s.Verb.IsWrite() && len(s.Returning) > 0 {
			return true
		}
	}
	return false
}

// ---- errors of DynamoDB, S3, ZooKeeper, GCS and Scan ----

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
		j.set(OutcomeError, rejectionOf(j.w.Store), Discarded)
		return
	}
	j.checkErr(OutcomeError, err, j.w.Store)
}

// rejectionOf names the error a store answers a failed condition with.
func rejectionOf(store string) string {
	switch store {
	case "DynamoDB":
		return "ConditionalCheckFailedException"
	case "S3":
		return "PreconditionFailed"
	case "ZooKeeper":
		return "zk.ErrBadVersion"
	case "GCS":
		return "a 412 precondition failure"
	case "Azure Blob":
		return "a 412 ConditionNotMet"
	}
	return "sql.ErrNoRows"
}

// checkErr judges the uses of a write's error value.
func (j *outcomeJudge) checkErr(k OutcomeKind, err ssa.Value, store string) {
	rej := rejectionOf(store)
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
			if isNoRows(u.X) || isNoRows(u.Y) {
				if b := onRejection; b != nil && store == "sql" && returnsSuccess(b) {
					j.asSuccess(k, "ErrNoRows", u.Pos())
				}
				return // told apart
			}
			if isBadVersion(u.X) || isBadVersion(u.Y) {
				j.judgeRejection(k, onRejection, "zk.ErrBadVersion", u.Pos())
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
			isErrors := fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && len(cc.Args) == 2
			switch {
			case isErrors && fn.Name() == "Is" && isNoRows(cc.Args[1]):
				if b := trueBranch(u); b != nil && store == "sql" && returnsSuccess(b) {
					j.asSuccess(k, "ErrNoRows", u.Pos())
				}
			case isErrors && fn.Name() == "Is" && isBadVersion(cc.Args[1]):
				j.judgeRejection(k, trueBranch(u), "zk.ErrBadVersion", u.Pos())
			case isErrors && fn.Name() == "As":
				if exc := conditionFailure(cc.Args[1]); exc != "" {
					j.judgeRejection(k, trueBranch(u), exc, u.Pos())
				} else if b, code := apiErrorCodeBranch(cc.Args[1]); b != nil {
					j.judgeRejection(k, b, code, u.Pos())
				}
			}
			return // errors.As, wrapping, any other function: handled
		default:
			return // returned, stored, sent, type-switched: handled
		}
	}
	if logged {
		j.out.Handling = Logged
	}
	// otherwise only compared with nil: the branch decides; not judged
}

func (j *outcomeJudge) asSuccess(k OutcomeKind, exc string, test token.Pos) {
	j.set(k, exc, AsSuccess)
	j.out.Test = test
}

// conditionFailure names the exception an errors.As target stands for
// when it is DynamoDB's rejection of a failed condition: &ccf with
// ccf *types.ConditionalCheckFailedException (or, for TransactWriteItems,
// *types.TransactionCanceledException).
func conditionFailure(target ssa.Value) string {
	t := stripValue(target).Type()
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

// apiRejectionCodes are the smithy error codes AWS answers a failed
// condition with: S3's failed IfMatch/IfNoneMatch, DynamoDB's failed
// ConditionExpression, and a TransactWriteItems cancelled by one.
var apiRejectionCodes = map[string]bool{
	"PreconditionFailed": true, "ConditionalCheckFailedException": true, "TransactionCanceledException": true,
}

// apiErrorCodeBranch: for errors.As(err, &apiErr) with apiErr a
// smithy.APIError, the block entered when apiErr.ErrorCode() equals one
// of apiRejectionCodes, and that code.
func apiErrorCodeBranch(target ssa.Value) (*ssa.BasicBlock, string) {
	alloc, ok := stripValue(target).(*ssa.Alloc)
	if !ok || alloc.Referrers() == nil {
		return nil, ""
	}
	p, ok := alloc.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil, ""
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "github.com/aws/smithy-go" || n.Obj().Name() != "APIError" {
		return nil, ""
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
				code, ok := constString(other)
				if !ok || !apiRejectionCodes[code] {
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
func (j *outcomeJudge) judgeRejection(k OutcomeKind, b *ssa.BasicBlock, exc string, test token.Pos) {
	switch {
	case b == nil:
	case j.retries(b):
		j.set(k, exc, Retried)
		j.out.Test = test
	case returnsSuccess(b):
		j.asSuccess(k, exc, test)
	}
}

// isNoRows: a load of database/sql.ErrNoRows or pgx.ErrNoRows.
func isNoRows(v ssa.Value) bool {
	p, ok := sentinelPkg(v, "ErrNoRows")
	return ok && (p == "database/sql" || strings.HasPrefix(p, "github.com/jackc/pgx"))
}

// sentinelPkg returns the package of the error variable name that v loads.
func sentinelPkg(v ssa.Value, name string) (string, bool) {
	load, ok := stripValue(v).(*ssa.UnOp)
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

func (j *outcomeJudge) txn() {
	resp := usedExtract(j.call, 0)
	if resp == nil {
		j.set(OutcomeSucceeded, "Succeeded == false", Discarded)
		return
	}
	j.set(OutcomeSucceeded, "Succeeded == false", Handled)
	for _, u := range outcomeUses(resp, 0) {
		switch u := u.(type) {
		case *ssa.FieldAddr:
			if structFieldName(u.X.Type(), u.Field) == "Succeeded" {
				return
			}
		case *ssa.Field:
			if structFieldName(u.X.Type(), u.Field) == "Succeeded" {
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

// hasPrecondition: the S3 input literal sets IfMatch or IfNoneMatch.
func hasPrecondition(call *ssa.Call) bool {
	ps := params(call.Common())
	if len(ps) < 2 {
		return false
	}
	base := stripValue(ps[1]) // (ctx, input, ...)
	if base.Referrers() == nil {
		return false
	}
	for _, r := range *base.Referrers() {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.X != base {
			continue
		}
		switch structFieldName(fa.X.Type(), fa.Field) {
		case "IfMatch", "IfNoneMatch":
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
	case p == "log", p == "log/slog", p == "go.uber.org/zap", p == "github.com/sirupsen/logrus":
		return true
	case p == "fmt":
		return strings.HasPrefix(fn.Name(), "Print") || strings.HasPrefix(fn.Name(), "Fprint")
	}
	return false
}
