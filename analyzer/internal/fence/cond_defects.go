package fence

import (
	"go/ast"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/sqlcond"
	"github.com/fencelint/fencelint/internal/lazyregexp"
	"golang.org/x/tools/go/ssa"
)

// condWrite is a judged write with the readings its defects come from.
type condWrite struct {
	w  *Write
	f  *ssa.Function
	ev *eval
}

// placeCond maps the write's condition to source: the span of the
// expression holding it and, when a string literal holds the text
// verbatim (no escapes), the position of each comparison and operator,
// so that defects can point at them and fixes can edit them.
func (e *engine) placeCond(w *Write, ev *eval, call *ast.CallExpr) {
	switch {
	case ev.sqlRead != nil && w.Literal.IsValid():
		w.Cond.Pos, w.Cond.End = w.Literal, w.LiteralEnd
		if ev.litArg >= 0 && ev.litArg < len(call.Args) {
			placeCmps(ev.sqlRead.cmps, litBase(call.Args[ev.litArg], w.Cond.Text))
		}
	case ev.ddbRead != nil:
		r := ev.ddbRead
		var input ast.Expr
		if ev.litArg >= 0 && ev.litArg < len(call.Args) {
			input = call.Args[ev.litArg]
		}
		w.Cond.Pos, w.Cond.End = e.placeDynamo(r, input)
	case len(ev.ddbReads) > 0:
		for _, r := range ev.ddbReads {
			e.placeDynamo(r, nil)
		}
	case ev.mongoRead != nil:
		var filter ast.Expr
		if ev.litArg >= 0 && ev.litArg < len(call.Args) {
			filter = call.Args[ev.litArg]
		}
		placeMongo(w, ev.mongoRead, filter)
		return
	default:
		return
	}
	if ev.sqlRead != nil {
		w.Cond.Compares = publicCompares(ev.sqlRead.cmps)
	} else if ev.ddbRead != nil {
		w.Cond.Compares = publicCompares(ev.ddbRead.cmps)
	} else {
		w.Cond.Compares = nil
		for _, r := range ev.ddbReads {
			w.Cond.Compares = append(w.Cond.Compares, publicCompares(r.cmps)...)
		}
	}
}

// placeDynamo finds the ConditionExpression value of one item in source:
// the aws.String(...) call the SSA value comes from, or else the
// ConditionExpression field of the input composite literal.
func (e *engine) placeDynamo(r *ddbRead, input ast.Expr) (token.Pos, token.Pos) {
	var val ast.Expr
	if c, ok := stripValue(r.cond).(*ssa.Call); ok {
		if ce, ok := e.calls.at(c.Pos()); ok {
			val = ce
		}
	}
	if val == nil && input != nil {
		ast.Inspect(input, func(x ast.Node) bool {
			kv, ok := x.(*ast.KeyValueExpr)
			if !ok || val != nil {
				return val == nil
			}
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "ConditionExpression" {
				val = kv.Value
				return false
			}
			return true
		})
	}
	if val == nil {
		return token.NoPos, token.NoPos
	}
	r.condPos, r.condEnd = val.Pos(), val.End()
	if r.text != "" {
		lit := val
		if call, ok := val.(*ast.CallExpr); ok && len(call.Args) == 1 {
			lit = call.Args[0]
		}
		placeCmps(r.cmps, litBase(lit, r.text))
	}
	for i := range r.cmps {
		if !r.cmps[i].pub.Pos.IsValid() {
			// Builder compares carry their own call's span.
			r.cmps[i].pub.Pos, r.cmps[i].pub.End = val.Pos(), val.End()
		}
	}
	return val.Pos(), val.End()
}

// litBase returns the position of the first byte of text inside x, when
// x is a string literal holding text verbatim; NoPos otherwise (escapes
// and carriage returns shift offsets).
func litBase(x ast.Expr, text string) token.Pos {
	lit, ok := x.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING || len(lit.Value) < 2 {
		return token.NoPos
	}
	body := lit.Value[1 : len(lit.Value)-1]
	switch lit.Value[0] {
	case '`':
		if strings.Contains(body, "\r") {
			return token.NoPos
		}
	case '"':
		if s, err := strconv.Unquote(lit.Value); err != nil || s != body {
			return token.NoPos
		}
	default:
		return token.NoPos
	}
	if body != text {
		return token.NoPos
	}
	return lit.Pos() + 1
}

