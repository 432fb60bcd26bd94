package fence

import (
	"go/types"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// evalGorm judges a gorm write. For a chain finisher it rebuilds the
// statement gorm will send, "UPDATE table SET col = ? WHERE (frag) AND
// (frag)", from the chain's Where/Or/Not fragments and their arguments,
// and judges it like any SQL: the fence must be compared in that WHERE.
// A chain it cannot see whole (built by a helper, Clauses, Scopes, a
// condition that is a struct or map, named arguments) is Unknown.
func (e *engine) evalGorm(cc *ssa.CallCommon, w *rules.Write) *eval {
	ev := &eval{isWrite: true, unit: e.gormTxUnit(receiver(cc))}
	switch w.Kind {
	case rules.GormSave, rules.GormCreate:
		// Save(&doc) and Create(&doc) write the table of the value's type.
		if ps := params(cc); len(ps) > 0 {
			ev.target = modelName(stripValue(ps[0]).Type())
		}
	}
	switch w.Kind {
	case rules.GormSave:
		ev.verdict = Unfenced
		ev.blind = true
		ev.detail = "gorm's Save re-issues an UPDATE that matched no row as an upsert without the WHERE; use Where(...) with the fence, then Updates, and check RowsAffected"
		return ev
	case rules.GormCreate:
		ev.verdict = Unfenced
		ev.detail = "a plain INSERT carries no fencing token"
		return ev
	}
	fn := calleeFunc(cc)
	if fn == nil {
		ev.verdict = Unknown
		return ev
	}
	type cond struct {
		op   string // Where, Or, Not
		frag string
		args []ssa.Value
	}
	var conds []cond // from the write back to the root
	table := ""
	fragOf := func(ps []ssa.Value) (cond, bool) {
		if len(ps) == 0 {
			return cond{}, false
		}
		frag, ok := constString(ps[0])
		if !ok || strings.Contains(frag, "@") {
			return cond{}, false // a struct, a map, named arguments: not judged
		}
		c := cond{frag: frag}
		if len(ps) > 1 {
			args, ok := unpackVariadic(ps[len(ps)-1])
			if !ok {
				return cond{}, false
			}
			c.args = args
		}
		return c, true
	}
	ps := params(cc)
	if fn.Name() == "Delete" && len(ps) > 1 {
		// Delete(&Job{}, "fence < ?", tok): inline conditions.
		if inline, ok := unpackVariadic(ps[1]); ok && len(inline) > 0 {
			c, ok := fragOf(inline)
			if !ok {
				ev.verdict = Unknown
				return ev
			}
			c.op = "Where"
			conds = append(conds, c)
		}
	}
	v := receiver(cc)
	for depth := 0; ; depth++ {
		call, ok := stripValue(v).(*ssa.Call)
		if !ok {
			break // the root: a parameter, a field, a global
		}
		cfn := calleeFunc(call.Common())
		if depth > 32 || cfn == nil || !isGormDB(cfn) {
			ev.verdict = Unknown // built by a function we do not look into
			return ev
		}
		name := cfn.Name()
		if name == rules.GormBegin {
			break // tx := db.Begin(): the transaction is the chain's root
		}
		cps := params(call.Common())
		switch {
		case rules.GormConditions[name]:
			c, ok := fragOf(cps)
			if !ok {
				ev.verdict = Unknown
				return ev
			}
			c.op = name
			conds = append(conds, c)
		case rules.GormPassThrough[name]:
			if name == "Table" && len(cps) > 0 {
				if t, ok := constString(cps[0]); ok && table == "" {
					table = t
				}
			}
			if name == "Model" && len(cps) > 0 && table == "" {
				table = modelName(stripValue(cps[0]).Type())
			}
		case name == "Clauses" && neutralClauses(cps):
			// Clauses(clause.Returning{...}): what the UPDATE returns, not
			// which rows it matches.
		default:
			ev.verdict = Unknown
			return ev
		}
		v = receiver(call.Common())
	}

	// SET: Update("col", v) names its column, Updates(map[string]any{...})
	// built here its columns; anything else (a struct, a map from
	// elsewhere) is judged on its WHERE only, and what it records is
	// unknown.
	set, setArgs := "x = 1", []ssa.Value(nil)
	setsKnown := false
	if w.InputArg >= 0 && len(ps) > w.InputArg {
		if col, ok := constString(ps[0]); ok && isIdent(col) {
			set, setArgs, setsKnown = col+" = ?", []ssa.Value{ps[w.InputArg]}, true
		}
	} else if (fn.Name() == "Updates" || fn.Name() == "UpdateColumns") && len(ps) == 1 {
		m, ok := mapEntries(ps[0])
		if !ok {
			// Updates(Inventory{Stocks: n, Version: v + 1}): a struct
			// literal built here sets the columns of the fields it fills
			// (gorm skips zero fields; a literal names those it means).
			m, ok = gormStructColumns(ps[0])
		}
		if ok && len(m) > 0 {
			cols := slices.Sorted(maps.Keys(m))
			if !slices.ContainsFunc(cols, func(c string) bool { return !isIdent(c) }) {
				set, setArgs, setsKnown = "", nil, true
				for i, c := range cols {
					if i > 0 {
						set += ", "
					}
					set += c + " = ?"
					setArgs = append(setArgs, m[c])
				}
			}
		}
	}
	where, args := "", setArgs
	for i := len(conds) - 1; i >= 0; i-- { // root first, as gorm builds it
		c := conds[i]
		frag := "(" + c.frag + ")"
		switch {
		case where == "":
			if c.op == "Not" {
				frag = "NOT " + frag
			}
			where = frag
		case c.op == "Or":
			where = "(" + where + ") OR " + frag
		case c.op == "Not":
			where += " AND NOT " + frag
		default:
			where += " AND " + frag
		}
		args = append(args, c.args...)
	}
	tbl := table
	if tbl == "" || !isIdent(tbl) {
		tbl = "gorm_model"
	}
	var q string
	if fn.Name() == "Delete" {
		q = "DELETE FROM " + tbl
	} else {
		q = "UPDATE " + tbl + " SET " + set
	}
	if where != "" {
		q += " WHERE " + where
	}
	stmts := e.parseSQL(q)
	if len(stmts) != 1 || !stmts[0].Verb.IsWrite() {
		ev.verdict = Unknown
		return ev
	}
	stmt := stmts[0]
	ev.store, ev.target, ev.sql = "gorm", table, q
	e.judgeSQL(ev, q, stmts, stmt, &binder{e: e, args: args, ok: true})
	for _, p := range stmt.Params {
		if a := (&binder{e: e, args: args, ok: true}).value(p); a != nil && e.originOf(a).isToken() {
			ev.tokenOffsets = append(ev.tokenOffsets, p.Offset)
		}
	}
	// gorm adds the model's primary key to the WHERE it builds (and
	// refuses an update with none): the rebuilt statement's missing WHERE
	// does not make the write blind.
	ev.blind = false
	if !setsKnown {
		ev.sqlRead.setsUnknown = true
		ev.cond.RecordsKnown = false
	}
	if where == "" && ev.verdict == Unfenced && ev.detail == "" {
		ev.detail = "its chain has no Where"
	}
	if (ev.verdict == Unfenced || ev.verdict == RecordedOnly) && e.lockedRowsOn(v) {
		// The same *gorm.DB (a transaction) took row locks with
		// Clauses(clause.Locking{...}): SELECT ... FOR UPDATE and a token
		// compared in Go is a fence we do not model for gorm. Unknown
		// rather than a false alarm.
		ev.verdict, ev.detail = Unknown, ""
	}
	return ev
}

// lockedRowsOn reports whether a gorm chain on root, in the function that
// defines root or a closure in it, passes a clause.Locking to Clauses. It
// is asked once per unfenced write; the answer is kept per root, so a
// function with many writes on one transaction is scanned once.
func (e *engine) lockedRowsOn(root ssa.Value) bool {
	root = stripValue(root)
	if r, ok := e.lockedRows[root]; ok {
		return r
	}
	r := scanLockedRows(root)
	if e.lockedRows == nil {
		e.lockedRows = map[ssa.Value]bool{}
	}
	e.lockedRows[root] = r
	return r
}

func scanLockedRows(root ssa.Value) bool {
	fn := root.Parent()
	if fn == nil {
		return false
	}
	found := false
	var visit func(f *ssa.Function)
	visit = func(f *ssa.Function) {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || found {
					continue
				}
				cfn := calleeFunc(call.Common())
				if cfn == nil || cfn.Name() != "Clauses" || !isGormDB(cfn) {
					continue
				}
				for _, a := range params(call.Common()) {
					exprs, ok := unpackVariadic(a)
					if !ok {
						continue
					}
					for _, x := range exprs {
						if _, ok := types.Unalias(stripValue(x).Type()).(*types.Named); ok && rules.HasTypeKey(stripValue(x).Type(), rules.GormLocking) && gormRoot(call) == root {
							found = true
						}
					}
				}
			}
		}
		for _, a := range f.AnonFuncs {
			visit(a)
		}
	}
	visit(fn)
	return found
}

