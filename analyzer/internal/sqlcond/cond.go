package sqlcond

import "strings"

// conds splits the condition [lo, hi) into its AND-ed terms.
func (p *parser) conds(lo, hi int) []Conjunct {
	if lo >= hi {
		p.st.Partial = true
		return nil
	}
	var out []Conjunct
	p.condInto(&out, lo, hi, 0)
	return out
}

// condInto appends the terms of [lo, hi). AND binds tighter than OR, so
// a top-level OR makes the whole range one group; parenthesised AND terms
// flatten into their parent.
func (p *parser) condInto(out *[]Conjunct, lo, hi, depth int) {
	if alts := p.splitLogical(lo, hi, "or"); len(alts) > 1 {
		*out = append(*out, p.orGroup(lo, hi, alts, depth))
		return
	}
	for _, term := range p.splitLogical(lo, hi, "and") {
		a, b := p.stripParens(term[0], term[1])
		text, off := p.span(term[0], term[1]), p.offset(term[0])
		switch {
		case a >= b:
			p.st.Partial = true // empty term: WHERE AND x, WHERE ()
		case a != term[0] && depth >= MaxNesting:
			*out = append(*out, Conjunct{Unknown: true, Text: text, Offset: off})
		case a != term[0]:
			if alts := p.splitLogical(a, b, "or"); len(alts) > 1 {
				*out = append(*out, p.orGroup(term[0], term[1], alts, depth+1))
			} else {
				p.condInto(out, a, b, depth+1)
			}
		default:
			cmp, unknown := p.comparison(a, b)
			*out = append(*out, Conjunct{Or: []Comparison{cmp}, Unknown: unknown, Text: text, Offset: off})
		}
	}
}

func (p *parser) orGroup(lo, hi int, alts [][2]int, depth int) Conjunct {
	c := Conjunct{Text: p.span(lo, hi), Offset: p.offset(lo), Or: make([]Comparison, 0, len(alts))}
	p.alternatives(&c, alts, depth)
	return c
}

// alternatives appends one Comparison per alternative; an alternative that
// is itself an AND group cannot be one comparison and makes c Unknown.
func (p *parser) alternatives(c *Conjunct, alts [][2]int, depth int) {
	for _, alt := range alts {
		a, b := p.stripParens(alt[0], alt[1])
		if a >= b {
			c.Unknown = true
			continue
		}
		if depth < MaxNesting {
			if sub := p.splitLogical(a, b, "or"); len(sub) > 1 {
				p.alternatives(c, sub, depth+1) // a OR (b OR c) is a OR b OR c
				continue
			}
		}
		if depth >= MaxNesting || len(p.splitLogical(a, b, "and")) > 1 {
			c.Unknown = true
			c.Or = append(c.Or, Comparison{Left: p.operand(a, b), Text: p.span(a, b), Offset: p.offset(a)})
			continue
		}
		cmp, unknown := p.comparison(a, b)
		c.Or = append(c.Or, cmp)
		c.Unknown = c.Unknown || unknown
	}
}

// splitLogical splits [lo, hi) on the top-level keyword word ("and" or
// "or"), outside parentheses and CASE ... END; the AND of BETWEEN x AND y
// does not split.
func (p *parser) splitLogical(lo, hi int, word string) [][2]int {
	var out [][2]int
	start, caseDepth, between := lo, 0, 0
	for i := lo; i < hi; i = p.skip(i) {
		if p.t[i].kind != tWord {
			continue
		}
		switch w := p.t[i].word; {
		case w == "case":
			caseDepth++
		case w == "end" && caseDepth > 0:
			caseDepth--
		case caseDepth > 0:
		case w == "between":
			between++
		case w == word && word == "and" && between > 0:
			between--
		case w == word:
			out = append(out, [2]int{start, i})
			start = i + 1
		}
	}
	return append(out, [2]int{start, hi})
}

// stripParens removes parentheses that enclose all of [lo, hi), but not
// those of a subquery.
func (p *parser) stripParens(lo, hi int) (int, int) {
	for hi-lo >= 2 && p.op(lo, "(") && p.match(lo) == hi-1 && !p.kw(lo+1, "select", "with", "values") {
		lo, hi = lo+1, hi-1
	}
	return lo, hi
}

func (p *parser) hasSubquery(lo, hi int) bool {
	for i := lo; i < hi && i < p.hi; i++ {
		if p.kw(i, "select") {
			return true
		}
	}
	return false
}