func placeCmps(cmps []readCmp, base token.Pos) {
	if !base.IsValid() {
		return
	}
	for i := range cmps {
		c := &cmps[i].pub
		if c.Offset >= 0 {
			c.Pos, c.End = base+token.Pos(c.Offset), base+token.Pos(c.Offset+c.Len)
		}
		if c.opOff >= 0 && c.OpText != "" {
			c.OpPos = base + token.Pos(c.opOff)
		}
	}
}

// condDefects turns every judged write's verdict and condition into
// defects: unfencedwrite's (unfenced, recorded-only) and fencepredicate's
// (reversed, inequality, null branch, not recorded, other column). It runs
// once all writes are judged, since a write's siblings in its function
// may record the token for it.
func (e *engine) condDefects() {
	recordedIn := map[*ssa.Function][]string{}
	for _, cw := range e.condWrites {
		recordedIn[cw.f] = append(recordedIn[cw.f], cw.w.Recorded...)
	}
	for _, cw := range e.condWrites {
		w := cw.w
		var d *Defect
		switch w.Verdict {
		case Unfenced, RecordedOnly:
			d = unfencedDefect(w)
		case Fenced, WrongPredicate:
			switch {
			case cw.ev.sqlRead != nil:
				d = sqlDefect(w, cw.ev.sqlRead, recordedIn[cw.f])
			case cw.ev.ddbRead != nil:
				d = dynamoDefect(w, cw.ev.ddbRead)
			case cw.ev.mongoRead != nil:
				d = mongoDefect(w, cw.ev.mongoRead)
			case len(cw.ev.etcdRead) > 0 && w.Verdict == WrongPredicate:
				for _, c := range cw.ev.etcdRead {
					if c.decimal && orderOp(c.pub.Op) {
						d = stringOrderDefect(w, c.pub, true)
						break
					}
					if !validDirection(c.pub.Op) {
						d = wrongDefect(w, c.pub, true)
						break
					}
				}
			case len(cw.ev.ddbReads) > 0 && w.Verdict == WrongPredicate:
				// A transaction: its items are one unit, so only a wrong
				// direction is an item's own defect (another item may
				// record the token).
				for _, r := range cw.ev.ddbReads {
					if d = dynamoDefect(w, r); d != nil {
						break
					}
				}
			}
		}
		if d != nil {
			d.Write = w
			e.model.Defects = append(e.model.Defects, d)
		}
	}
}

func unfencedDefect(w *Write) *Defect {
	d := &Defect{Kind: DefectUnfenced, Pos: w.Pos, End: w.End, Detail: w.Detail,
		Related: []Related{{Pos: w.Scope.Pos, Message: scopeNote(w.Scope)}}}
	switch {
	case w.Verdict == RecordedOnly:
		d.Kind, d.Category = DefectRecordedOnly, "recorded-only"
	case w.Scope.NoToken:
		d.Category = "no-token"
	case w.Helper != "":
		d.Category = "helper"
	default:
		d.Category = "unfenced"
	}
	return d
}

func scopeNote(s *Scope) string {
	switch s.Kind {
	case ScopeAcquire:
		return "lock acquired here"
	case ScopeLeaseParam:
		return "the lease this function holds"
	case ScopeTokenParam:
		return "the token this function receives"
	case ScopeCallback:
		return "callback run under the lock here"
	case ScopeLeading:
		return "leader-election callback registered here"
	case ScopeHeld:
		return "declared to run under a lock its caller holds"
	case ScopeLeaderCheck:
		return "leadership checked here"
	}
	return "lock scope"
}