// gormTxUnit is the transaction a gorm chain starting at v runs in: the
// *gorm.DB a Transaction(func(tx *gorm.DB) error {...}) callback
// receives, or the result of Begin(); nil for a plain handle. Its
// statements are one unit, so a fenced one whose rejection aborts the
// callback fences the others (applyUnits).
func (e *engine) gormTxUnit(v ssa.Value) ssa.Value {
	for i := 0; i < 32 && v != nil; i++ {
		c, ok := stripValue(v).(*ssa.Call)
		if !ok {
			break
		}
		fn := calleeFunc(c.Common())
		if fn == nil || !isGormDB(fn) {
			return nil
		}
		if fn.Name() == rules.GormBegin {
			return c
		}
		v = receiver(c.Common())
	}
	p, ok := stripValue(v).(*ssa.Parameter)
	if !ok || p.Parent() == nil || p.Parent().Parent() == nil {
		return nil // a function's own parameter: not known to be a transaction
	}
	// p is a closure's parameter: is the closure Transaction's callback?
	// It is passed as its MakeClosure, or as itself when it captures
	// nothing.
	made := []ssa.Value{p.Parent()}
	for _, mc := range e.closures[p.Parent()] {
		made = append(made, mc)
	}
	for _, mc := range made {
		refs := mc.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			call, ok := r.(*ssa.Call)
			if !ok {
				continue
			}
			if fn := calleeFunc(call.Common()); fn != nil && fn.Name() == rules.GormTransaction && isGormDB(fn) {
				return p
			}
		}
	}
	return nil
}

