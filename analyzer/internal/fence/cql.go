package fence

import (
	"go/types"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/sqlcond"
	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// Cassandra (gocql). A CQL statement is read by sqlcond, which knows the
// IF clause of a lightweight transaction; the SQL judge reads it with
// CQL's meaning (binder.cql): the IF is the write's condition and the
// WHERE only names the row, an INSERT without IF NOT EXISTS is an upsert.

// cqlQuery is the statement and values of a gocql query as made.
type cqlQuery struct {
	stmt   string
	args   []ssa.Value
	argsOK bool
	// call is the Session.Query call holding the statement (for its
	// source position), and stmtArg the statement's index there.
	call    *ssa.Call
	stmtArg int
}

// evalCQLQuery: q.Exec(), q.ScanCAS(...), q.MapScanCAS(...) on a query
// made by Session.Query(stmt, values...) in this function, through the
// query's own setting methods (WithContext, Consistency) and Bind.
func (e *engine) evalCQLQuery(cc *ssa.CallCommon, w *rules.Write) *eval {
	q, ok := e.cqlQueryOf(receiver(cc))
	if !ok {
		// A query made elsewhere (a parameter, a field, a helper): its
		// statement is not guessed at, as dynamic SQL is not.
		return &eval{}
	}
	ev := e.evalCQLText(q.stmt, q.args, q.argsOK)
	if ev.isWrite {
		ev.litArg, ev.litCall = q.stmtArg, q.call.Common().Pos()
	}
	return ev
}

// cqlQueryOf follows a gocql query value back to the CQLQueries call that
// made it. ok is false when the chain leaves the function or holds a call
// that is not a setting of the query.
func (e *engine) cqlQueryOf(v ssa.Value) (cqlQuery, bool) {
	var bound []ssa.Value
	boundSeen, boundOK := false, false
	for depth := 0; depth < 16 && v != nil; depth++ {
		call, isCall := stripValue(v).(*ssa.Call)
		if !isCall {
			return cqlQuery{}, false
		}
		fn := calleeFunc(call.Common())
		if fn == nil {
			return cqlQuery{}, false
		}
		key := rules.Key(fn)
		ps := params(call.Common())
		if i, ok := rules.CQLQueries[key]; ok {
			if i >= len(ps) {
				return cqlQuery{}, false
			}
			stmt, ok := cqlText(ps[i])
			if !ok {
				return cqlQuery{}, false
			}
			q := cqlQuery{stmt: stmt, call: call, stmtArg: i}
			switch {
			case boundSeen:
				q.args, q.argsOK = bound, boundOK
			case i+1 < len(ps):
				q.args, q.argsOK = unpackVariadic(ps[i+1])
			default:
				q.argsOK = true
			}
			return q, true
		}
		if !isChainMethod(fn, rules.CQLQueryType) {
			return cqlQuery{}, false
		}
		if rules.CQLBinds[key] && !boundSeen && len(ps) > 0 {
			// The Bind closest to the run is the one whose values it sends.
			boundSeen = true
			bound, boundOK = unpackVariadic(ps[len(ps)-1])
		}
		v = receiver(call.Common())
	}
	return cqlQuery{}, false
}

// cqlText is a CQL statement: a constant, or fmt.Sprintf of a constant
// whose only verbs are %s keyspace qualifiers ("INSERT INTO %s.shards
// ..." with the keyspace), the common way to name the keyspace at run
// time. The keyspace does not change the condition, so the qualifier is
// dropped; any other verb (a value formatted into the text) is not guessed.
func cqlText(v ssa.Value) (string, bool) {
	if s, ok := constString(v); ok {
		return s, true
	}
	call, ok := stripValue(v).(*ssa.Call)
	if !ok {
		return "", false
	}
	fn := calleeFunc(call.Common())
	if fn == nil || fn.FullName() != rules.Sprintf || len(call.Common().Args) == 0 {
		return "", false
	}
	format, ok := constString(call.Common().Args[0])
	if !ok {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		if i+2 < len(format) && format[i+1] == 's' && format[i+2] == '.' {
			i += 2 // "%s.shards" reads as "shards"
			continue
		}
		return "", false // %d, %v, %%: a value or text we do not read
	}
	return b.String(), true
}

// isChainMethod: fn is a method of the type typeKey returning that type
// (a setting on a builder: WithContext, Consistency, Bind).
func isChainMethod(fn *types.Func, typeKey string) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || sig.Results().Len() != 1 {
		return false
	}
	return rules.HasTypeKey(sig.Recv().Type(), typeKey) && rules.HasTypeKey(sig.Results().At(0).Type(), typeKey)
}