// condAnchor is where a fencepredicate defect is reported: the literal
// holding the condition, else the write call.
func condAnchor(w *Write) (token.Pos, token.Pos) {
	if w.Cond != nil && w.Cond.Pos.IsValid() {
		return w.Cond.Pos, w.Cond.End
	}
	if w.Literal.IsValid() {
		return w.Literal, w.LiteralEnd
	}
	return w.Pos, w.End
}

// wrongDefect is a reversed or inequality defect on c, with the fix that
// writes the valid operator in the source's orientation.
func wrongDefect(w *Write, c CondCompare, atCompare bool) *Defect {
	builder := c.Clause == "expression builder"
	pos, end := condAnchor(w)
	if atCompare && c.Pos.IsValid() {
		pos, end = c.Pos, c.End
	}
	d := &Defect{Kind: DefectReversed, Category: "reversed", Pos: pos, End: end}
	if c.Op == "<>" || c.Op == "!=" || strings.EqualFold(c.Op, "IS DISTINCT FROM") {
		d.Kind, d.Category = DefectInequality, "inequality"
	}
	cc := c
	d.Compare = &cc
	if !c.OpPos.IsValid() || c.OpText == "" {
		return d
	}
	want := "<"
	if c.Op == ">=" {
		want = "<="
	}

	if c.Swapped {
		want = flipOp(want)
	}
	if builder {
		for name, op := range builderOps {
			if op == want {
				want = name
				break
			}
		}
	}
	d.Edits = []Edit{{Pos: c.OpPos, End: c.OpPos + token.Pos(len(c.OpText)), NewText: want}}
	return d
}

// sqlDefect is fencepredicate's judgement of a SQL (or gorm) write the
// engine found fenced or wrongly fenced.
func sqlDefect(w *Write, r *sqlRead, recordedInFunc []string) *Defect {
	var all []readCmp
	for _, c := range r.cmps {
		if c.o.isToken() && c.pub.Clause != "ON" && (c.pub.Fencing || !r.cql) {
			all = append(all, c)
		}
	}
	if w.Verdict == WrongPredicate {
		for _, c := range all {
			if !validDirection(c.pub.Op) {
				d := wrongDefect(w, c.pub, false)
				if r.stmt.OnDuplicateKey && len(r.stmt.ConflictSet) > 1 {
					// IF(cond, v, c) repeats cond in every assignment:
					// flipping one would leave the others reversed.
					d.Edits = nil
				}
				return d
			}
		}
		// Not found in the text (a shape read differently): report from
		// the engine's compares.
		for _, c := range w.Compares {
			if !validDirection(c.Op) {
				return wrongDefect(w, CondCompare{Column: c.Column, Text: c.Column, Op: c.Op, Token: c.Token, Origin: c.Token}, false)
			}
		}
		return nil
	}
	pos, end := condAnchor(w)
	for _, c := range all {
		if c.pub.NullBranch {
			// Detail is the branch as fencepredicate names it.
			cc := c.pub
			branch := cc.Text + " IS NULL OR"
			if cc.Text != "" && strings.ContainsRune(cc.Text, '(') {
				branch = cc.Text
			}
			return &Defect{Kind: DefectNullBranch, Category: "is-null", Pos: pos, End: end, Compare: &cc, Detail: branch}
		}
	}
	// Order comparisons: the fences that need recording. Equality is a
	// compare-and-set on a generation stamped at acquire.
	var order []readCmp
	for _, c := range all {
		if c.pub.Op == "<" || c.pub.Op == "<=" {
			order = append(order, c)
		}
	}
	stmt := r.stmt
	if len(order) == 0 {
		return nil
	}
	switch {
	case stmt.Verb == sqlcond.Update:
	case stmt.Verb == sqlcond.Insert && (stmt.OnConflict || stmt.OnDuplicateKey):
	default:
		return nil // DELETE removes the row: nothing to record
	}
	recorded := r.recorded
	if (stmt.Partial || r.setsUnknown) && len(recorded) == 0 {
		return nil // a SET clause we could not read may record it
	}
	for _, c := range order {
		if slices.Contains(recorded, c.pub.Column) {
			return nil
		}
	}
	tc := order[0]
	cc := tc.pub
	if len(recorded) > 0 {
		return &Defect{Kind: DefectOtherColumn, Category: "other-column", Pos: pos, End: end, Compare: &cc, Detail: recorded[0]}
	}
	if slices.Contains(recordedInFunc, tc.pub.Column) {
		return nil // another statement of the function records it
	}
	bare := tc.pub.Text // as written, unqualified
	if i := strings.LastIndexByte(bare, '.'); i >= 0 {
		bare = bare[i+1:]
	}
	if strings.ContainsAny(tc.pub.Text, "( ") {
		bare = tc.pub.Column // COALESCE(fence, 0): the column itself
	}
	ph := phText(w.Cond.Text, tc.pub.ph)
	d := &Defect{Kind: DefectNotRecorded, Category: "not-recorded", Pos: pos, End: end, Compare: &cc, Detail: bare + " = " + ph, Record: bare + " = " + ph}
	base := tc.pub.Pos - token.Pos(tc.pub.Offset)
	if a, lo, hi := assignedValue(stmt, w.Cond.Text, tc.pub.Column); a != nil {
		// SET fence = fence + 1 (or now(), or a constant): the column is
		// written, with something other than the token. Appending
		// another "fence = $3" would assign the column twice, which
		// PostgreSQL rejects; the fix replaces the value instead.
		d.Replaces = a.Value.Text
		if lo >= 0 && tc.pub.Pos.IsValid() && tc.pub.ph.Kind != sqlcond.Ordinal && ph != "the token" {
			d.Edits = []Edit{{Pos: base + token.Pos(lo), End: base + token.Pos(hi), NewText: ph}}
		}
		return d
	}
	if at := recordAt(stmt, w.Cond.Text, tc.pub.ph, ph); at >= 0 && tc.pub.Pos.IsValid() {
		d.Edits = []Edit{{Pos: base + token.Pos(at), End: base + token.Pos(at), NewText: ", " + bare + " = " + ph}}
	}
	return d
}

