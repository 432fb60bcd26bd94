package fence

import (
	"fmt"
	"go/types"
	"strings"
	"sync"

	"github.com/fencelint/fencelint/analyzer/internal/sqlcond"
	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// evalSQL models a database/sql or pgx call with constant SQL.
func (e *engine) evalSQL(cc *ssa.CallCommon, w *rules.Write) *eval {
	ps := params(cc)
	var query string
	var ok bool
	if w.Kind == rules.SQLStmtWrite {
		query, ok = e.preparedSQL(receiver(cc), 0)
	} else if w.QueryArg < len(ps) {
		query, ok = constString(ps[w.QueryArg])
	}
	unit := sqlUnit(cc, w)
	if !ok {
		// Dynamic SQL is not guessed at: precision first.
		return &eval{unit: nil}
	}
	stmts := e.parseSQL(query)
	if len(stmts) == 0 {
		return &eval{}
	}
	var stmt *sqlcond.Statement
	for _, s := range stmts {
		if s.Verb.IsWrite() {
			stmt = s
			break
		}
		if s.Verb == sqlcond.Select && s.Locking != "" {
			return &eval{unit: unit, lockingRead: true}
		}
	}
	if stmt == nil {
		return &eval{unit: unit} // a read
	}
	var args []ssa.Value
	argsOK := false
	variadic := false
	if fn := calleeFunc(cc); fn != nil {
		variadic = fn.Type().(*types.Signature).Variadic()
	}
	if w.ArgsFrom < len(ps) {
		if variadic && w.ArgsFrom == len(ps)-1 {
			args, argsOK = unpackVariadic(ps[w.ArgsFrom])
		} else {
			args, argsOK = ps[w.ArgsFrom:], true
		}
	} else {
		argsOK = true
	}
	b := &binder{e: e, args: args, ok: argsOK}
	ev := &eval{isWrite: true, store: "SQL", target: stmt.Table, unit: unit, sql: query}
	e.judgeSQL(ev, stmt, b)
	for _, p := range stmt.Params {
		if v := b.value(p); v != nil && e.originOf(v).isToken() {
			ev.tokenOffsets = append(ev.tokenOffsets, p.Offset)
		}
	}
	return ev
}

// parseSQL reads query once per package: the same text is evaluated at
// every call site, and again for summaries (profiled: 12% of the engine).
func (e *engine) parseSQL(query string) []*sqlcond.Statement {
	stmts, err := e.sql.parse(query)
	if err != nil {
		return nil
	}
	return stmts
}

// sqlCache holds parsed SQL by text for the engine and, through
// Model.ParseSQL, for the analyzers that read the same statements (they
// may run concurrently on one package: hence the lock).
type sqlCache struct {
	mu sync.Mutex
	m  map[string]parsedSQL
}

type parsedSQL struct {
	stmts []*sqlcond.Statement
	err   error
}

func (c *sqlCache) parse(query string) ([]*sqlcond.Statement, error) {
	c.mu.Lock()
	p, ok := c.m[query]
	c.mu.Unlock()
	if !ok {
		p.stmts, p.err = sqlcond.Parse(query)
		c.mu.Lock()
		if c.m == nil {
			c.m = map[string]parsedSQL{}
		}
		c.m[query] = p
		c.mu.Unlock()
	}
	return p.stmts, p.err
}

// sqlUnit is the transaction or batch a statement runs in: the receiver
// when it is a *sql.Tx, pgx.Tx, *pgx.Batch or *sqlx.Tx.
func sqlUnit(cc *ssa.CallCommon, w *rules.Write) ssa.Value {
	r := receiver(cc)
	if r == nil {
		return nil
	}
	s := r.Type().String()
	if strings.HasSuffix(s, "database/sql.Tx") || strings.HasSuffix(s, "pgx/v5.Tx") || strings.HasSuffix(s, "pgx/v5.Batch") ||
		strings.HasSuffix(s, "pgx/v4.Tx") || strings.HasSuffix(s, "pgx/v4.Batch") || strings.HasSuffix(s, "pgxpool.Tx") ||
		strings.HasSuffix(s, "jmoiron/sqlx.Tx") {
		return r
	}
	return nil
}

// sqlSession returns the receiver of a SQL call when it is a transaction
// or a pinned connection (one session), nil for a pool.
func sqlSession(cc *ssa.CallCommon) ssa.Value {
	r := receiver(cc)
	if r == nil {
		return nil
	}
	s := r.Type().String()
	for _, t := range []string{"database/sql.Tx", "database/sql.Conn", "pgx/v5.Tx", "pgx/v5.Conn", "pgx/v4.Tx", "pgx/v4.Conn", "pgxpool.Tx", "pgxpool.Conn", "jmoiron/sqlx.Tx"} {
		if strings.HasSuffix(s, t) {
			return stripValue(r)
		}
	}
	return nil
}

// preparedSQL follows a *sql.Stmt back to the Prepare that made it.
func (e *engine) preparedSQL(v ssa.Value, depth int) (string, bool) {
	if v == nil || depth > 4 {
		return "", false
	}
	switch x := stripValue(v).(type) {
	case *ssa.Extract:
		return e.preparedSQL(x.Tuple, depth+1)
	case *ssa.Call:
		fn := calleeFunc(x.Common())
		if fn == nil {
			return "", false
		}
		ps := params(x.Common())
		if i, ok := rules.Prepares[rules.Key(fn)]; ok && i < len(ps) {
			return constString(ps[i])
		}
		if i, ok := rules.TxStmts[rules.Key(fn)]; ok && i < len(ps) {
			return e.preparedSQL(ps[i], depth+1)
		}
	}
	return "", false
}

// binder maps placeholders to the Go values bound to them.
type binder struct {
	e    *engine
	args []ssa.Value
	ok   bool
}

func (b *binder) value(p sqlcond.Placeholder) ssa.Value {
	if !b.ok {
		return nil
	}
	switch p.Kind {
	case sqlcond.Positional, sqlcond.Ordinal:
		if p.Index >= 1 && p.Index <= len(b.args) {
			return b.args[p.Index-1]
		}
	case sqlcond.Named:
		for _, a := range b.args {
			if a == nil {
				continue
			}
			// pgx.NamedArgs{"tok": v}
			if v := mapValue(a, p.Name); v != nil {
				return v
			}
			// sql.Named("tok", v)
			if c, ok := stripValue(a).(*ssa.Call); ok {
				if fn := calleeFunc(c.Common()); fn != nil && fn.FullName() == rules.SQLNamed && len(c.Common().Args) == 2 {
					if n, ok := constString(c.Common().Args[0]); ok && strings.EqualFold(n, p.Name) {
						return c.Common().Args[1]
					}
				}
			}
		}
		// A struct argument (sqlx :name binding) carries the value in a field.
		for _, a := range b.args {
			if a == nil {
				continue
			}
			if fs, ok := fieldStores(a); ok {
				for name, v := range fs {
					if strings.EqualFold(name, p.Name) || strings.EqualFold(strings.ReplaceAll(p.Name, "_", ""), name) {
						return v
					}
				}
			}
		}
	}
	return nil
}

// originOfOperand returns the token origin of any placeholder of op.
func (b *binder) originOfOperand(op sqlcond.Operand) *origin {
	var paramO *origin
	for _, p := range op.Params {
		if v := b.value(p); v != nil {
			if o := b.e.originOf(v); o != nil {
				if o.param < 0 {
					return o
				}
				if paramO == nil {
					paramO = o
				}
			}
		}
	}
	return paramO
}

// tokenCompare is one comparison of a stored column with a token.
type tokenCompare struct {
	column string
	op     string // normalised to "column OP token"
	origin *origin
}

// judgeSQL fills the verdict of a SQL write.
func (e *engine) judgeSQL(ev *eval, stmt *sqlcond.Statement, b *binder) {
	conds := stmt.Where
	if stmt.Verb == sqlcond.Insert {
		conds = stmt.ConflictWhere
	}
	// Values inserted under a column name: EXCLUDED.col / VALUES(col)
	// in an ON CONFLICT condition read them.
	inserted := map[string]sqlcond.Operand{}
	if stmt.Verb == sqlcond.Insert {
		for _, a := range stmt.Set {
			inserted[a.Column] = a.Value
		}
	}
	operandOrigin := func(op sqlcond.Operand) *origin {
		if o := b.originOfOperand(op); o != nil {
			return o
		}
		if op.Table == "excluded" && op.Column != "" {
			if v, ok := inserted[op.Column]; ok {
				return b.originOfOperand(v)
			}
		}
		return nil
	}
	isStored := func(op sqlcond.Operand) bool {
		return op.Column != "" && op.Table != "excluded"
	}

	if !b.ok && conjunctsHaveParams(conds) {
		// Arguments spread from elsewhere (args...): placeholders in the
		// condition cannot be bound, so the verdict is unknown.
		ev.verdict = Unknown
		return
	}
	// An OR group fences only when its one alternative besides the
	// transitional "fence IS NULL" branch (which fencepredicate reports on
	// its own) compares the token: "fence < $1 OR id = $2" lets any row
	// with the id through, and "a < $1 OR b < $1" a row that recorded the
	// token in only one of them (the PostgreSQL proof showed both).
	fencingGroup := func(c sqlcond.Conjunct) bool {
		n := 0
		for _, cmp := range c.Or {
			if cmp.Op != "IS NULL" {
				n++
			}
		}
		return n <= 1
	}
	var compares []tokenCompare
	var paramFences []int
	for _, c := range conds {
		if !fencingGroup(c) {
			continue
		}
		for _, cmp := range c.Or {
			if cmp.Op == "" {
				continue
			}
			if isStored(cmp.Left) {
				if o := operandOrigin(cmp.Right); o != nil {
					if o.param >= 0 {
						if !paramFence(cmp.Left.Column, cmp.Op) {
							continue
						}
						paramFences = appendUnique(paramFences, o.param)
					} else {
						compares = append(compares, tokenCompare{cmp.Left.Column, cmp.Op, o})
					}
				}
			}
			if isStored(cmp.Right) {
				if o := operandOrigin(cmp.Left); o != nil {
					if o.param >= 0 {
						if !paramFence(cmp.Right.Column, cmp.Op) {
							continue
						}
						paramFences = appendUnique(paramFences, o.param)
					} else {
						compares = append(compares, tokenCompare{cmp.Right.Column, flipOp(cmp.Op), o})
					}
				}
			}
		}
	}
	// Columns that record the token.
	var recorded []string
	var recordOrigin *origin
	sets := stmt.Set
	if stmt.OnConflict || stmt.OnDuplicateKey {
		sets = append(append([]sqlcond.Assignment{}, stmt.Set...), stmt.ConflictSet...)
	}
	for _, a := range sets {
		if o := operandOrigin(a.Value); o.isToken() {
			recorded = append(recorded, a.Column)
			recordOrigin = o
		}
	}

	for _, c := range compares {
		ev.compares = append(ev.compares, Compare{Column: c.column, Op: c.op, Token: c.origin.desc, TokenPos: c.origin.pos, Weak: c.origin.weak, Why: c.origin.why})
	}
	ev.recorded = recorded
	if len(compares) > 0 {
		ev.verdict = WrongPredicate
		allWeak := true
		for _, c := range compares {
			if !c.origin.weak {
				allWeak = false
			}
		}
		for _, c := range compares {
			if validDirection(c.op) {
				ev.verdict = Fenced
			}
		}
		if allWeak {
			ev.verdict = WeakToken
		}
		return
	}
	// A helper compares a parameter where a fence would be: its callers
	// decide whether a token reaches it (a FencedBy fact).
	ev.fencedBy = paramFences
	if stmt.Partial && len(conds) == 0 && stmt.Verb != sqlcond.Insert {
		ev.verdict = Unknown
		return
	}
	if stmt.Verb == sqlcond.Insert && stmt.DoNothing && len(recorded) > 0 {
		ev.verdict = Fenced // token-keyed row: a stale holder's insert is a no-op
		return
	}
	if len(recorded) > 0 {
		ev.verdict = RecordedOnly
		clause := "WHERE"
		if stmt.Verb == sqlcond.Insert {
			clause = "ON CONFLICT ... WHERE"
		}
		ev.detail = fmt.Sprintf("it records %s in %s but its %s never compares it", recordOrigin.desc, recorded[0], clause)
		return
	}
	ev.verdict = Unfenced
	switch stmt.Verb {
	case sqlcond.Insert:
		if stmt.OnConflict || stmt.OnDuplicateKey {
			ev.detail = "its ON CONFLICT update does not compare a fence column with the token"
		} else {
			ev.detail = "a plain INSERT carries no fencing token"
			ev.createOnly = true
		}
	default:
		ev.detail = fmt.Sprintf("its WHERE does not compare a fence column with the token")
	}
}

func conjunctsHaveParams(conds []sqlcond.Conjunct) bool {
	for _, c := range conds {
		for _, cmp := range c.Or {
			if len(cmp.Left.Params)+len(cmp.Right.Params) > 0 {
				return true
			}
		}
	}
	return false
}

// paramFence: in a helper, a parameter compared by order, or by equality
// with a fence-like column, is where callers pass the token. Equality with
// other columns (id = $1) is a key lookup.
func paramFence(column, op string) bool {
	switch op {
	case "<", "<=", ">", ">=":
		return true
	case "=":
		return fenceLikeColumn(column)
	}
	return false
}

func fenceLikeColumn(c string) bool {
	c = strings.ToLower(c)
	for _, k := range []string{"fence", "token", "epoch", "generation", "revision", "version", "range_id", "term", "sequence", "lease"} {
		if strings.Contains(c, k) {
			return true
		}
	}
	return c == "gen" || c == "rev" || c == "seq"
}

// flipOp turns "token OP column" into "column OP' token".
func flipOp(op string) string {
	switch op {
	case "<":
		return ">"
	case "<=":
		return ">="
	case ">":
		return "<"
	case ">=":
		return "<="
	}
	return op
}

// validDirection: the stored fence must be below (or, for a retry by the
// same holder, equal to) the presented token; equality is also the CAS on
// a generation stamped at acquire.
func validDirection(op string) bool {
	switch strings.ToUpper(op) {
	case "<", "<=", "=", "IS NOT DISTINCT FROM":
		return true
	}
	return false
}