// evalCQLText judges one CQL text run with args: the reading of a gocql
// query and of each statement of a batch.
func (e *engine) evalCQLText(text string, args []ssa.Value, argsOK bool) *eval {
	stmts := e.parseSQL(text)
	var stmt *sqlcond.Statement
	for _, s := range stmts {
		if s.Verb.IsWrite() {
			stmt = s
			break
		}
	}
	if stmt == nil {
		return &eval{} // a read, or nothing we can read
	}
	b := &binder{e: e, args: args, ok: argsOK, cql: true}
	ev := &eval{isWrite: true, store: "Cassandra", target: stmt.Table, sql: text}
	e.judgeSQL(ev, text, stmts, stmt, b)
	for _, p := range stmt.Params {
		if v := b.value(p); v != nil && e.originOf(v).isToken() {
			ev.tokenOffsets = append(ev.tokenOffsets, p.Offset)
		}
	}
	if (ev.verdict == Unfenced || ev.verdict == RecordedOnly) && stmt.Verb != sqlcond.Insert && e.keyedByToken(stmt, b) {
		// WHERE ... AND epoch = ? with the token: in CQL the WHERE is the
		// primary key, so the write goes to the token's own row, which a
		// stale holder's token never names (as a token-named object).
		ev.verdict, ev.detail, ev.blind = Fenced, "", false
	}
	return ev
}

// keyedByToken: the statement's WHERE names its row by the token.
func (e *engine) keyedByToken(stmt *sqlcond.Statement, b *binder) bool {
	for _, c := range stmt.Where {
		if len(c.Or) != 1 || c.Or[0].Op != "=" {
			continue
		}
		cmp := c.Or[0]
		for _, side := range []sqlcond.Operand{cmp.Left, cmp.Right} {
			for _, p := range side.Params {
				if v := b.value(p); v != nil {
					if o := e.originOf(v); o.isToken() && !o.weak {
						return true
					}
				}
			}
		}
	}
	return false
}

// evalCQLBatch: a batch run by ExecuteBatch or its CAS forms. Cassandra
// applies a batch with a condition all or nothing (it accepts conditions
// only in a batch on one partition), so the batch is fenced when one of
// its statements has an IF that compares the token: its siblings are
// fenced by it. Statements queued where this function cannot see them (a
// helper given the batch, a batch from a parameter) make it unknown
// unless a visible one fences it.
func (e *engine) evalCQLBatch(cc *ssa.CallCommon, w *rules.Write) *eval {
	ps := params(cc)
	if w.InputArg < 0 || w.InputArg >= len(ps) {
		return &eval{}
	}
	stmts, complete := e.cqlBatchStatements(ps[w.InputArg], cc)
	ev := &eval{isWrite: true, store: "Cassandra", verdict: Unknown}
	var evs []*eval
	for _, s := range stmts {
		sev := e.evalCQLText(s.stmt, s.args, s.argsOK)
		if !sev.isWrite {
			continue
		}
		sev.litArg, sev.litCall = s.stmtArg, s.call.Common().Pos()
		evs = append(evs, sev)
	}
	if len(evs) > 0 {
		ev.target = evs[0].target
	}
	pick := func(v Verdict) *eval {
		for _, s := range evs {
			if s.verdict == v {
				return s
			}
		}
		return nil
	}
	for _, s := range evs {
		ev.recorded = append(ev.recorded, s.recorded...)
	}
	for _, v := range []Verdict{Fenced, WrongPredicate, WeakToken} {
		if s := pick(v); s != nil {
			ev.adoptStatement(s)
			return ev
		}
	}
	if !complete || len(evs) == 0 || pick(Unknown) != nil {
		return ev
	}
	ev.verdict = Unfenced
	ev.detail = "no statement of the batch has an IF that compares the fencing token"
	ev.blind = true
	for _, s := range evs {
		if !s.blind {
			ev.blind = false
		}
		ev.fencedBy = append(ev.fencedBy, s.fencedBy...)
	}
	return ev
}