// assignedValue is the statement's assignment to column (among its
// recordingSets) and the byte range of the assigned
// value in sql, or -1, -1 when the value's text cannot be found exactly
// once after the assignment's '='.
func assignedValue(stmt *sqlcond.Statement, sql, column string) (*sqlcond.Assignment, int, int) {
	sets := recordingSets(stmt)
	for i := range sets {
		a := &sets[i]
		if a.Column != column {
			continue
		}
		if a.Offset < 0 || a.Offset > len(sql) || a.Value.Text == "" {
			return a, -1, -1
		}
		rest := sql[a.Offset:]
		eq := strings.IndexByte(rest, '=')
		if eq < 0 {
			return a, -1, -1
		}
		at := strings.Index(rest[eq+1:], a.Value.Text)
		if at < 0 || strings.TrimSpace(rest[eq+1:eq+1+at]) != "" {
			return a, -1, -1
		}
		lo := a.Offset + eq + 1 + at
		return a, lo, lo + len(a.Value.Text)
	}
	return nil, -1, -1
}

var fromRe = lazyregexp.New(`(?i)\bfrom\b`)

// recordAt is where ", col = ph" can be appended to an UPDATE's SET list
// (the end of the list, before WHERE), or -1: only for a numbered or
// named placeholder (an extra '?' would shift the others) and a SET list
// directly followed by the WHERE (no FROM between them).
func recordAt(stmt *sqlcond.Statement, sql string, p sqlcond.Placeholder, ph string) int {
	if stmt.Verb != sqlcond.Update || len(stmt.Set) == 0 || len(stmt.Where) == 0 || p.Kind == sqlcond.Ordinal || ph == "the token" {
		return -1
	}
	lastSet := stmt.Set[len(stmt.Set)-1].Offset
	whereOff := stmt.Where[0].Offset
	if whereOff > len(sql) || lastSet > whereOff {
		return -1
	}
	head := strings.ToLower(sql[:whereOff])
	kw := strings.LastIndex(head, "where")
	if kw < lastSet || fromRe.MatchString(sql[lastSet:kw]) {
		return -1
	}
	return len(strings.TrimRight(sql[:kw], " \t\n"))
}