// invertedOps gives the comparator NOT turns each into.
var invertedOps = map[string]string{"<": ">=", "<=": ">", ">": "<=", ">=": "<", "=": "<>", "<>": "=", "!=": "="}

// negated reads the term under a NOT at [lo, hi) when it is one plain
// comparison with an invertible operator, and returns it inverted.
func (p *parser) negated(lo, hi int) (Comparison, bool) {
	a, b := p.stripParens(lo, hi)
	if a >= b || p.kw(a, "not", "exists") || len(p.splitLogical(a, b, "or")) > 1 || len(p.splitLogical(a, b, "and")) > 1 {
		return Comparison{}, false
	}
	inner, unknown := p.comparison(a, b)
	inv, ok := invertedOps[inner.Op]
	if unknown || !ok {
		return Comparison{}, false
	}
	inner.Op = inv
	return inner, true
}

// comparison reads one term. unknown is set for NOT, EXISTS, subqueries
// and comparisons with a missing side.
func (p *parser) comparison(lo, hi int) (c Comparison, unknown bool) {
	c = Comparison{Text: p.span(lo, hi), Offset: p.offset(lo)}
	unknown = p.hasSubquery(lo, hi)
	switch {
	case p.kw(lo, "exists"):
		c.Op, c.Right = "EXISTS", p.operand(lo+1, hi)
		return c, true
	case p.kw(lo, "not") && p.kw(lo+1, "exists"):
		c.Op, c.Right = "NOT EXISTS", p.operand(lo+2, hi)
		return c, true
	case p.kw(lo, "not"):
		if inner, ok := p.negated(lo+1, hi); ok {
			inner.Text, inner.Offset, inner.Negated = c.Text, c.Offset, true
			return inner, false
		}
		c.Left = p.operand(lo, hi)
		return c, true
	}
	caseDepth := 0
	for i := lo; i < hi; i = p.skip(i) {
		switch {
		case p.kw(i, "case"):
			caseDepth++
			continue
		case p.kw(i, "end") && caseDepth > 0:
			caseDepth--
			continue
		case caseDepth > 0:
			continue
		}
		op, width := p.compareOp(i)
		if op == "" {
			continue
		}
		c.Op, c.Left = op, p.operand(lo, i)
		rhs := i + width
		if op == "IS NULL" || op == "IS NOT NULL" {
			return c, unknown || i == lo || rhs < hi
		}
		c.Right = p.operand(rhs, hi)
		return c, unknown || i == lo || rhs >= hi
	}
	c.Left = p.operand(lo, hi)
	return c, unknown
}

// compareOp returns the comparison operator starting at i and how many
// tokens it spans, or "" if none starts there.
func (p *parser) compareOp(i int) (string, int) {
	t := p.t[i]
	if t.kind == tOp {
		switch t.word {
		case "=", "==":
			return "=", 1
		case "<>", "!=", "<", "<=", ">", ">=":
			return t.word, 1
		case "<=>": // MySQL null-safe equality
			return "IS NOT DISTINCT FROM", 1
		}
		return "", 0
	}
	if t.kind != tWord {
		return "", 0
	}
	switch t.word {
	case "is":
		j, not := i+1, ""
		if p.kw(j, "not") {
			j, not = j+1, "NOT "
		}
		switch {
		case p.kw(j, "null"):
			return "IS " + not + "NULL", j + 1 - i
		case p.kw(j, "distinct") && p.kw(j+1, "from"):
			return "IS " + not + "DISTINCT FROM", j + 2 - i
		}
	case "isnull":
		return "IS NULL", 1
	case "notnull":
		return "IS NOT NULL", 1
	case "in", "between", "like", "ilike":
		return strings.ToUpper(t.word), 1
	case "not":
		if p.kw(i+1, "in", "between", "like", "ilike") {
			return "NOT " + strings.ToUpper(p.t[i+1].word), 2
		}
	}
	return "", 0
}

// notColumn holds words that stand alone as values without naming a column.
var notColumn = set("null", "true", "false", "unknown", "default", "current_timestamp", "current_date",
	"current_time", "localtime", "localtimestamp", "current_user", "session_user")

