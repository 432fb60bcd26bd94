package sqlcond

import "strings"

// parser reads one statement: tokens t[lo:hi] of src. Positions are
// indexes into t; every helper treats positions outside [lo, hi) as absent.
type parser struct {
	src    string
	t      []token
	lo, hi int
	st     *Statement
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

func (p *parser) in(i int) bool { return i >= p.lo && i < p.hi }

// kw reports whether token i is one of the (lower-case) keywords.
func (p *parser) kw(i int, words ...string) bool {
	if !p.in(i) || p.t[i].kind != tWord {
		return false
	}
	for _, w := range words {
		if p.t[i].word == w {
			return true
		}
	}
	return false
}

func (p *parser) op(i int, s string) bool {
	return p.in(i) && p.t[i].kind == tOp && p.t[i].word == s
}

func (p *parser) isIdent(i int) bool {
	return p.in(i) && (p.t[i].kind == tWord || p.t[i].kind == tQuoted)
}

// params returns the placeholders in [lo, hi), sized exactly: a huge IN
// list would otherwise spend its time regrowing the slice.
func (p *parser) params(lo, hi int) []Placeholder {
	n := 0
	for i := lo; i < hi; i++ {
		if p.t[i].kind == tParam {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]Placeholder, 0, n)
	for i := lo; i < hi; i++ {
		if p.t[i].kind == tParam {
			out = append(out, *p.t[i].ph)
		}
	}
	return out
}

// match returns the partner of the parenthesis at i.
func (p *parser) match(i int) int { return int(p.t[i].match) }

// skip returns the position after token i, jumping over a parenthesised group.
func (p *parser) skip(i int) int {
	if (p.op(i, "(") || p.op(i, "{")) && p.match(i) > i {
		return p.match(i) + 1
	}
	return i + 1
}

// span is the source text of tokens [lo, hi).
func (p *parser) span(lo, hi int) string {
	if lo >= hi || !p.in(lo) || !p.in(hi-1) {
		return ""
	}
	return p.src[p.t[lo].start:p.t[hi-1].end]
}

func (p *parser) offset(i int) int {
	if p.in(i) {
		return p.t[i].start
	}
	if p.lo < p.hi && i >= p.hi {
		return p.t[p.hi-1].end
	}
	return 0
}

// isClause reports whether keyword w at i starts a clause rather than
// being part of an expression or a column that happens to share its name.
func (p *parser) isClause(i int, w string) bool {
	switch w {
	case "from":
		return !p.kw(i-1, "distinct")
	case "for":
		return p.kw(i+1, "update", "share", "no", "key")
	case "lock":
		return p.kw(i+1, "in")
	case "order", "group":
		return p.kw(i+1, "by")
	case "on":
		return p.kw(i+1, "conflict", "duplicate")
	case "do":
		return p.kw(i+1, "update", "nothing")
	case "output":
		return p.kw(i+1, "inserted", "deleted") || p.in(i+1) && p.t[i+1].kind == tParam
	case "fetch":
		return p.kw(i+1, "first", "next")
	case "option":
		return p.op(i+1, "(")
	case "if":
		return !p.op(i+1, "(") // MySQL's IF(c, a, b) is a function
	}
	return true
}

// find returns the first position in [from, hi) holding one of words at
// the top level (outside parentheses and CASE ... END), or hi.
func (p *parser) find(from, hi int, words ...string) int {
	if hi > p.hi {
		hi = p.hi
	}
	caseDepth := 0
	for i := from; i < hi; i = p.skip(i) {
		if p.t[i].kind != tWord {
			continue
		}
		w := p.t[i].word
		switch {
		case w == "case":
			caseDepth++
		case w == "end" && caseDepth > 0:
			caseDepth--
		case caseDepth == 0:
			for _, x := range words {
				if w == x && p.isClause(i, w) {
					return i
				}
			}
		}
	}
	return hi
}

// splitComma splits [lo, hi) on top-level commas.
func (p *parser) splitComma(lo, hi int) [][2]int {
	if lo >= hi {
		return nil
	}
	var out [][2]int
	start := lo
	for i := lo; i < hi; i = p.skip(i) {
		if p.op(i, ",") {
			out = append(out, [2]int{start, i})
			start = i + 1
		}
	}
	return append(out, [2]int{start, min(hi, p.hi)})
}

// name reads ident(.ident)* at i: the lower-cased parts and the position after.
func (p *parser) name(i int) ([]string, int) {
	if !p.isIdent(i) {
		return nil, i
	}
	parts := []string{p.t[i].word}
	i++
	for p.op(i, ".") && p.isIdent(i+1) {
		parts = append(parts, p.t[i+1].word)
		i += 2
	}
	return parts, i
}

// notAlias holds keywords that may follow a table name and so are never
// read as its alias.
var notAlias = set("set", "where", "from", "using", "on", "values", "value", "select", "returning",
	"output", "join", "inner", "left", "right", "full", "cross", "natural", "straight_join", "order",
	"limit", "group", "having", "with", "default", "when", "partition", "as", "into", "lateral",
	"window", "union", "except", "intersect", "for", "overriding", "lock", "offset", "fetch", "option", "if")

// target reads the table of a write at i: [ONLY] name [*] [[AS] alias] [WITH (hints)].
func (p *parser) target(i int) int {
	if p.kw(i, "only") {
		i++
	}
	parts, j := p.name(i)
	if parts == nil || p.t[i].kind == tWord && notAlias[p.t[i].word] {
		p.st.Partial = true
		return i
	}
	p.st.Table = strings.Join(parts, ".")
	if p.op(j, "*") {
		j++
	}
	switch {
	case p.kw(j, "as") && p.isIdent(j+1):
		p.st.Alias = p.t[j+1].word
		j += 2
	case p.in(j) && p.t[j].kind == tQuoted || p.in(j) && p.t[j].kind == tWord && !notAlias[p.t[j].word]:
		p.st.Alias = p.t[j].word
		j++
	}
	if p.kw(j, "with") && p.op(j+1, "(") {
		j = p.skip(j + 1) // SQL Server table hints
	}
	return j
}

func (p *parser) statement() *Statement {
	p.st = &Statement{Text: p.span(p.lo, p.hi), Offset: p.offset(p.lo)}
	p.st.Params = p.params(p.lo, p.hi)
	i := p.lo
	if p.kw(i, "with") {
		i = p.with(i + 1)
	}
	switch {
	case i < 0:
		p.st.Partial = true
	case p.kw(i, "select"):
		p.selectStmt(i + 1)
	case p.kw(i, "insert", "replace", "upsert"):
		p.insert(i + 1)
	case p.kw(i, "update"):
		p.update(i + 1)
	case p.kw(i, "delete"):
		p.delete(i + 1)
	case p.kw(i, "merge"):
		p.merge(i + 1)
	case i == p.lo && p.in(i) && p.t[i].kind == tWord:
		p.st.Verb = Other
	default:
		p.st.Partial = true
	}
	p.st.Calls = p.calls()
	return p.st
}

// with skips the CTEs of WITH [RECURSIVE] name [(cols)] AS [[NOT] MATERIALIZED] (body), ...
// and returns the position of the main statement, or -1.
func (p *parser) with(i int) int {
	if p.kw(i, "recursive") {
		i++
	}
	for {
		if !p.isIdent(i) {
			return -1
		}
		i++
		if p.op(i, "(") {
			p.t[i-1].decl = true
			i = p.skip(i)
		}
		if !p.kw(i, "as") {
			return -1
		}
		i++
		if p.kw(i, "not") {
			i++
		}
		if p.kw(i, "materialized") {
			i++
		}
		if !p.op(i, "(") {
			return -1
		}
		if p.kw(i+1, "insert", "update", "delete", "merge", "replace", "upsert") {
			p.st.WithWrite = true
			p.st.Partial = true
		}
		i = p.skip(i)
		if !p.op(i, ",") {
			return i
		}
		i++
	}
}

// clauses walks the clauses of [i, p.hi) that start with one of words,
// handing each keyword and the range after it to fn. Text before the first
// clause or under an unknown keyword makes the statement Partial.
func (p *parser) clauses(i int, words []string, fn func(k string, lo, hi int) bool) {
	if i < p.hi && !p.kw(i, words...) {
		p.st.Partial = true
		i = p.find(i, p.hi, words...)
	}
	for i < p.hi {
		end := p.find(i+1, p.hi, words...)
		if !fn(p.t[i].word, i+1, end) {
			p.st.Partial = true
		}
		i = end
	}
}

func (p *parser) update(i int) {
	p.st.Verb = Update
	for p.kw(i, "low_priority", "ignore") {
		i++
	}
	if p.kw(i, "top") { // SQL Server UPDATE TOP (n)
		i = p.skip(i + 1)
		if p.kw(i, "percent") {
			i++
		}
	}
	i = p.target(i)
	// "using" and "if" are CQL's: UPDATE t USING TTL n SET ... WHERE
	// ... IF cond.
	words := []string{"set", "from", "where", "returning", "output", "order", "limit", "option", "using", "if"}
	p.clauses(i, words, func(k string, lo, hi int) bool {
		switch k {
		case "if":
			p.ifClause(lo, hi)
		case "set":
			p.st.Set = p.assignments(lo, hi)
		case "where":
			p.st.Where = p.conds(lo, hi)
		case "returning":
			p.st.Returning = p.returning(lo, hi)
		case "output":
			p.st.Returning = p.returning(lo, p.find(lo, hi, "into"))
		}
		return true
	})
	if p.st.Set == nil {
		p.st.Partial = true
	}
}

func (p *parser) delete(i int) {
	p.st.Verb = Delete
	for p.kw(i, "low_priority", "quick", "ignore") {
		i++
	}
	if p.kw(i, "top") {
		i = p.skip(i + 1)
		if p.kw(i, "percent") {
			i++
		}
	}
	if !p.kw(i, "from") {
		// CQL's DELETE col, col[key] FROM t deletes columns of the row;
		// MySQL's DELETE t1 FROM t1 JOIN ... stays Partial below (JOIN).
		if f := p.find(i, p.hi, "from", "where"); p.kw(f, "from") && f > i {
			i = f
		}
	}
	if p.kw(i, "from") {
		i++
	}
	i = p.target(i)
	words := []string{"from", "using", "where", "returning", "output", "order", "limit", "option", "if"}
	p.clauses(i, words, func(k string, lo, hi int) bool {
		switch k {
		case "if":
			p.ifClause(lo, hi)
		case "from":
			return false // multi-table DELETE t1 FROM t1 JOIN ...: the target is unclear
		case "where":
			p.st.Where = p.conds(lo, hi)
		case "returning":
			p.st.Returning = p.returning(lo, hi)
		case "output":
			p.st.Returning = p.returning(lo, p.find(lo, hi, "into"))
		}
		return true
	})
}

func (p *parser) insert(i int) {
	p.st.Verb = Insert
	for p.kw(i, "low_priority", "delayed", "high_priority") {
		i++
	}
	if p.kw(i, "ignore") {
		p.st.DoNothing = true
		i++
	}
	if p.kw(i, "or") { // SQLite INSERT OR IGNORE|REPLACE|ABORT|FAIL|ROLLBACK
		p.st.DoNothing = p.kw(i+1, "ignore")
		i += 2
	}
	if p.kw(i, "top") {
		i = p.skip(i + 1)
		if p.kw(i, "percent") {
			i++
		}
	}
	if p.kw(i, "into") {
		i++
	}
	i = p.target(i)
	var cols []string
	if p.op(i, "(") && !p.kw(i+1, "select", "with", "values") {
		for _, c := range p.splitComma(i+1, p.match(i)) {
			parts, j := p.name(c[0])
			if parts == nil || j != c[1] {
				p.st.Partial = true
				cols = nil
				break
			}
			cols = append(cols, parts[len(parts)-1])
		}
		i = p.skip(i)
	}
	i = p.insertSource(i, cols)
	for i < p.hi {
		switch {
		case p.kw(i, "on") && p.kw(i+1, "conflict"):
			i = p.onConflict(i + 2)
		case p.kw(i, "on") && p.kw(i+1, "duplicate") && p.kw(i+2, "key") && p.kw(i+3, "update"):
			p.st.OnDuplicateKey = true
			end := p.find(i+4, p.hi, "returning")
			p.st.ConflictSet = p.assignments(i+4, end)
			p.guardedUpdate(i+4, end)
			i = end
		case p.kw(i, "returning"):
			p.st.Returning = p.returning(i+1, p.hi)
			i = p.hi
		case p.kw(i, "if") && p.kw(i+1, "not") && p.kw(i+2, "exists"):
			// CQL's INSERT ... IF NOT EXISTS: a lightweight transaction
			// that does nothing when the row exists.
			p.st.IfNotExists, p.st.DoNothing = true, true
			i += 3
		case p.kw(i, "using"):
			// CQL's USING TTL n [AND TIMESTAMP t]: how long, not which rows.
			i = p.find(i+1, p.hi, "if", "on", "returning")
		default:
			p.st.Partial = true
			i = p.find(i+1, p.hi, "on", "returning", "if")
		}
	}
}

// ifClause reads a CQL IF clause: EXISTS, or AND-ed conditions.
func (p *parser) ifClause(lo, hi int) {
	if p.kw(lo, "exists") && lo+1 == hi {
		p.st.IfExists = true
		return
	}
	p.st.If = p.conds(lo, hi)
}

// insertSource reads what an INSERT inserts, up to ON CONFLICT, ON
// DUPLICATE KEY or RETURNING, and returns the position after it.
func (p *parser) insertSource(i int, cols []string) int {
	for {
		switch {
		case p.kw(i, "output"): // SQL Server: OUTPUT comes before VALUES
			end := p.find(i+1, p.hi, "values", "value", "select", "default", "with")
			p.st.Returning = p.returning(i+1, p.find(i+1, end, "into"))
			i = end
			continue
		case p.kw(i, "overriding"):
			i = p.find(i+1, p.hi, "values", "value", "select", "with")
			continue
		case p.kw(i, "values", "value"):
			return p.values(i+1, cols)
		case p.kw(i, "default") && p.kw(i+1, "values"):
			return i + 2
		case p.kw(i, "set"): // MySQL INSERT ... SET a = 1
			end := p.find(i+1, p.hi, "on", "returning")
			p.st.Set = p.assignments(i+1, end)
			return end
		}
		// INSERT ... SELECT: the inserted values are not zipped.
		p.st.Partial = true
		return p.find(i+1, p.hi, "on", "returning")
	}
}

// values reads VALUES (row) [, (row)...] [AS alias [(cols)]] and zips a
// single row with the column list.
func (p *parser) values(i int, cols []string) int {
	var rows [][2]int
	for {
		if p.kw(i, "row") { // MySQL VALUES ROW(...)
			i++
		}
		if !p.op(i, "(") {
			break
		}
		rows = append(rows, [2]int{i + 1, p.match(i)})
		i = p.skip(i)
		if !p.op(i, ",") {
			break
		}
		i++
	}
	if p.kw(i, "as") && p.isIdent(i+1) { // MySQL 8 row alias
		i += 2
		if p.op(i, "(") {
			i = p.skip(i)
		}
	}
	if len(rows) != 1 || cols == nil {
		p.st.Partial = true
		return i
	}
	vals := p.splitComma(rows[0][0], rows[0][1])
	if len(vals) != len(cols) {
		p.st.Partial = true
		return i
	}
	for k, v := range vals {
		p.st.Set = append(p.st.Set, Assignment{Column: cols[k], Value: p.operand(v[0], v[1]), Offset: p.offset(v[0])})
	}
	return i
}

// onConflict reads ON CONFLICT [(cols) [WHERE ...] | ON CONSTRAINT name]
// DO NOTHING | DO UPDATE SET ... [WHERE ...] from i (after CONFLICT).
func (p *parser) onConflict(i int) int {
	p.st.OnConflict = true
	switch {
	case p.op(i, "("):
		i = p.skip(i)
		if p.kw(i, "where") {
			i = p.find(i+1, p.hi, "do")
		}
	case p.kw(i, "on") && p.kw(i+1, "constraint"):
		i += 3
	}
	if !p.kw(i, "do") {
		p.st.Partial = true
		return p.find(i, p.hi, "returning")
	}
	switch {
	case p.kw(i+1, "nothing"):
		p.st.DoNothing = true
		return i + 2
	case p.kw(i+1, "update") && p.kw(i+2, "set"):
		end := p.find(i+3, p.hi, "where", "returning")
		p.st.ConflictSet = p.assignments(i+3, end)
		if p.kw(end, "where") {
			whereEnd := p.find(end+1, p.hi, "returning")
			p.st.ConflictWhere = p.conds(end+1, whereEnd)
			end = whereEnd
		}
		return end
	}
	p.st.Partial = true
	return p.find(i+1, p.hi, "returning")
}

// merge reads MERGE [INTO] t [[AS] a] USING src ON cond WHEN ...; Set comes
// from the first WHEN MATCHED ... THEN UPDATE SET.
func (p *parser) merge(i int) {
	p.st.Verb = Merge
	p.st.Partial = true // other WHEN branches write too; see Set and MatchedWhere
	if p.kw(i, "into") {
		i++
	}
	i = p.target(i)
	if !p.kw(i, "using") {
		return
	}
	p.mergeSource(i + 1)
	on := i + 1
	for on < p.hi && !p.kw(on, "on") { // find's ON means ON CONFLICT; here any ON
		on = p.skip(on)
	}
	when := p.find(on+1, p.hi, "when")
	if on < p.hi {
		p.st.Where = p.conds(on+1, when)
	}
	for w := when; w < p.hi; {
		next := p.find(w+1, p.hi, "when", "output")
		if p.st.Set == nil && p.kw(w+1, "matched") {
			then := p.find(w+2, next, "then")
			if p.kw(w+2, "and") {
				p.st.MatchedWhere = p.conds(w+3, then)
			}
			if p.kw(then+1, "update") && p.kw(then+2, "set") {
				p.st.Set = p.assignments(then+3, next)
			}
		}
		if p.kw(next, "output") {
			p.st.Returning = p.returning(next+1, p.find(next+1, p.hi, "into"))
			break
		}
		w = next
	}
}

// guardedUpdate reads MySQL's conditional upsert, ON DUPLICATE KEY
// UPDATE c1 = IF(cond, v1, c1), c2 = IF(cond, v2, c2): when every
// assignment keeps its column unless the same cond holds, the update is
// "SET c1 = v1, c2 = v2 WHERE cond", and ConflictWhere and ConflictSet
// say so. Any other list is left as assignments() read it.
func (p *parser) guardedUpdate(lo, hi int) {
	var cond string
	var where []Conjunct
	var set []Assignment
	for _, item := range p.splitComma(lo, hi) {
		parts, eq := p.name(item[0])
		b := item[1]
		if parts == nil || !p.op(eq, "=") || !p.kw(eq+1, "if") || !p.op(eq+2, "(") || p.match(eq+2) != b-1 {
			return
		}
		args := p.splitComma(eq+3, b-1)
		if len(args) != 3 {
			return
		}
		col := parts[len(parts)-1]
		kept, end := p.name(args[2][0])
		if kept == nil || end != args[2][1] || kept[len(kept)-1] != col {
			return
		}
		text := strings.ToLower(strings.Join(strings.Fields(p.span(args[0][0], args[0][1])), " "))
		switch {
		case cond == "":
			cond, where = text, p.conds(args[0][0], args[0][1])
		case text != cond:
			return
		}
		set = append(set, Assignment{Column: col, Value: p.operand(args[1][0], args[1][1]), Offset: p.offset(item[0])})
	}
	if len(set) > 0 && len(where) > 0 {
		p.st.ConflictSet, p.st.ConflictWhere = set, where
	}
}

// mergeSource reads a MERGE's USING source at i when it is one row
// built from values: (SELECT expr [AS] col, ...) [AS] alias, or (VALUES
// (expr, ...)) [AS] alias (col, ...). A source with FROM, several rows or
// no alias is not read (Source stays nil).
func (p *parser) mergeSource(i int) {
	if !p.op(i, "(") || p.match(i) <= i {
		return
	}
	lo, hi := i+1, p.match(i)
	j := hi + 1
	if p.kw(j, "as") {
		j++
	}
	if !p.isIdent(j) || notAlias[p.t[j].word] {
		return
	}
	alias := p.t[j].word
	var cols []string
	if p.op(j+1, "(") && p.match(j+1) > j+1 {
		for _, c := range p.splitComma(j+2, p.match(j+1)) {
			if c[1]-c[0] != 1 || !p.isIdent(c[0]) {
				return
			}
			cols = append(cols, p.t[c[0]].word)
		}
	}
	var items [][2]int
	switch {
	case p.kw(lo, "select"):
		end := p.find(lo+1, hi, selectEnds...)
		if end < hi {
			return // FROM, WHERE, UNION...: not one row of values
		}
		items = p.splitComma(lo+1, hi)
		if cols == nil {
			for _, it := range items {
				name := p.itemName(it[0], it[1])
				if name == "" || name == "*" {
					return
				}
				cols = append(cols, name)
			}
			// The value is the item without its alias.
			for k, it := range items {
				switch {
				case it[1]-it[0] >= 3 && p.kw(it[1]-2, "as"):
					items[k][1] -= 2
				case it[1]-it[0] >= 2 && p.isIdent(it[1]-1) && p.t[it[1]-1].word == cols[k] && endsValue(p.t[it[1]-2]) && !p.op(it[1]-2, "."):
					items[k][1]--
				}
			}
		}
	case p.kw(lo, "values") && p.op(lo+1, "(") && p.match(lo+1) == hi-1:
		items = p.splitComma(lo+2, hi-1)
	default:
		return
	}
	if len(items) != len(cols) || len(cols) == 0 {
		return
	}
	p.st.Source = make(map[string]Operand, len(cols))
	for k, it := range items {
		p.st.Source[alias+"."+cols[k]] = p.operand(it[0], it[1])
	}
}

var selectEnds = []string{"into", "from", "where", "group", "having", "window", "order", "limit",
	"offset", "fetch", "for", "lock", "union", "intersect", "except", "option"}

func (p *parser) selectStmt(i int) {
	p.st.Verb = Select
	switch {
	case p.kw(i, "distinct"):
		i++
		if p.kw(i, "on") && p.op(i+1, "(") {
			i = p.skip(i + 1)
		}
	case p.kw(i, "all"):
		i++
	}
	if p.kw(i, "top") {
		i = p.skip(i + 1)
		for p.kw(i, "percent", "with", "ties") {
			i++
		}
	}
	end := p.find(i, p.hi, selectEnds...)
	for _, item := range p.splitComma(i, end) {
		p.st.Columns = append(p.st.Columns, p.itemName(item[0], item[1]))
	}
	p.clauses(end, selectEnds, func(k string, lo, hi int) bool {
		switch k {
		case "from":
			if p.st.Table != "" {
				break
			}
			j := lo
			if p.kw(j, "only") {
				j++
			}
			parts, next := p.name(j)
			if parts == nil || p.op(next, "(") {
				return false // subquery or table function
			}
			p.st.Table = strings.Join(parts, ".")
		case "where":
			if p.st.Where == nil {
				p.st.Where = p.conds(lo, hi)
			}
		case "for":
			if p.st.Locking == "" {
				p.st.Locking = p.locking(lo)
			}
		case "lock":
			if p.st.Locking == "" {
				p.st.Locking = "LOCK IN SHARE MODE"
			}
		case "union", "intersect", "except":
			return false // only the first SELECT is read
		}
		return true
	})
}

// locking normalises the clause after FOR, dropping OF t, NOWAIT, SKIP LOCKED.
func (p *parser) locking(i int) string {
	switch {
	case p.kw(i, "update"):
		return "FOR UPDATE"
	case p.kw(i, "share"):
		return "FOR SHARE"
	case p.kw(i, "no") && p.kw(i+1, "key") && p.kw(i+2, "update"):
		return "FOR NO KEY UPDATE"
	case p.kw(i, "key") && p.kw(i+1, "share"):
		return "FOR KEY SHARE"
	}
	return ""
}

// returning reads the items of RETURNING or OUTPUT.
func (p *parser) returning(lo, hi int) []string {
	var out []string
	for _, item := range p.splitComma(lo, hi) {
		out = append(out, p.itemName(item[0], item[1]))
	}
	return out
}

// notImplicitAlias holds words that end an expression and so are not an
// alias written without AS.
var notImplicitAlias = set("end", "null", "true", "false", "unknown", "default", "current_timestamp",
	"current_date", "current_time", "localtime", "localtimestamp", "precision", "zone")

// itemName names a projection or RETURNING item: its alias, "*" for
// t.* and *, its column, or else its lower-cased text.
func (p *parser) itemName(lo, hi int) string {
	switch {
	case lo >= hi:
		return ""
	case hi-lo >= 2 && p.kw(hi-2, "as") && p.isIdent(hi-1):
		return p.t[hi-1].word
	case hi-lo >= 2 && p.isIdent(hi-1) && !p.op(hi-2, ".") && !notImplicitAlias[p.t[hi-1].word] && endsValue(p.t[hi-2]):
		return p.t[hi-1].word
	case p.op(hi-1, "*") && (hi-lo == 1 || p.op(hi-2, ".")):
		return "*"
	}
	o := p.operand(lo, hi)
	if o.Column != "" {
		return o.Column
	}
	return strings.ToLower(o.Text)
}

// endsValue reports whether t can be the last token of an expression.
func endsValue(t token) bool {
	switch t.kind {
	case tWord:
		return !keywords[t.word]
	case tQuoted, tString, tNumber, tParam:
		return true
	}
	return t.word == ")"
}

// keywords are not function names even when followed by '(' and do not
// end an expression.
var keywords = set("and", "or", "not", "in", "exists", "values", "value", "as", "on", "using", "into",
	"from", "where", "set", "select", "join", "any", "all", "some", "over", "filter", "within", "row",
	"array", "when", "then", "else", "case", "key", "conflict", "returning", "output", "is", "between",
	"like", "ilike", "with", "recursive", "union", "intersect", "except", "table", "update", "insert",
	"delete", "merge", "lateral", "only", "by", "partition", "group", "order", "having", "limit",
	"offset", "distinct", "do", "nothing", "constraint", "top", "default", "primary", "unique",
	"foreign", "references", "check", "index", "materialized", "matched", "cast", "try_cast", "option",
	"upsert", "inner", "full", "cross", "outer", "natural")

// callBlockers are words after which "name (" declares or lists columns
// rather than calling a function.
var callBlockers = set("into", "table", "references", "exists", "as", "index", "view", "procedure", "function", "trigger")

// calls lists the functions called in the statement.
func (p *parser) calls() []string {
	var out []string
	seen := map[string]bool{}
	for i := p.lo; i+1 < p.hi; i++ {
		t := p.t[i]
		if !p.op(i+1, "(") || t.decl || t.kind != tWord && t.kind != tQuoted || t.kind == tWord && keywords[t.word] {
			continue
		}
		head := i
		for p.op(head-1, ".") && p.isIdent(head-2) {
			head -= 2
		}
		if p.in(head-1) && p.t[head-1].kind == tWord && callBlockers[p.t[head-1].word] || p.op(head-1, "::") {
			continue
		}
		if !seen[t.word] {
			seen[t.word] = true
			out = append(out, t.word)
		}
	}
	return out
}
