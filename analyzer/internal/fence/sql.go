package fence

import (
	"fmt"
	"go/token"
	"go/types"
	"strconv"
	"strings"

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
		query, ok = e.sqlString(ps[w.QueryArg])
	}
	unit := sqlUnit(cc, w)
	if !ok {
		// Dynamic SQL is not guessed at: precision first.
		return &eval{unit: nil}
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
	return e.evalSQLText(query, args, argsOK, unit)
}

// evalSQLText judges the SQL text query run with arguments args (argsOK:
// they are all known) in transaction or batch unit, if any: the reading of
// a database call, and of a call of a helper that forwards its SQL
// (forward.go).
func (e *engine) evalSQLText(query string, args []ssa.Value, argsOK bool, unit ssa.Value) *eval {
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
	e.noteFenceColumns(stmt, &binder{e: e, args: args, ok: argsOK})
	if readLeaseStmt(stmt, e.isClaimedTable).role != leaseNone {
		// A lease table's claim, renewal or release: the lock's own
		// bookkeeping, not a data write (leasetable.go).
		return &eval{unit: unit}
	}
	b := &binder{e: e, args: args, ok: argsOK}
	ev := &eval{isWrite: true, store: "SQL", target: stmt.Table, unit: unit, sql: query}
	e.judgeSQL(ev, query, stmts, stmt, b)
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

// sqlCache holds parsed SQL by text: one parse per text per package.
// Only the engine's own run reads it (analyzers get data, not parsers).
type sqlCache struct {
	m map[string]parsedSQL
}

type parsedSQL struct {
	stmts []*sqlcond.Statement
	err   error
}

func (c *sqlCache) parse(query string) ([]*sqlcond.Statement, error) {
	p, ok := c.m[query]
	if !ok {
		p.stmts, p.err = sqlcond.Parse(query)
		if c.m == nil {
			c.m = map[string]parsedSQL{}
		}
		c.m[query] = p
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
	if rules.IsTxType(r.Type()) {
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
	if rules.IsSessionType(r.Type()) {
		return stripValue(r)
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
			return e.sqlString(ps[i])
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
	// cql: the text is Cassandra's CQL, where a write's condition is its
	// IF clause and the WHERE only names the row (cql.go).
	cql bool
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

// sqlRead is the engine's reading of one SQL write statement.
type sqlRead struct {
	stmt     *sqlcond.Statement
	stmts    []*sqlcond.Statement // every statement of the call's text
	cmps     []readCmp
	recorded []string
	// cql: the statement is CQL; its WHERE compares name the row and
	// are no condition (cql.go).
	cql bool
	// setsUnknown: the statement was rebuilt from a gorm chain whose
	// values (a struct, a map from elsewhere) were not read, so what it
	// records is unknown.
	setsUnknown bool
}

// judgeSQL fills the verdict of a SQL write from its one reading.
func (e *engine) judgeSQL(ev *eval, text string, stmts []*sqlcond.Statement, stmt *sqlcond.Statement, b *binder) {
	cmps, recorded, recordOrigin := e.readSQLCond(text, stmt, b)
	ev.sqlRead = &sqlRead{stmt: stmt, stmts: stmts, cmps: cmps, recorded: recorded, cql: b.cql}
	ev.cond = &Condition{Text: text, Compares: publicCompares(cmps), Records: recorded, RecordsKnown: !stmt.Partial, Partial: stmt.Partial}
	conds := stmt.Where
	switch {
	case b.cql && stmt.Verb == sqlcond.Insert:
		conds = nil // IF NOT EXISTS is its only condition
	case b.cql:
		conds = stmt.If
	case stmt.Verb == sqlcond.Insert:
		conds = stmt.ConflictWhere
	case stmt.Verb == sqlcond.Merge:
		conds = stmt.MatchedWhere
	}
	if !b.ok && conjunctsHaveParams(conds) {
		// Arguments spread from elsewhere (args...): placeholders in the
		// condition cannot be bound, so the verdict is unknown.
		ev.verdict = Unknown
		return
	}
	var compares []readCmp
	var paramFences []int
	onToken := false
	bypass, rowKey := "", ""
	for _, c := range cmps {
		if c.bypass != "" && c.o.isToken() && bypass == "" {
			bypass = c.bypass
		}
		if c.rowKey && rowKey == "" {
			rowKey = c.pub.Text
		}
		if !c.pub.Fencing {
			if c.pub.Clause == "ON" && c.o.isToken() {
				onToken = true
			}
			continue
		}
		if c.o.param >= 0 {
			if paramFence(c.pub.Column, c.pub.Op) {
				paramFences = appendUnique(paramFences, c.o.param)
			}
			continue
		}
		compares = append(compares, c)
	}
	for _, c := range compares {
		ev.compares = append(ev.compares, Compare{Column: c.pub.Column, Op: c.pub.Op, Token: c.o.desc, TokenPos: c.o.pos, Weak: c.o.weak, Why: c.o.why})
	}
	ev.recorded = recorded
	if len(compares) > 0 {
		ev.verdict = WrongPredicate
		allWeak := true
		for _, c := range compares {
			if !c.o.weak {
				allWeak = false
			}
		}
		for _, c := range compares {
			if validDirection(c.pub.Op) {
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
	partialConds := len(conds) == 0
	if stmt.Verb == sqlcond.Merge {
		// MERGE is always Partial (its other WHEN branches); an ON clause
		// read whole is a condition read, though not a fence.
		partialConds = len(stmt.Where)+len(stmt.MatchedWhere) == 0
	}
	if stmt.Partial && partialConds && stmt.Verb != sqlcond.Insert {
		ev.verdict = Unknown
		return
	}
	if onToken {
		// The token is compared only in a MERGE's ON join: whether that
		// keeps a stale holder out depends on its WHEN NOT MATCHED
		// branches, which are not read. Silence on doubt.
		ev.verdict = Unknown
		return
	}
	if col, ok := versionCAS(stmt, conds, b); ok {
		// Optimistic concurrency on the row's own version: the store
		// rejects the write when anyone changed the row since the value
		// compared was read, as a ZooKeeper Set with the Stat.Version of
		// its Get does (docs/design.md).
		ev.verdict = Fenced
		ev.compares = append(ev.compares, Compare{Column: col, Op: "=", Token: "the " + col + " it read (compare-and-set)"})
		return
	}
	if stmt.Verb == sqlcond.Insert && stmt.DoNothing && len(recorded) > 0 {
		ev.verdict = Fenced // token-keyed row: a stale holder's insert is a no-op
		return
	}
	if len(recorded) > 0 {
		ev.verdict = RecordedOnly
		clause := "WHERE"
		switch {
		case b.cql && stmt.Verb == sqlcond.Insert:
			clause = "statement (an INSERT has no IF to compare it in)"
		case b.cql:
			clause = "IF"
		case stmt.Verb == sqlcond.Insert && stmt.OnDuplicateKey:
			clause = "ON DUPLICATE KEY UPDATE"
		case stmt.Verb == sqlcond.Insert:
			clause = "ON CONFLICT ... WHERE"
		case stmt.Verb == sqlcond.Merge:
			clause = "WHEN MATCHED"
		}
		ev.detail = fmt.Sprintf("it records %s in %s but its %s never compares it", recordOrigin.desc, recorded[0], clause)
		if bypass != "" {
			ev.detail = fmt.Sprintf("its %s compares the token inside an OR, %q: the row is written when any alternative holds, so the fence does not bind", clause, bypass)
		}
		if rowKey != "" {
			ev.detail += fmt.Sprintf(" (it compares the token with %s, which names the row: are the arguments in the wrong order?)", rowKey)
		}
		return
	}
	ev.verdict = Unfenced
	if b.cql {
		cqlUnfenced(ev, stmt)
		return
	}
	switch stmt.Verb {
	case sqlcond.Insert:
		if stmt.OnConflict || stmt.OnDuplicateKey {
			ev.detail = "its ON CONFLICT update does not compare a fence column with the token"
		} else {
			ev.detail = "a plain INSERT carries no fencing token"
			ev.createOnly = true
		}
	case sqlcond.Merge:
		ev.detail = "its WHEN MATCHED update does not compare a fence column with the token"
		ev.blind = len(conds) == 0
	default:
		ev.detail = "its WHERE does not compare a fence column with the token"
		ev.blind = len(conds) == 0 && !stmt.Partial
	}
	if bypass != "" {
		ev.detail = fmt.Sprintf("its condition compares the token inside an OR, %q: the row is written when any alternative holds, so the fence does not bind", bypass)
	}
	if rowKey != "" {
		ev.detail = fmt.Sprintf("its WHERE compares the token only with %s, which names the row, not a fence column: are the arguments in the wrong order?", rowKey)
	}
	if stmt.Verb == sqlcond.Insert && (stmt.OnConflict || stmt.OnDuplicateKey) && !stmt.DoNothing && len(conds) == 0 {
		ev.blind = true // an upsert that overwrites whatever it finds
	}
}

// cqlUnfenced words an unfenced CQL write: an INSERT is an upsert unless
// IF NOT EXISTS makes it create only, and the WHERE of an UPDATE or
// DELETE names the row, so without an IF it is unconditional.
func cqlUnfenced(ev *eval, stmt *sqlcond.Statement) {
	switch {
	case stmt.Verb == sqlcond.Insert && stmt.IfNotExists:
		ev.detail = "INSERT ... IF NOT EXISTS only creates the row; it carries no fencing token"
		ev.createOnly = true
	case stmt.Verb == sqlcond.Insert:
		ev.detail = "a CQL INSERT overwrites the row (it is an upsert) and has no IF condition"
		ev.blind = true
	case stmt.IfExists:
		ev.detail = "its IF EXISTS only checks that the row exists, not the fence"
	case len(stmt.If) == 0:
		ev.detail = "it has no IF condition (in CQL the WHERE only names the row)"
		ev.blind = !stmt.Partial
	default:
		ev.detail = "its IF does not compare a fence column with the token"
	}
}

// versionCAS recognises an UPDATE that is a compare-and-set on a version
// column of the row: its condition requires the column to equal a bound
// value (version = $2, not a constant, not another column) and its SET
// moves the column on (version = version + 1, or version = a different
// bound value), so a writer whose read is stale matches no row. A SET
// that leaves the column as it is (version = $2 again) is no CAS: it
// keeps the row's version, and a stale writer's compare still holds.
func versionCAS(stmt *sqlcond.Statement, conds []sqlcond.Conjunct, b *binder) (string, bool) {
	if stmt.Verb != sqlcond.Update {
		return "", false
	}
	for _, c := range conds {
		if c.Unknown || len(c.Or) != 1 || c.Or[0].Op != "=" {
			continue
		}
		col, val := c.Or[0].Left, c.Or[0].Right
		if col.Column == "" {
			col, val = val, col
		}
		if col.Column == "" || val.Column != "" || val.Literal != "" || len(val.Params) != 1 || !fenceLikeColumn(col.Column) {
			continue
		}
		for _, a := range stmt.Set {
			if a.Column == col.Column && movesOn(a.Value, col.Column, val.Params[0], b) {
				return col.Column, true
			}
		}
	}
	return "", false
}

// movesOn: the value assigned to column differs from the one compared:
// an expression over the column itself or over the compared value
// (version + 1, $2 + 1), or one bound value that is not the compared one.
func movesOn(v sqlcond.Operand, column string, compared sqlcond.Placeholder, b *binder) bool {
	if v.Column != "" || v.Literal != "" {
		return false
	}
	if !v.IsParam {
		if containsWord(strings.ToLower(v.Text), column) {
			return true
		}
		y := b.value(compared)
		for _, p := range v.Params {
			if x := b.value(p); samePlaceholder(p, compared) || x != nil && y != nil && stripValue(x) == stripValue(y) {
				return true
			}
		}
		return false
	}
	p := v.Params[0]
	if samePlaceholder(p, compared) {
		return false
	}
	x, y := b.value(p), b.value(compared)
	return x != nil && y != nil && stripValue(x) != stripValue(y)
}

func samePlaceholder(p, q sqlcond.Placeholder) bool {
	return p.Kind == q.Kind && p.Index == q.Index && strings.EqualFold(p.Name, q.Name)
}

// containsWord: word occurs in s not as part of a longer identifier.
func containsWord(s, word string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], word)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(word)
		if (j == 0 || !isIdentByte(s[j-1])) && (end == len(s) || !isIdentByte(s[end])) {
			return true
		}
		i = j + 1
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
	if rules.IsTimeColumn(column) {
		return false // WHERE created_epoch < $1: a cut-off, not a fence
	}
	return orderOp(op) || op == "=" && fenceLikeColumn(column)
}

func fenceLikeColumn(c string) bool {
	c = strings.ToLower(c)
	for _, k := range []string{"fence", "fencing", "token", "epoch", "generation", "revision", "version", "range_id", "term", "sequence", "lease"} {
		if strings.Contains(c, k) {
			return true
		}
	}
	return c == "gen" || c == "rev" || c == "seq"
}

// sqlText returns the SQL text v carries: a constant, or a fmt.Sprintf of
// a constant format whose verbs fill only identifier positions (schema
// and table names: terraform's pg backend builds every statement as
// fmt.Sprintf(`... FROM %s.%s WHERE name = $1`, schema, table)). A verb in
// a value position is filled only by a constant argument; any other value
// there could be the token itself formatted into the text, so the text is
// not read (precision: a fence spelled with %d is not mistaken for a
// missing one).
func sqlText(v ssa.Value) (string, bool) {
	if s, ok := constString(v); ok {
		return s, true
	}
	if s, ok := sprintfSQL(v, false); ok {
		return s, true
	}
	return concatSQL(v, false)
}

// sqlString is sqlText, and the text of an unexported package-level
// variable nothing changes (globalsql.go).
func (e *engine) sqlString(v ssa.Value) (string, bool) {
	if s, ok := sqlText(v); ok {
		return s, true
	}
	return e.globalSQL(v)
}

// lockSQLString is lockSQLText, and such a variable's text.
func (e *engine) lockSQLString(v ssa.Value) (string, bool) {
	if s, ok := lockSQLText(v); ok {
		return s, true
	}
	return e.globalSQL(v)
}

// lockSQLText is sqlText for reading which advisory-lock function a
// statement calls: a lock key formatted into the text
// (pg_advisory_unlock(%s)) does not change that, so value positions are
// filled too.
func lockSQLText(v ssa.Value) (string, bool) {
	if s, ok := constString(v); ok {
		return s, true
	}
	if s, ok := sprintfSQL(v, true); ok {
		return s, true
	}
	return concatSQL(v, true)
}

// sprintfSQL renders fmt.Sprintf(format, args...) with a constant format
// as SQL: constant arguments are written in, other arguments become an
// identifier named after the Go value (a field's or variable's name). It
// fails on verbs it does not know, on an argument list it cannot read,
// and, unless values is set, on a non-constant argument outside an
// identifier position.
func sprintfSQL(v ssa.Value, values bool) (string, bool) {
	call, ok := stripValue(v).(*ssa.Call)
	if !ok {
		return "", false
	}
	fn := calleeFunc(call.Common())
	if fn == nil || rules.Key(fn) != rules.Sprintf || len(call.Common().Args) != 2 {
		return "", false
	}
	format, ok := constString(call.Common().Args[0])
	if !ok {
		return "", false
	}
	args, ok := unpackVariadic(call.Common().Args[1])
	if !ok {
		return "", false
	}
	return renderSQL(format, args, values)
}

// concatSQL renders a concatenation of strings ("UPDATE " + s.table + "
// SET ...") as SQL the way sprintfSQL renders Sprintf: constant operands
// are written in, and any other operand, in an identifier position only
// (unless values is set), becomes an identifier named after the Go value.
func concatSQL(v ssa.Value, values bool) (string, bool) {
	var parts []ssa.Value
	if !concatOperands(v, &parts, 0) || len(parts) < 2 {
		return "", false
	}
	var format strings.Builder
	var args []ssa.Value
	for _, p := range parts {
		if s, ok := constString(p); ok {
			format.WriteString(strings.ReplaceAll(s, "%", "%%"))
			continue
		}
		format.WriteString("%s")
		args = append(args, p)
	}
	return renderSQL(format.String(), args, values)
}

// maxConcatOperands bounds the operands concatOperands collects: SQL
// is built from a handful of pieces, and a longer chain is something else.
const maxConcatOperands = 32

// concatOperands appends to parts the operands of the string concatenation
// v, left to right; false if v is no concatenation or has too many.
func concatOperands(v ssa.Value, parts *[]ssa.Value, depth int) bool {
	bin, ok := v.(*ssa.BinOp)
	if !ok || bin.Op != token.ADD || !isStringType(bin.Type()) {
		if depth == 0 {
			return false
		}
		*parts = append(*parts, v)
		return len(*parts) <= maxConcatOperands
	}
	return concatOperands(bin.X, parts, depth+1) && concatOperands(bin.Y, parts, depth+1)
}

func isStringType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// renderSQL writes format's text with args filled in for its %s, %d and
// %v verbs (sprintfSQL, concatSQL).
func renderSQL(format string, args []ssa.Value, values bool) (string, bool) {
	var b strings.Builder
	next := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(format) {
			return "", false
		}
		verb := format[i+1]
		i++
		if verb == '%' {
			b.WriteByte('%')
			continue
		}
		if verb != 's' && verb != 'd' && verb != 'v' {
			return "", false // flags, widths, %q, explicit indexes: not read
		}
		if next >= len(args) || args[next] == nil {
			return "", false
		}
		arg := args[next]
		next++
		if s, ok := constString(arg); ok && verb != 'd' {
			b.WriteString(s)
			continue
		}
		if n, ok := constInt(arg); ok && verb != 's' {
			b.WriteString(strconv.FormatInt(n, 10))
			continue
		}
		if !values && !identPosition(format, i-1, i+1) {
			return "", false
		}
		b.WriteString(goValueName(arg))
	}
	if next != len(args) {
		return "", false // %!(EXTRA ...): not what the database receives
	}
	return b.String(), true
}

// identPosition reports whether the verb at format[start:end] names a
// schema, table or column: it is qualified (%s.col, schema.%s) or follows
// a keyword that takes a table name.
func identPosition(format string, start, end int) bool {
	if end < len(format) && format[end] == '.' {
		return true
	}
	if start > 0 && format[start-1] == '.' {
		return true
	}
	before := strings.TrimRight(format[:start], " \t\r\n")
	j := len(before)
	for j > 0 && isIdentByte(before[j-1]) {
		j--
	}
	switch strings.ToUpper(before[j:]) {
	case "FROM", "INTO", "UPDATE", "JOIN", "TABLE":
		return true
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// goValueName names a formatted argument for the SQL text: the field or
// variable it was read from, so a target reads schema.states, not a
// placeholder.
func goValueName(v ssa.Value) string {
	name := ""
	for range 4 {
		v = stripValue(v)
		if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
			v = load.X
		}
		switch x := v.(type) {
		case *ssa.FieldAddr:
			name = structFieldName(x.X.Type(), x.Field)
		case *ssa.Field:
			name = structFieldName(x.X.Type(), x.Field)
		case *ssa.Global:
			name = x.Name()
		case *ssa.Parameter:
			name = x.Name()
		case *ssa.Call:
			// sql.EscapeName(c.DatabaseName): a quoting helper names what
			// it quotes; c.GetChangelogTableName() names itself.
			if ps := params(x.Common()); len(ps) > 0 {
				v = ps[0]
				continue
			}
			if fn := calleeFunc(x.Common()); fn != nil {
				name = strings.TrimPrefix(fn.Name(), "Get")
			}
		}
		break
	}
	if name == "" || !isIdent(name) {
		return "fmtarg"
	}
	return name
}
