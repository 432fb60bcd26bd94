package sqlcond

import (
	"fmt"
	"sort"
	"strings"
)

// describe renders a statement compactly so table cases can state the
// whole reading in one line.
func describe(st *Statement) string {
	var b strings.Builder
	b.WriteString(string(st.Verb))
	if st.Verb == Unknown {
		b.WriteString("UNKNOWN")
	}
	if st.Table != "" {
		b.WriteString(" " + st.Table)
	}
	if st.Alias != "" {
		b.WriteString(" as " + st.Alias)
	}
	if st.Columns != nil {
		b.WriteString(" cols[" + strings.Join(st.Columns, ", ") + "]")
	}
	if st.Set != nil {
		b.WriteString(" set[" + assignments(st.Set) + "]")
	}
	if st.Where != nil {
		b.WriteString(" where[" + conjuncts(st.Where) + "]")
	}
	if st.MatchedWhere != nil {
		b.WriteString(" matched[" + conjuncts(st.MatchedWhere) + "]")
	}
	if st.Source != nil {
		keys := make([]string, 0, len(st.Source))
		for k := range st.Source {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			keys[i] = k + "=" + st.Source[k].Text
		}
		b.WriteString(" source[" + strings.Join(keys, ", ") + "]")
	}
	if st.OnConflict {
		b.WriteString(" onconflict")
	}
	if st.OnDuplicateKey {
		b.WriteString(" ondupkey")
	}
	if st.DoNothing {
		b.WriteString(" nothing")
	}
	if st.ConflictSet != nil {
		b.WriteString(" cset[" + assignments(st.ConflictSet) + "]")
	}
	if st.ConflictWhere != nil {
		b.WriteString(" cwhere[" + conjuncts(st.ConflictWhere) + "]")
	}
	if st.If != nil {
		b.WriteString(" if[" + conjuncts(st.If) + "]")
	}
	if st.IfExists {
		b.WriteString(" ifexists")
	}
	if st.IfNotExists {
		b.WriteString(" ifnotexists")
	}
	if st.Returning != nil {
		b.WriteString(" ret[" + strings.Join(st.Returning, ", ") + "]")
	}
	if st.Locking != "" {
		b.WriteString(" lock[" + st.Locking + "]")
	}
	if st.Params != nil {
		b.WriteString(" params[" + params(st.Params) + "]")
	}
	if st.Calls != nil {
		b.WriteString(" calls[" + strings.Join(st.Calls, ", ") + "]")
	}
	if st.WithWrite {
		b.WriteString(" withwrite")
	}
	if st.Partial {
		b.WriteString(" partial")
	}
	return b.String()
}

func describeAll(stmts []*Statement) string {
	var out []string
	for _, st := range stmts {
		out = append(out, describe(st))
	}
	return strings.Join(out, " ;; ")
}

func param(ph Placeholder) string {
	switch ph.Kind {
	case Positional:
		return fmt.Sprintf("$%d", ph.Index)
	case Ordinal:
		return fmt.Sprintf("?%d", ph.Index)
	case Named:
		return ":" + ph.Name
	}
	return "!"
}

func params(ps []Placeholder) string {
	var out []string
	for _, ph := range ps {
		out = append(out, param(ph))
	}
	return strings.Join(out, " ")
}

func operand(o Operand) string {
	switch {
	case o.Column != "" && o.Table != "":
		return o.Table + "." + o.Column
	case o.Column != "":
		return o.Column
	case o.IsParam:
		return param(o.Params[0])
	case o.Literal != "":
		return o.Literal
	case o.ValuesOf != "":
		return "values(" + o.ValuesOf + ")"
	case o.Params != nil:
		return "<" + o.Text + " {" + params(o.Params) + "}>"
	}
	return "<" + o.Text + ">"
}

func assignments(as []Assignment) string {
	var out []string
	for _, a := range as {
		out = append(out, a.Column+"="+operand(a.Value))
	}
	return strings.Join(out, ", ")
}

func comparison(c Comparison) string {
	switch c.Op {
	case "":
		return "~" + operand(c.Left)
	case "IS NULL", "IS NOT NULL":
		return operand(c.Left) + " " + c.Op
	case "EXISTS", "NOT EXISTS":
		return c.Op + " " + operand(c.Right)
	}
	return operand(c.Left) + " " + c.Op + " " + operand(c.Right)
}

func conjuncts(cs []Conjunct) string {
	var out []string
	for _, c := range cs {
		var alts []string
		for _, cmp := range c.Or {
			alts = append(alts, comparison(cmp))
		}
		s := strings.Join(alts, " OR ")
		if len(c.Or) > 1 {
			s = "(" + s + ")"
		}
		if c.Unknown {
			s = "?" + s
		}
		out = append(out, s)
	}
	return strings.Join(out, " & ")
}
