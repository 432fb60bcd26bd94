package pgproof

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/sqlcond"
	"github.com/fencelint/fencelint/internal/lazyregexp"
)

// The frozen-worker scenario's tokens: A held the lease with token 33,
// froze past it, and B was granted 34.
const (
	StaleToken   = 33 // holder A
	CurrentToken = 34 // holder B
	// highFence is a stored fence above both tokens, tried only when the
	// current holder cannot write at the natural baselines (a wrong-way
	// predicate such as fence > :token accepts only lower tokens).
	highFence = 1000
)

// Column is one column of the table a case creates.
type Column struct {
	Name string
	Type string // "bigint", "text", "boolean" or "numeric"
}

// Case is one SQL write prepared for the frozen-worker scenario.
type Case struct {
	Pos     string // file:line:col of the write call
	Verdict fence.Verdict
	SQL     string // as written in the Go code
	PGSQL   string // the same with every placeholder rewritten to $n
	Stmt    *sqlcond.Statement

	Table   string
	Columns []Column
	// Unique is the ON CONFLICT target, made a UNIQUE index so that the
	// seeded row conflicts with the insert.
	Unique []string

	NParams int
	// TokenParams are the $n bound to the fencing token.
	TokenParams map[int]bool
	// FenceCols are the stored columns compared with the token in the
	// statement's own condition; Records says whether the statement also
	// stores the token (SET fence = :token, or EXCLUDED.fence of a value
	// bound to it).
	FenceCols []string
	Records   bool

	// ExpectRejected: fencelint's judgement is "fenced" (verdict Fenced
	// and no fencepredicate report), so the stale write must be rejected.
	// Otherwise the judgement is a defect and it must go through.
	ExpectRejected bool
	// Judgement describes fencelint's judgement for messages.
	Judgement string

	// SeedParam and SeedLit give the seeded row the key the statement
	// looks for: col = $n (a non-token placeholder) and col = literal in
	// the WHERE, or the inserted value of an ON CONFLICT target column.
	SeedParam map[string]int
	SeedLit   map[string]string
	// SeedNull: col IS NULL in the WHERE; the row starts with NULL there.
	SeedNull map[string]bool
}

// Facts are what the test knows about a write beyond the engine's model.
type Facts struct {
	// Defect is fencepredicate's report at the write, if any: the engine
	// may call a write fenced whose predicate fencepredicate finds
	// defective (compares a column it never records, compares the wrong
	// column).
	Defect string
	// InUnit: the call runs on a transaction or batch, so a statement that
	// compares the token may leave recording it to another statement.
	InUnit bool
}

// Baselines returns the stored fence values to try, in order. The first
// under which the current holder's write goes through is the scenario's
// starting state. A statement that records the token starts from an
// untouched row (fence 0): B's own write moves the fence to 34. One that
// only compares and is judged fenced (a generation CAS such as
// range_id = :token) relies on the acquire having stamped the row, so it
// starts from 34; one judged defective is played without that help, from 0
// (the defect is precisely that nothing moves the fence).
func (c *Case) Baselines() []int64 {
	if c.Stmt.Verb == sqlcond.Delete {
		// B's write is not replayed for a DELETE (it would remove the
		// row): the row holds what B's tenure left, fence 34.
		return []int64{CurrentToken}
	}
	if len(c.FenceCols) == 0 {
		return []int64{0}
	}
	if c.Records || !c.ExpectRejected {
		return []int64{0, CurrentToken, highFence}
	}
	return []int64{CurrentToken, 0, highFence}
}

// Checked reports whether the scenario judges v.
func Checked(v fence.Verdict) bool {
	switch v {
	case fence.Fenced, fence.Unfenced, fence.RecordedOnly, fence.WrongPredicate:
		return true
	}
	return false
}

