package fencepredicate

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/ddbcond"
	"github.com/fencelint/fencelint/analyzer/internal/directive"
	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/lintutil"
	"github.com/fencelint/fencelint/analyzer/internal/sqlcond"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"honnef.co/go/tools/analysis/lint"
)

// Lint is the analyzer with its documentation.
var Lint = lintutil.Init(&lint.Analyzer{
	Analyzer: &analysis.Analyzer{
		Name:     "fencepredicate",
		Run:      run,
		Requires: []*analysis.Analyzer{fence.Analyzer},
	},
	Doc: &lint.RawDocumentation{
		Title: "report fence conditions that compare the token the wrong way",
		Text: `A fenced write must reject a holder whose token is older than the newest
the storage has seen: the stored fence must be below the presented token
(fence < :tok, or fence <= :tok for a retry by the same holder), and the
write must record the token (SET fence = :tok) so that the storage learns
the highest one.

fencepredicate reports, at the literal holding the condition (the SQL
string, the ConditionExpression), a fence condition that is present but
wrong:

- the direction is reversed (fence > :tok, fence >= :tok) or the operator
  is <> / != (category "reversed", "inequality");
- SQL keeps the transitional "fence IS NULL OR" branch of a migration, so
  a row whose fence is NULL stays unfenced for ever ("is-null");
- an UPDATE compares the token but never records it ("not-recorded");
- the token is compared against another column than the one recording it
  ("other-column");
- a DynamoDB condition compares the fence attribute with the token, but the
  update never writes that attribute ("not-recorded").

Operand-swapped comparisons ($2 > fence), equality compare-and-set on a
generation stamped at acquire, and DynamoDB's
attribute_not_exists(fence) OR fence < :tok are valid. Where the edit is
local, a suggested fix flips the operator or adds SET fence = $n.`,
		Before: `
db.ExecContext(ctx, "UPDATE acct SET bal = $1, fence = $3 WHERE id = $2 AND fence > $3", bal, id, lease.Token)`,
		After: `
db.ExecContext(ctx, "UPDATE acct SET bal = $1, fence = $3 WHERE id = $2 AND fence < $3", bal, id, lease.Token)`,
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
	// recordedIn: per function, the columns some write of it records the
	// token in (a transaction may record in another statement).
	recordedIn map[*ssa.Function][]string
	seen       map[token.Pos]bool
}

func run(pass *analysis.Pass) (any, error) {
	model := pass.ResultOf[fence.Analyzer].(*fence.Model)
	if !model.Relevant {
		return nil, nil // fast path: nothing lock-related in reach
	}
	c := &checker{
		pass: pass, model: model, ig: directive.CollectIgnores(pass),
		recordedIn: map[*ssa.Function][]string{}, seen: map[token.Pos]bool{},
	}
	for _, w := range model.Writes {
		if w.Func != nil {
			c.recordedIn[w.Func] = append(c.recordedIn[w.Func], w.Recorded...)
		}
	}
	for _, w := range model.Writes {
		if w.Verdict != fence.WrongPredicate && w.Verdict != fence.Fenced {
			continue
		}
		switch w.Store {
		case "SQL", "gorm":
			c.checkSQL(w)
		case "DynamoDB":
			c.checkDynamo(w)
		}
	}
	c.ig.Finish(pass, lintutil.Names)
	return nil, nil
}

func (c *checker) report(pos, end token.Pos, category, msg string, fix *analysis.SuggestedFix) {
	if c.seen[pos] {
		return // one report per literal
	}
	c.seen[pos] = true
	d := analysis.Diagnostic{Pos: pos, End: end, Category: category, Message: msg}
	if fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	c.ig.Report(c.pass, d)
}

// anchor is where a finding about w is reported: the condition literal.
func anchor(w *fence.Write) (token.Pos, token.Pos) {
	if w.Literal.IsValid() {
		return w.Literal, w.LiteralEnd
	}
	return w.Pos, w.End
}

// ---- SQL ----

// sqlText maps offsets of w.SQL to source positions when the SQL is one
// string literal without escapes, so that fixes can edit it.
type sqlText struct {
	base token.Pos // position of offset 0
	ok   bool
}

func (c *checker) sqlSource(w *fence.Write) sqlText {
	lit, _ := lintutil.ExprAt(c.pass.Files, w.Literal, w.LiteralEnd).(*ast.BasicLit)
	if lit == nil || lit.Kind != token.STRING || len(lit.Value) < 2 {
		return sqlText{}
	}
	body := lit.Value[1 : len(lit.Value)-1]
	switch lit.Value[0] {
	case '`':
		if strings.Contains(body, "\r") {
			return sqlText{}
		}
	case '"':
		if s, err := strconv.Unquote(lit.Value); err != nil || s != body {
			return sqlText{} // escapes shift offsets
		}
	default:
		return sqlText{}
	}
	if body != w.SQL {
		return sqlText{}
	}
	return sqlText{base: lit.Pos() + 1, ok: true}
}

// tokenCmp is one comparison of a stored column with the token in SQL.
type tokenCmp struct {
	cmp     sqlcond.Comparison
	column  string // lower-cased
	colText string // the column as written
	op      string // normalised to "column OP token"
	swapped bool   // the column is on the right in the source
	ph      sqlcond.Placeholder
	tokText string // the token side as written ("$3", "EXCLUDED.fence")
}

func (c *checker) checkSQL(w *fence.Write) {
	if w.SQL == "" {
		return
	}
	stmts, err := c.model.ParseSQL(w.SQL)
	if err != nil {
		return
	}
	var stmt *sqlcond.Statement
	for _, s := range stmts {
		if s.Verb.IsWrite() {
			stmt = s
			break
		}
	}
	if stmt == nil {
		return
	}
	isTok := func(p sqlcond.Placeholder) bool { return slices.Contains(w.TokenOffsets, p.Offset) }
	inserted := map[string]sqlcond.Operand{}
	if stmt.Verb == sqlcond.Insert {
		for _, a := range stmt.Set {
			inserted[a.Column] = a.Value
		}
	}
	tokenPH := func(op sqlcond.Operand) (sqlcond.Placeholder, bool) {
		if op.Table == "excluded" && op.Column != "" {
			if v, ok := inserted[op.Column]; ok {
				op = v
			}
		}
		for _, p := range op.Params {
			if isTok(p) {
				return p, true
			}
		}
		return sqlcond.Placeholder{}, false
	}
	stored := func(op sqlcond.Operand) bool { return op.Column != "" && op.Table != "excluded" }
	asTokenCmp := func(cmp sqlcond.Comparison) (tokenCmp, bool) {
		if cmp.Op == "" {
			return tokenCmp{}, false
		}
		if stored(cmp.Left) {
			if p, ok := tokenPH(cmp.Right); ok {
				return tokenCmp{cmp, cmp.Left.Column, cmp.Left.Text, cmp.Op, false, p, tokSide(w.SQL, cmp.Right, p)}, true
			}
		}
		if stored(cmp.Right) {
			if p, ok := tokenPH(cmp.Left); ok {
				return tokenCmp{cmp, cmp.Right.Column, cmp.Right.Text, flip(cmp.Op), true, p, tokSide(w.SQL, cmp.Left, p)}, true
			}
		}
		return tokenCmp{}, false
	}
	conds := stmt.Where
	if stmt.Verb == sqlcond.Insert {
		conds = stmt.ConflictWhere
	}
	conds = append(append([]sqlcond.Conjunct{}, conds...), stmt.MatchedWhere...)

	var all []tokenCmp
	var nullBranch *sqlcond.Comparison
	var nullCol string
	for _, cj := range conds {
		var cmps []tokenCmp
		for _, alt := range cj.Or {
			if tc, ok := asTokenCmp(alt); ok {
				cmps = append(cmps, tc)
			}
		}
		all = append(all, cmps...)
		if len(cj.Or) < 2 {
			continue
		}
		for i, alt := range cj.Or {
			if alt.Op != "IS NULL" || !stored(alt.Left) {
				continue
			}
			for _, tc := range cmps {
				if tc.column == alt.Left.Column && nullBranch == nil {
					nullBranch, nullCol = &cj.Or[i], tc.colText
				}
			}
		}
	}
	pos, end := anchor(w)
	src := c.sqlSource(w)

	// 1. Wrong direction or inequality (the engine's WrongPredicate).
	if w.Verdict == fence.WrongPredicate {
		for _, tc := range all {
			if valid(tc.op) {
				continue
			}
			cat, msg := wrongMessage(w, tc.colText, tc.op, tc.tokText)
			c.report(pos, end, cat, msg, flipFix(src, tc, w.SQL))
			return
		}
		// Not found in the text (a shape sqlcond reads differently):
		// report from the engine's compares.
		for _, cmp := range w.Compares {
			if !valid(cmp.Op) {
				cat, msg := wrongMessage(w, cmp.Column, cmp.Op, cmp.Token)
				c.report(pos, end, cat, msg, nil)
				return
			}
		}
		return
	}

	// 2. The transitional IS NULL branch.
	if nullBranch != nil {
		c.report(pos, end, "is-null",
			fmt.Sprintf("fence condition of %s keeps the transitional %q branch: a row whose %s is NULL stays unfenced for ever; finish the backfill, make the column NOT NULL and remove the branch",
				w.Call, nullCol+" IS NULL OR", nullCol), nil)
		return
	}

	// Order comparisons: the fences that need recording. Equality is a
	// compare-and-set on a generation stamped at acquire.
	var order []tokenCmp
	for _, tc := range all {
		if tc.op == "<" || tc.op == "<=" {
			order = append(order, tc)
		}
	}
	if len(order) == 0 {
		return
	}
	switch {
	case stmt.Verb == sqlcond.Update:
	case stmt.Verb == sqlcond.Insert && (stmt.OnConflict || stmt.OnDuplicateKey):
	default:
		return // DELETE removes the row: nothing to record
	}
	recorded := recordedColumns(w, stmts)
	if stmt.Partial && len(recorded) == 0 {
		return // a SET clause we could not read may record it
	}
	for _, tc := range order {
		if slices.Contains(recorded, tc.column) {
			return
		}
	}
	tc := order[0]
	if len(recorded) > 0 {
		c.report(pos, end, "other-column",
			fmt.Sprintf("fence condition of %s compares %s with the token but records the token in %s: the compared column never learns newer tokens; compare and record the same column",
				w.Call, tc.colText, recorded[0]), nil)
		return
	}
	for _, col := range c.recordedIn[w.Func] {
		if col == tc.column {
			return // another statement of the function records it
		}
	}
	bare := tc.colText
	if i := strings.LastIndexByte(bare, '.'); i >= 0 {
		bare = bare[i+1:]
	}
	ph := phText(w.SQL, tc.ph)
	c.report(pos, end, "not-recorded",
		fmt.Sprintf("fence condition of %s compares %s with the token but never records it: the storage never learns the newest token, so an older holder still passes; add SET %s = %s",
			w.Call, tc.colText, bare, ph),
		recordFix(src, stmt, w.SQL, tc, bare, ph))
}

// recordedColumns are the columns the write records the token in: the
// engine's, plus SET lists of other statements of the same call.
func recordedColumns(w *fence.Write, stmts []*sqlcond.Statement) []string {
	out := append([]string{}, w.Recorded...)
	for _, s := range stmts {
		for _, a := range append(append([]sqlcond.Assignment{}, s.Set...), s.ConflictSet...) {
			for _, p := range a.Value.Params {
				if slices.Contains(w.TokenOffsets, p.Offset) {
					out = append(out, a.Column)
				}
			}
			if a.Value.Table == "excluded" && a.Value.Column == a.Column {
				// SET fence = EXCLUDED.fence: recorded when the inserted
				// value is the token (the engine says so in Recorded).
				continue
			}
		}
	}
	return out
}

func wrongMessage(w *fence.Write, col, op, tok string) (string, string) {
	if op == "<>" || op == "!=" || strings.EqualFold(op, "IS DISTINCT FROM") {
		return "inequality", fmt.Sprintf("fence condition of %s compares %s %s %s: any other token passes, an older one included; the stored fence must be below the token (%s < %s)",
			w.Call, col, op, tok, col, tok)
	}
	want := "<"
	if op == ">=" {
		want = "<="
	}
	return "reversed", fmt.Sprintf("fence condition of %s is reversed: %s %s %s lets a stale holder's older token through and rejects the current holder; use %s %s %s",
		w.Call, col, op, tok, col, want, tok)
}

func valid(op string) bool {
	switch strings.ToUpper(op) {
	case "<", "<=", "=", "IS NOT DISTINCT FROM", "<=>":
		return true
	}
	return false
}

func flip(op string) string {
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

// tokSide renders the token side of a comparison.
func tokSide(sql string, op sqlcond.Operand, p sqlcond.Placeholder) string {
	if op.IsParam || op.Text == "" {
		return phText(sql, p)
	}
	return op.Text
}

var phRe = regexp.MustCompile(`^[$:@?][A-Za-z0-9_]*`)

// phText is the placeholder as written ("$3", ":tok", "@tok").
func phText(sql string, p sqlcond.Placeholder) string {
	if p.Offset >= 0 && p.Offset < len(sql) {
		if m := phRe.FindString(sql[p.Offset:]); m != "" {
			return m
		}
	}
	return "the token"
}

// flipFix turns the wrong operator into the valid one in place.
func flipFix(src sqlText, tc tokenCmp, sql string) *analysis.SuggestedFix {
	if !src.ok {
		return nil
	}
	// The operator follows the left operand in the comparison's text.
	text := tc.cmp.Text
	left := tc.cmp.Left.Text
	if !strings.HasPrefix(text, left) {
		return nil
	}
	rest := text[len(left):]
	var srcOp string
	for _, o := range []string{">=", "<=", "<>", "!=", ">", "<"} {
		trimmed := strings.TrimLeft(rest, " \t\n")
		if strings.HasPrefix(trimmed, o) {
			srcOp = o
			break
		}
	}
	if srcOp == "" {
		return nil
	}
	off := tc.cmp.Offset + len(left) + (len(rest) - len(strings.TrimLeft(rest, " \t\n")))
	if off+len(srcOp) > len(sql) || sql[off:off+len(srcOp)] != srcOp {
		return nil
	}
	// Normalised wanted op, written back in the source's orientation.
	want := "<"
	if tc.op == ">=" {
		want = "<="
	}
	if tc.swapped {
		want = flip(want)
	}
	return &analysis.SuggestedFix{
		Message: fmt.Sprintf("replace %s with %s", srcOp, want),
		TextEdits: []analysis.TextEdit{{
			Pos: src.base + token.Pos(off), End: src.base + token.Pos(off+len(srcOp)), NewText: []byte(want),
		}},
	}
}

var fromRe = regexp.MustCompile(`(?i)\bfrom\b`)

// recordFix appends "col = ph" to an UPDATE's SET list, when the
// placeholder is numbered or named (an extra '?' would shift the others).
func recordFix(src sqlText, stmt *sqlcond.Statement, sql string, tc tokenCmp, col, ph string) *analysis.SuggestedFix {
	if !src.ok || stmt.Verb != sqlcond.Update || len(stmt.Set) == 0 || len(stmt.Where) == 0 || tc.ph.Kind == sqlcond.Ordinal || ph == "the token" {
		return nil
	}
	lastSet := stmt.Set[len(stmt.Set)-1].Offset
	whereOff := stmt.Where[0].Offset
	if whereOff > len(sql) || lastSet > whereOff {
		return nil
	}
	head := strings.ToLower(sql[:whereOff])
	kw := strings.LastIndex(head, "where")
	if kw < lastSet || fromRe.MatchString(sql[lastSet:kw]) {
		return nil
	}
	at := len(strings.TrimRight(sql[:kw], " \t\n"))
	return &analysis.SuggestedFix{
		Message: fmt.Sprintf("record the token: SET %s = %s", col, ph),
		TextEdits: []analysis.TextEdit{{
			Pos: src.base + token.Pos(at), End: src.base + token.Pos(at), NewText: []byte(", " + col + " = " + ph),
		}},
	}
}

// ---- DynamoDB ----

func (c *checker) checkDynamo(w *fence.Write) {
	call, ok := w.Instr.(*ssa.Call)
	if !ok {
		return
	}
	fn := callee(call.Common())
	if fn == nil {
		return
	}
	kind := fn.Name()
	if kind != "UpdateItem" && kind != "PutItem" && kind != "DeleteItem" {
		return // transactions: one unit, items judged by the engine
	}
	ps := fence.Params(call.Common())
	if len(ps) < 2 {
		return
	}
	fs, ok := fence.FieldStores(ps[1])
	if !ok {
		return
	}
	text, ok := constStr(fs["ConditionExpression"])
	if !ok {
		return
	}
	conj, err := ddbcond.ParseCondition(text)
	if err != nil {
		return
	}
	names := map[string]string{}
	if m, ok := mapLiteral(fs["ExpressionAttributeNames"]); ok {
		for k, v := range m {
			if s, ok := constStr(v); ok {
				names[k] = s
			}
		}
	}
	values, _ := mapLiteral(fs["ExpressionAttributeValues"])
	isToken := func(op ddbcond.Operand) bool {
		if op.Value == "" || values == nil {
			return false
		}
		v, ok := values[op.Value]
		if !ok {
			return false
		}
		o := c.model.OriginOf(v)
		return o != nil && !o.Weak
	}
	condLit, pos, end := c.dynamoCondition(w)
	type ddbCmp struct {
		cmp  ddbcond.Comparison
		path string
		op   string
		tok  string
		swap bool
	}
	var cmps []ddbCmp
	for _, cj := range conj {
		for _, cmp := range cj.Or {
			if cmp.Negated {
				continue
			}
			switch {
			case cmp.Left.Path != "" && isToken(cmp.Right):
				cmps = append(cmps, ddbCmp{cmp, cmp.Left.Path, cmp.Op, cmp.Right.Value, false})
			case cmp.Right.Path != "" && isToken(cmp.Left):
				cmps = append(cmps, ddbCmp{cmp, cmp.Right.Path, flip(cmp.Op), cmp.Left.Value, true})
			}
		}
	}
	if w.Verdict == fence.WrongPredicate {
		for _, dc := range cmps {
			if valid(dc.op) {
				continue
			}
			cat, msg := wrongMessage(w, dc.path, dc.op, dc.tok)
			var fix *analysis.SuggestedFix
			if condLit != nil {
				fix = flipFix(c.litText(condLit, text), tokenCmp{
					cmp:     sqlcond.Comparison{Text: dc.cmp.Text, Offset: dc.cmp.Offset, Left: sqlcond.Operand{Text: dc.cmp.Left.Text}},
					op:      dc.op,
					swapped: dc.swap,
				}, text)
			}
			c.report(pos, end, cat, msg, fix)
			return
		}
		return
	}
	var fences []ddbCmp
	for _, dc := range cmps {
		if dc.op == "<" || dc.op == "<=" {
			fences = append(fences, dc)
		}
	}
	if len(fences) == 0 || kind == "DeleteItem" {
		return
	}
	var written []string
	switch kind {
	case "UpdateItem":
		upd, ok := constStr(fs["UpdateExpression"])
		if !ok {
			return
		}
		acts, err := ddbcond.ParseUpdate(upd)
		if err != nil {
			return
		}
		for _, a := range acts {
			if a.Clause == "SET" || a.Clause == "ADD" {
				written = append(written, ddbcond.Resolve(a.Path, names))
			}
		}
	case "PutItem":
		item, ok := mapLiteral(fs["Item"])
		if !ok {
			return
		}
		for k := range item {
			written = append(written, k)
		}
	}
	for _, dc := range fences {
		if slices.Contains(written, ddbcond.Resolve(dc.path, names)) {
			return
		}
	}
	attr := ddbcond.Resolve(fences[0].path, names)
	how := "its UpdateExpression never sets " + attr
	if kind == "PutItem" {
		how = "its Item has no " + attr + " attribute"
	}
	c.report(pos, end, "not-recorded",
		fmt.Sprintf("fence condition of %s compares %s with the token, but %s: the stored fence never learns newer tokens; set %s = %s in the same write",
			w.Call, attr, how, fences[0].path, fences[0].tok), nil)
}

// dynamoCondition finds the ConditionExpression string literal inside the
// input composite literal of w, and where to report.
func (c *checker) dynamoCondition(w *fence.Write) (*ast.BasicLit, token.Pos, token.Pos) {
	pos, end := anchor(w)
	n := lintutil.ExprAt(c.pass.Files, w.Literal, w.LiteralEnd)
	if n == nil {
		return nil, pos, end
	}
	var lit *ast.BasicLit
	ast.Inspect(n, func(x ast.Node) bool {
		kv, ok := x.(*ast.KeyValueExpr)
		if !ok || lit != nil {
			return lit == nil
		}
		if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "ConditionExpression" {
			pos, end = kv.Value.Pos(), kv.Value.End()
			v := kv.Value
			if call, ok := v.(*ast.CallExpr); ok && len(call.Args) == 1 {
				v = call.Args[0]
			}
			if b, ok := v.(*ast.BasicLit); ok && b.Kind == token.STRING {
				lit = b
			}
			return false
		}
		return true
	})
	return lit, pos, end
}

func (c *checker) litText(lit *ast.BasicLit, want string) sqlText {
	body := lit.Value[1 : len(lit.Value)-1]
	if lit.Value[0] == '"' {
		if s, err := strconv.Unquote(lit.Value); err != nil || s != body {
			return sqlText{}
		}
	}
	if body != want || strings.Contains(body, "\r") {
		return sqlText{}
	}
	return sqlText{base: lit.Pos() + 1, ok: true}
}