// gormRoot follows a gorm chain call back to the value it starts from.
func gormRoot(call *ssa.Call) ssa.Value {
	var v ssa.Value = call
	for i := 0; i < 32; i++ {
		c, ok := stripValue(v).(*ssa.Call)
		if !ok {
			return stripValue(v)
		}
		if fn := calleeFunc(c.Common()); fn == nil || !isGormDB(fn) {
			return c
		}
		v = receiver(c.Common())
	}
	return nil
}

func isGormDB(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil && rules.IsGormDB(sig.Recv().Type().String())
}

// modelName is the table a Model(&Job{}) argument stands for, by its type
// name (gorm pluralises and snake-cases it; messages only need a hint).
func modelName(t types.Type) string {
	for i := 0; i < 3; i++ {
		switch u := types.Unalias(t).(type) {
		case *types.Pointer:
			t = u.Elem()
			continue
		case *types.Interface:
			return ""
		case *types.Named:
			return u.Obj().Name()
		}
		break
	}
	return ""
}

// gormStructColumns returns, for a struct literal built in the function
// (Inventory{...} or &Inventory{...}), the value stored in each field it
// fills, keyed by the field's column: its gorm:"column:..." tag, else
// gorm's default naming (snake case: GoodsID -> goods_id).
func gormStructColumns(v ssa.Value) (map[string]ssa.Value, bool) {
	fields, ok := fieldStores(v)
	if !ok {
		return nil, false
	}
	st, ok := derefStruct(stripValue(v).Type())
	if !ok {
		return nil, false
	}
	out := map[string]ssa.Value{}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if val, ok := fields[f.Name()]; ok {
			out[gormColumn(f.Name(), st.Tag(i))] = val
		}
	}
	return out, true
}

// gormColumn is the column gorm maps a struct field to.
func gormColumn(field, tag string) string {
	for _, part := range strings.Split(reflect.StructTag(tag).Get("gorm"), ";") {
		if k, v, ok := strings.Cut(part, ":"); ok && strings.EqualFold(strings.TrimSpace(k), "column") {
			return strings.TrimSpace(v)
		}
	}
	return snakeCase(field)
}

// snakeCase is gorm's default column naming: an underscore before an
// upper-case letter that follows a lower-case one or a digit, or that
// starts a word after an initialism (HTTPServer -> http_server).
func snakeCase(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		upper := 'A' <= c && c <= 'Z'
		if upper && i > 0 {
			prev := s[i-1]
			prevLower := 'a' <= prev && prev <= 'z' || '0' <= prev && prev <= '9'
			nextLower := i+1 < len(s) && 'a' <= s[i+1] && s[i+1] <= 'z'
			if prevLower || ('A' <= prev && prev <= 'Z' && nextLower) {
				b.WriteByte('_')
			}
		}
		if upper {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' || i > 0 && r == '.') {
			return false
		}
	}
	return true
}

// neutralClauses: every clause passed to Clauses leaves the WHERE alone
// (clause.Returning only).
func neutralClauses(ps []ssa.Value) bool {
	if len(ps) != 1 {
		return false
	}
	cls, ok := unpackVariadic(ps[0])
	if !ok || len(cls) == 0 {
		return false
	}
	for _, c := range cls {
		t := stripValue(c).Type()
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t = p.Elem()
		}
		if _, ok := types.Unalias(t).(*types.Named); !ok || !rules.HasTypeKey(t, rules.GormReturning) {
			return false
		}
	}
	return true
}