// NewCase prepares w. A non-empty skip says why the write cannot be
// replayed (and it is then counted as skipped, not checked).
func NewCase(pos string, w *fence.Write, facts Facts) (c *Case, skip string) {
	if w.Store != "SQL" || w.SQL == "" {
		return nil, "not a constant SQL write"
	}
	if !Checked(w.Verdict) {
		return nil, "verdict " + w.Verdict.String() + " is not judged by the scenario"
	}
	stmts, err := sqlcond.Parse(w.SQL)
	if err != nil {
		return nil, "sqlcond cannot read it: " + err.Error()
	}
	if len(stmts) != 1 {
		return nil, fmt.Sprintf("%d statements in one call", len(stmts))
	}
	st := stmts[0]
	switch {
	case st.Verb != sqlcond.Insert && st.Verb != sqlcond.Update && st.Verb != sqlcond.Delete:
		return nil, fmt.Sprintf("verb %q is not replayed", st.Verb)
	case st.Partial:
		return nil, "sqlcond read it only partially"
	case st.OnDuplicateKey || strings.ContainsRune(st.Text, '`'):
		return nil, "MySQL dialect"
	case st.Table == "" || strings.Contains(st.Table, "."):
		return nil, fmt.Sprintf("target table %q is not a plain name", st.Table)
	}
	c = &Case{
		Pos: pos, Verdict: w.Verdict, SQL: w.SQL, Stmt: st, Table: st.Table,
		TokenParams: map[int]bool{},
		SeedParam:   map[string]int{}, SeedLit: map[string]string{}, SeedNull: map[string]bool{},
		ExpectRejected: w.Verdict == fence.Fenced && facts.Defect == "",
		Judgement:      w.Verdict.String(),
	}
	if facts.Defect != "" {
		c.Judgement += ", but fencepredicate reports: " + facts.Defect
	}
	index, skip := c.rewrite(w)
	if skip != "" {
		return nil, skip
	}

	isToken := func(op sqlcond.Operand) bool {
		for _, p := range op.Params {
			if c.TokenParams[index[p.Offset]] {
				return true
			}
		}
		return false
	}
	inserted := map[string]sqlcond.Operand{}
	if st.Verb == sqlcond.Insert {
		for _, a := range st.Set {
			inserted[a.Column] = a.Value
		}
	}

	types := map[string]string{}
	var order []string
	add := func(col, typ string) {
		if col == "" || col == "*" {
			return
		}
		if _, ok := types[col]; !ok {
			order = append(order, col)
			types[col] = "bigint"
		}
		if typ != "" && typ != "bigint" {
			types[col] = typ
		}
	}
	stored := func(op sqlcond.Operand) string { // a column of the target row
		if op.Column != "" && op.Table != "excluded" {
			return op.Column
		}
		return ""
	}

	// What is compared with the token and what records it is the
	// engine's reading (Write.Cond); the statement is walked here only for
	// the table's columns and the seeded row.
	if w.Cond == nil {
		return nil, "the engine read no condition"
	}
	c.Records = len(w.Cond.Records) > 0
	fenceCols := map[string]bool{}
	for _, cmp := range w.Cond.Compares {
		fenceCols[cmp.Column] = true
	}
	for _, list := range [][]sqlcond.Assignment{st.Set, st.ConflictSet} {
		for _, a := range list {
			add(a.Column, literalType(a.Value.Literal))
			add(stored(a.Value), "")
		}
	}
	for _, conds := range [][]sqlcond.Conjunct{st.Where, st.ConflictWhere, st.MatchedWhere} {
		for _, cj := range conds {
			for _, cmp := range cj.Or {
				add(stored(cmp.Left), literalType(cmp.Right.Literal))
				add(stored(cmp.Right), literalType(cmp.Left.Literal))
			}
		}
	}
	if st.OnConflict {
		c.Unique = conflictTarget(st.Text)
		for _, col := range c.Unique {
			add(col, literalType(inserted[col].Literal))
		}
	}
	for _, col := range st.Returning {
		add(col, "")
	}
	for col := range fenceCols {
		c.FenceCols = append(c.FenceCols, col)
		add(col, "") // compared inside an expression (COALESCE(fence, 0)) the walk above does not see
		types[col] = "bigint"
	}
	sort.Strings(c.FenceCols)
	for _, col := range order {
		c.Columns = append(c.Columns, Column{col, types[col]})
	}

	// The key the statement looks for. An equality inside an OR group
	// (fence < $3 OR id = $2) is seeded too: that alternative is how the
	// row matches whatever its fence, which is what the scenario must see.
	for _, cj := range st.Where {
		if cj.Unknown {
			continue
		}
		if len(cj.Or) > 1 {
			for _, cmp := range cj.Or {
				if cmp.Op != "=" {
					continue
				}
				for _, side := range [2][2]sqlcond.Operand{{cmp.Left, cmp.Right}, {cmp.Right, cmp.Left}} {
					if col := stored(side[0]); col != "" && !fenceCols[col] {
						c.seed(col, side[1], index, isToken)
					}
				}
			}
			continue
		}
		cmp := cj.Or[0]
		if col := stored(cmp.Left); cmp.Op == "IS NULL" && col != "" && !fenceCols[col] {
			c.SeedNull[col] = true
			continue
		}
		if cmp.Op != "=" {
			continue
		}
		for _, side := range [2][2]sqlcond.Operand{{cmp.Left, cmp.Right}, {cmp.Right, cmp.Left}} {
			col, val := stored(side[0]), side[1]
			if col == "" || fenceCols[col] {
				continue
			}
			c.seed(col, val, index, isToken)
		}
	}
	for _, col := range c.Unique {
		if val, ok := inserted[col]; ok && !fenceCols[col] {
			c.seed(col, val, index, isToken)
		}
	}

	if c.ExpectRejected && len(c.FenceCols) == 0 {
		// Fenced, but not by its own condition: by the transaction or
		// batch it belongs to. The statement alone proves nothing.
		return nil, "fenced by its unit (no token comparison in the statement's own condition)"
	}
	if c.ExpectRejected && facts.InUnit && !c.Records && st.Verb != sqlcond.Delete {
		// Compares the token but leaves recording it to another statement
		// of its transaction (fencepredicate accepts that); alone it
		// cannot stop a stale holder.
		return nil, "fenced by its unit (compares the token; another statement of its transaction records it)"
	}
	return c, ""
}