// operand reads the expression [lo, hi).
func (p *parser) operand(lo, hi int) Operand {
	var o Operand
	hi = min(hi, p.hi)
	if lo >= hi || !p.in(lo) {
		return o
	}
	o.Text = p.span(lo, hi)
	o.Params = p.params(lo, hi)
	a, b := p.core(lo, hi)
	switch {
	case b-a == 1:
		t := p.t[a]
		switch t.kind {
		case tWord:
			switch {
			case t.word == "null" || t.word == "true" || t.word == "false":
				o.Literal = strings.ToUpper(t.word)
			case !notColumn[t.word] && !keywords[t.word] && !strings.HasPrefix(t.word, "@@"):
				o.Column = t.word
			}
		case tQuoted:
			o.Column = t.word
		case tString, tNumber:
			o.Literal = p.src[t.start:t.end]
		case tParam:
			o.IsParam = true
		}
	case b-a == 2 && (p.op(a, "-") || p.op(a, "+")) && p.t[a+1].kind == tNumber:
		o.Literal = p.span(a, b)
	case p.kw(a, "values") && p.op(a+1, "(") && p.match(a+1) == b-1:
		if parts, j := p.name(a + 2); parts != nil && j == b-1 {
			o.ValuesOf = parts[len(parts)-1]
		}
	default:
		if parts, j := p.name(a); len(parts) >= 2 && j == b {
			o.Column = parts[len(parts)-1]
			o.Table = strings.Join(parts[:len(parts)-1], ".")
		}
	}
	return o
}

// core strips enclosing parentheses and casts ($2::bigint, CAST($2 AS
// bigint)) from [lo, hi). Every round strips a layer; nesting is bounded.
func (p *parser) core(lo, hi int) (int, int) {
	for range 2*MaxNesting + 2 {
		a, b := p.stripParens(lo, hi)
		if k := p.castAt(a, b); k > a {
			b = k
		} else if p.kw(a, "cast", "try_cast") && p.op(a+1, "(") && p.match(a+1) == b-1 {
			if as := p.find(a+2, b-1, "as"); as < b-1 {
				a, b = a+2, as
			}
		}
		if a == lo && b == hi {
			break
		}
		lo, hi = a, b
	}
	return lo, hi
}

// castAt returns the position of a top-level '::' in [lo, hi) followed only
// by a type name, or -1.
func (p *parser) castAt(lo, hi int) int {
	k := -1
	for i := lo; i < hi; i = p.skip(i) {
		if p.op(i, "::") {
			k = i
			break
		}
	}
	if k <= lo {
		return -1
	}
	for i := k + 1; i < hi; i = p.skip(i) {
		t := p.t[i]
		typeToken := t.kind == tWord || t.kind == tQuoted ||
			t.kind == tOp && (t.word == "(" || t.word == "[" || t.word == "]" || t.word == "." || t.word == "::")
		if !typeToken {
			return -1
		}
	}
	return k
}

// assignments reads a SET list: col = expr, t.col = expr, (a, b) = (x, y).
func (p *parser) assignments(lo, hi int) []Assignment {
	var out []Assignment
	for _, item := range p.splitComma(lo, hi) {
		a, b := item[0], item[1]
		eq := -1
		for i := a; i < b; i = p.skip(i) {
			if p.op(i, "=") {
				eq = i
				break
			}
		}
		if eq < 0 {
			p.st.Partial = true
			continue
		}
		if p.op(a, "(") && p.match(a) == eq-1 {
			out = p.tupleAssignment(out, a, eq, b)
			continue
		}
		parts, j := p.name(a)
		if parts == nil || j != eq {
			p.st.Partial = true
			continue
		}
		out = append(out, Assignment{Column: parts[len(parts)-1], Value: p.operand(eq+1, b), Offset: p.offset(a)})
	}
	if out == nil {
		p.st.Partial = true
	}
	return out
}

// tupleAssignment zips (a, b) = ([ROW](x, y)) at [lo, hi) with '=' at eq.
func (p *parser) tupleAssignment(out []Assignment, lo, eq, hi int) []Assignment {
	cols := p.splitComma(lo+1, eq-1)
	r := eq + 1
	if p.kw(r, "row") {
		r++
	}
	if !p.op(r, "(") || p.match(r) != hi-1 || p.kw(r+1, "select") {
		p.st.Partial = true // (a, b) = (SELECT ...)
		return out
	}
	vals := p.splitComma(r+1, hi-1)
	if len(vals) != len(cols) {
		p.st.Partial = true
		return out
	}
	for k, col := range cols {
		parts, j := p.name(col[0])
		if parts == nil || j != col[1] {
			p.st.Partial = true
			continue
		}
		out = append(out, Assignment{Column: parts[len(parts)-1], Value: p.operand(vals[k][0], vals[k][1]), Offset: p.offset(col[0])})
	}
	return out
}