// adoptStatement makes the batch's reading that of statement s, the one
// that decides its verdict.
func (ev *eval) adoptStatement(s *eval) {
	ev.verdict, ev.detail, ev.target = s.verdict, s.detail, s.target
	ev.sql, ev.tokenOffsets, ev.compares = s.sql, s.tokenOffsets, s.compares
	ev.cond, ev.sqlRead = s.cond, s.sqlRead
	ev.litArg, ev.litCall = s.litArg, s.litCall
	ev.weak = s.weak
}

// cqlBatchStatements returns the statements queued on batch value v, run
// by the call exec: those of the CQLBatchQueries calls on it or on a value
// of its chain (b.WithContext(ctx)). complete is false when the batch is
// not made here (CQLBatchMakers) or escapes to other code that may queue
// more (a helper, a field, Entries).
func (e *engine) cqlBatchStatements(v ssa.Value, exec *ssa.CallCommon) ([]cqlQuery, bool) {
	// Back to the batch's maker through its settings.
	root := stripValue(v)
	complete := true
	for depth := 0; depth < 16; depth++ {
		call, ok := root.(*ssa.Call)
		if !ok {
			complete = false // a parameter, a field, a phi
			break
		}
		fn := calleeFunc(call.Common())
		if fn == nil {
			complete = false
			break
		}
		if rules.CQLBatchMakers[rules.Key(fn)] {
			break
		}
		if !isChainMethod(fn, rules.CQLBatchType) {
			complete = false
			break
		}
		root = stripValue(receiver(call.Common()))
	}
	// Forward over the chain: every value that is this batch.
	family := []ssa.Value{root}
	seen := map[ssa.Value]bool{root: true}
	var out []cqlQuery
	for i := 0; i < len(family) && i < 64; i++ {
		b := family[i]
		refs := b.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.Call:
				rc := r.Common()
				if rc == exec {
					continue
				}
				fn := calleeFunc(rc)
				if fn == nil || !sameValue(receiver(rc), b) {
					complete = false // handed to other code
					continue
				}
				if i, ok := rules.CQLBatchQueries[rules.Key(fn)]; ok {
					ps := params(rc)
					stmt, isConst := "", false
					if i < len(ps) {
						stmt, isConst = cqlText(ps[i])
					}
					if !isConst {
						complete = false
						continue
					}
					q := cqlQuery{stmt: stmt, call: r, stmtArg: i, argsOK: true}
					if i+1 < len(ps) {
						q.args, q.argsOK = unpackVariadic(ps[i+1])
					}
					out = append(out, q)
					continue
				}
				if isChainMethod(fn, rules.CQLBatchType) && !seen[r] {
					seen[r] = true
					family = append(family, r)
				}
			case *ssa.FieldAddr:
				if structFieldName(r.X.Type(), r.Field) == rules.CQLBatchEntries {
					complete = false // Entries appended by hand: not read
				}
			case *ssa.DebugRef:
			case *ssa.ChangeType, *ssa.MakeInterface, *ssa.Phi, *ssa.Store, *ssa.Return, *ssa.Send, *ssa.MapUpdate:
				complete = false
			}
		}
	}
	return out, complete
}