func (c *Case) seed(col string, val sqlcond.Operand, index map[int]int, isToken func(sqlcond.Operand) bool) {
	switch {
	case val.IsParam && len(val.Params) == 1 && !isToken(val):
		c.SeedParam[col] = index[val.Params[0].Offset]
	case val.Literal != "" && val.Literal != "NULL":
		c.SeedLit[col] = val.Literal
	}
}

// rewrite turns every placeholder into PostgreSQL's $n, numbering named
// placeholders by first appearance, and finds the $n bound to the token.
// It returns the $n of each placeholder by offset.
func (c *Case) rewrite(w *fence.Write) (map[int]int, string) {
	params := slices.Clone(c.Stmt.Params)
	sort.Slice(params, func(i, j int) bool { return params[i].Offset < params[j].Offset })
	index := map[int]int{}
	named := map[string]int{}
	var b strings.Builder
	last := 0
	for _, p := range params {
		if params[0].Kind != p.Kind {
			return nil, "mixed placeholder styles"
		}
		n, size := 0, placeholderLen(w.SQL, p)
		switch p.Kind {
		case sqlcond.Positional, sqlcond.Ordinal:
			n = p.Index
		case sqlcond.Named:
			if named[p.Name] == 0 {
				named[p.Name] = len(named) + 1
			}
			n = named[p.Name]
		}
		if n <= 0 || size <= 0 || p.Offset < last {
			return nil, fmt.Sprintf("placeholder at offset %d cannot be rewritten", p.Offset)
		}
		index[p.Offset] = n
		c.NParams = max(c.NParams, n)
		b.WriteString(w.SQL[last:p.Offset])
		fmt.Fprintf(&b, "$%d", n)
		last = p.Offset + size
	}
	b.WriteString(w.SQL[last:])
	c.PGSQL = b.String()
	for _, off := range w.TokenOffsets {
		n, ok := index[off]
		if !ok {
			return nil, fmt.Sprintf("token offset %d is not a placeholder of the statement", off)
		}
		c.TokenParams[n] = true
	}
	return index, ""
}

// placeholderLen is the length in text of p: "$12", "?", "?3", "@p1",
// ":name", "@name", "$name".
func placeholderLen(text string, p sqlcond.Placeholder) int {
	if p.Offset < 0 || p.Offset >= len(text) {
		return 0
	}
	if p.Kind == sqlcond.Named {
		if strings.HasPrefix(text[p.Offset+1:], p.Name) {
			return 1 + len(p.Name)
		}
		return 0
	}
	i := p.Offset + 1
	if p.Kind == sqlcond.Positional && text[p.Offset] == '@' && i < len(text) && (text[i] == 'p' || text[i] == 'P') {
		i++
	}
	for i < len(text) && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	return i - p.Offset
}

func literalType(lit string) string {
	switch {
	case lit == "":
		return ""
	case strings.HasPrefix(lit, "'") || strings.HasPrefix(lit, "E'") || strings.HasPrefix(lit, "e'"):
		return "text"
	case lit == "TRUE" || lit == "FALSE":
		return "boolean"
	case strings.ContainsAny(lit, ".eE"):
		return "numeric"
	}
	return ""
}

var conflictRE = lazyregexp.New(`(?is)\bON\s+CONFLICT\s*\(([^)]*)\)`)

// conflictTarget reads the column list of ON CONFLICT (a, b); sqlcond
// does not keep it.
func conflictTarget(text string) []string {
	m := conflictRE.FindStringSubmatch(text)
	if m == nil {
		return nil
	}
	var cols []string
	for _, f := range strings.Split(m[1], ",") {
		f = strings.ToLower(strings.Trim(strings.TrimSpace(f), `"`))
		if f != "" {
			cols = append(cols, f)
		}
	}
	return cols
}