// mongoDefect is fencepredicate's judgement of a MongoDB write: a
// reversed operator, or an order compare ($lt) whose field the update
// never sets, so the fence never moves.
func mongoDefect(w *Write, r *mongoRead) *Defect {
	var cmps []readCmp
	for _, c := range r.cmps {
		if c.pub.Fencing && c.o.isToken() && !c.o.weak {
			cmps = append(cmps, c)
		}
	}
	if w.Verdict == WrongPredicate {
		for _, c := range cmps {
			if !validDirection(c.pub.Op) {
				return wrongDefect(w, c.pub, false)
			}
		}
		return nil
	}
	var fences []readCmp
	for _, c := range cmps {
		if c.pub.Op == "<" || c.pub.Op == "<=" {
			fences = append(fences, c)
		}
	}
	if len(fences) == 0 || !r.update || !r.writtenOK {
		return nil // nothing to record, a delete, or an update we cannot read
	}
	for _, c := range fences {
		if slices.Contains(r.recorded, c.pub.Column) {
			return nil
		}
	}
	c := fences[0].pub
	pos, end := condAnchor(w)
	return &Defect{Kind: DefectNotRecorded, Category: "not-recorded", Pos: pos, End: end, Compare: &c,
		Detail: "its update never sets " + c.Column + " to the token"}
}

// dynamoDefect is fencepredicate's judgement of one DynamoDB item.
// orderOp: op orders its operands (<, <=, >, >=).
func orderOp(op string) bool {
	switch op {
	case "<", "<=", ">", ">=":
		return true
	}
	return false
}

// stringOrderDefect is an order compare of the token printed as an
// unpadded decimal string with a value the store orders byte by byte.
func stringOrderDefect(w *Write, c CondCompare, atCompare bool) *Defect {
	pos, end := condAnchor(w)
	if atCompare && c.Pos.IsValid() {
		pos, end = c.Pos, c.End
	}
	cc := c
	return &Defect{Kind: DefectStringOrder, Category: "string-order", Pos: pos, End: end, Compare: &cc}
}

func dynamoDefect(w *Write, r *ddbRead) *Defect {
	builder := r.text == ""
	if !builder && r.method != "UpdateItem" && r.method != "PutItem" && r.method != "DeleteItem" &&
		r.method != "Update" && r.method != "Put" && r.method != "Delete" && r.method != "ConditionCheck" {
		return nil
	}
	var cmps []readCmp
	for _, c := range r.cmps {
		if !c.negated && c.o.isToken() && !c.o.weak {
			cmps = append(cmps, c)
		}
	}
	if w.Verdict == WrongPredicate {
		for _, c := range cmps {
			if c.decimal && orderOp(c.pub.Op) {
				d := stringOrderDefect(w, c.pub, false)
				if r.condPos.IsValid() {
					d.Pos, d.End = r.condPos, r.condEnd
				}
				return d
			}
			if !validDirection(c.pub.Op) {
				d := wrongDefect(w, c.pub, builder)
				if !builder && r.condPos.IsValid() {
					// The item's own ConditionExpression: in a
					// transaction, not the first item's.
					d.Pos, d.End = r.condPos, r.condEnd
				}
				return d
			}
		}
		return nil
	}
	var fences []readCmp
	for _, c := range cmps {
		if c.pub.Op == "<" || c.pub.Op == "<=" {
			fences = append(fences, c)
		}
	}
	if len(fences) == 0 || !r.writtenOK {
		return nil // nothing to record, or writes we cannot read
	}
	for _, c := range fences {
		if slices.Contains(r.written, c.pub.Column) {
			return nil
		}
	}
	c := fences[0].pub
	how := "its UpdateExpression never sets " + c.Column
	if r.method == "PutItem" || r.method == "Put" {
		how = "its Item has no " + c.Column + " attribute"
	}
	pos, end := condAnchor(w)
	return &Defect{Kind: DefectNotRecorded, Category: "not-recorded", Pos: pos, End: end, Compare: &c, Detail: how}
}
