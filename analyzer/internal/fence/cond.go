package fence

import (
	"go/token"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/sqlcond"
	"github.com/fencelint/fencelint/internal/lazyregexp"
	"github.com/fencelint/fencelint/rules"
)

// Condition is a write's own condition as the engine read it, normalised
// (every judged write has one; Text and Compares are empty for writes whose
// condition is not read from text, a builder or a Txn compare):
// which stored columns or attributes are compared with which token-derived
// value and how, and what the write records. It is the one reading of a
// write's SQL, DynamoDB input or builder chain: the verdict, the
// fencepredicate defects and the PostgreSQL proof all come from it.
type Condition struct {
	// Text is what was read: the SQL given to the call (all its
	// statements; for gorm the statement its chain builds), the
	// ConditionExpression. Offsets below are into Text.
	Text string
	// Pos and End span the expression holding the condition in source:
	// the SQL argument, the ConditionExpression value, the builder call.
	// NoPos when unknown (gorm, a prepared statement).
	Pos, End token.Pos
	// Compares are the comparisons of a stored column or attribute with
	// a token-derived value, normalised to "column Op token", in text
	// order. Compares of another clause than the write's condition (a
	// MERGE's ON join) are listed with Fencing false.
	Compares []CondCompare
	// Records are the columns or attributes the write stores the token
	// in; for DynamoDB, the attributes it writes at all (RecordsKnown says
	// whether they could be read).
	Records      []string
	RecordsKnown bool
	// Unit: the write runs in a transaction, batch or multi-item
	// transaction, so another statement may record or fence for it.
	Unit bool
	// CreateOnly: the write only creates what does not exist yet (a plain
	// INSERT, a ZooKeeper Create): it cannot overwrite a newer holder's
	// data, though it is not fenced either.
	CreateOnly bool
	// Blind: the write carries no condition the store evaluates at all
	// (an unconditional put or delete, an UPDATE without WHERE, an upsert
	// without a conflict condition, version -1, a Txn without If, an
	// object write without precondition whose key carries no token).
	Blind bool
	// Partial: a clause could not be read.
	Partial bool
}

// CondCompare is one comparison of stored state with the token.
type CondCompare struct {
	Column string // the stored column (lower-cased) or attribute (#names resolved)
	Text   string // the column as written: "kv.fence", "#f"
	Op     string // normalised to "column Op token": "<", ">=", "<>", "=", ...
	Token  string // the token side as written: "$3", ":tok", "EXCLUDED.fence"
	Origin string // the token's origin: "lease.Token"
	Weak   bool   // the token is not monotonic across grants
	// Clause is where it sits: "WHERE", "ON CONFLICT WHERE", "WHEN
	// MATCHED", "ON", "ConditionExpression", "If".
	Clause string
	// Fencing: it counts for the verdict (a comparison in the write's
	// condition, not in an OR group whose other alternatives let rows
	// through whatever their fence).
	Fencing bool
	// NullBranch: its OR group also admits "column IS NULL", or the
	// column is read through COALESCE(column, n) (Text says which).
	NullBranch bool
	Swapped    bool // the column is on the right in the source
	// Offset and Len locate the comparison in Condition.Text (Offset -1
	// when it was not read from text).
	Offset, Len int
	// OpText is the operator as written and OpPos where it is in source
	// (NoPos when the literal does not hold Text verbatim); Pos and End
	// span the comparison in source the same way.
	OpText   string
	OpPos    token.Pos
	Pos, End token.Pos
	ph       sqlcond.Placeholder // SQL: the placeholder bound to the token
	opOff    int                 // offset of OpText in Condition.Text, -1 when unknown
}

// readCmp is a comparison as read, with the origin that decides verdicts.
type readCmp struct {
	pub     CondCompare
	o       *origin
	negated bool // DynamoDB: NOT applied to the comparison
	// decimal: the token side is the token printed as an unpadded
	// decimal string (strconv.FormatInt, fmt.Sprint), compared with a
	// string the store orders byte by byte (an etcd Value, a DynamoDB S
	// attribute): an order compare is then wrong once the token gains a
	// digit.
	decimal bool
	// rowKey: the token is compared for equality with a column that
	// names the row (id, job_id): that selects a row, it fences nothing,
	// and usually means the arguments are in the wrong order.
	rowKey bool
	// bypass is the OR group's text when the compare sits in one with
	// another alternative (fence < $3 OR force_write): it does not fence,
	// and the detail says why.
	bypass string
}

// validDirection: the stored fence must be below (or, for a retry by the same
// holder, equal to) the presented token; equality is also the CAS on a
// generation stamped at acquire.
func validDirection(op string) bool {
	switch strings.ToUpper(op) {
	case "<", "<=", "=", "IS NOT DISTINCT FROM":
		return true
	}
	return false
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

// opAt finds the operator of a comparison in text: it follows the left
// operand. It returns the operator as written and its offset, or "" -1.
func opAt(text string, cmpText string, cmpOff int, left string) (string, int) {
	if left == "" || !strings.HasPrefix(cmpText, left) {
		return "", -1
	}
	rest := cmpText[len(left):]
	trimmed := strings.TrimLeft(rest, " \t\n")
	for _, o := range []string{">=", "<=", "<>", "!=", ">", "<", "="} {
		if strings.HasPrefix(trimmed, o) {
			off := cmpOff + len(left) + len(rest) - len(trimmed)
			if off+len(o) <= len(text) && text[off:off+len(o)] == o {
				return o, off
			}
			return "", -1
		}
	}
	return "", -1
}

// readSQLCond reads the comparisons and records of stmt, one statement of
// text, binding placeholders with b.
func (e *engine) readSQLCond(text string, stmt *sqlcond.Statement, b *binder) (cmps []readCmp, recorded []string, recordOrigin *origin) {
	// Values inserted under a column name: EXCLUDED.col / VALUES(col)
	// in an ON CONFLICT condition read them.
	inserted := map[string]sqlcond.Operand{}
	if stmt.Verb == sqlcond.Insert {
		for _, a := range stmt.Set {
			inserted[a.Column] = a.Value
		}
	}
	resolve := func(op sqlcond.Operand) sqlcond.Operand {
		if op.Table == "excluded" && op.Column != "" {
			if v, ok := inserted[op.Column]; ok {
				return v
			}
		}
		if v, ok := stmt.Source[op.Table+"."+op.Column]; ok && op.Table != "" && op.Column != "" {
			return v // MERGE ... USING (SELECT $3 AS fence) s: s.fence is $3
		}
		if op.ValuesOf != "" {
			if v, ok := inserted[op.ValuesOf]; ok {
				return v
			}
		}
		return op
	}
	// operandOrigin prefers a token origin over a parameter one, and
	// returns the placeholder carrying it.
	operandOrigin := func(op sqlcond.Operand) (*origin, sqlcond.Placeholder) {
		var paramO *origin
		var paramP sqlcond.Placeholder
		for _, src := range []sqlcond.Operand{op, resolve(op)} {
			for _, p := range src.Params {
				v := b.value(p)
				if v == nil {
					continue
				}
				if o := e.originOf(v); o != nil {
					if o.param < 0 {
						return o, p
					}
					if paramO == nil {
						paramO, paramP = o, p
					}
				}
			}
			if paramO != nil {
				break
			}
		}
		return paramO, paramP
	}
	isStored := func(op sqlcond.Operand) bool { _, ok := storedColumn(op); return ok }

	type clause struct {
		name    string
		conds   []sqlcond.Conjunct
		fencing bool
	}
	var clauses []clause
	switch {
	case b.cql:
		// CQL: the WHERE is the row's primary key, not a condition; the
		// IF of a lightweight transaction is.
		clauses = []clause{{"WHERE", stmt.Where, false}, {"IF", stmt.If, true}}
	case stmt.Verb == sqlcond.Insert:
		clauses = []clause{{"ON CONFLICT WHERE", stmt.ConflictWhere, true}}
	case stmt.Verb == sqlcond.Merge:
		// The ON condition is the join that decides which WHEN branch a
		// row takes, not a fence: a row it rejects goes to WHEN NOT
		// MATCHED. The fence of the update is the WHEN MATCHED AND.
		clauses = []clause{{"ON", stmt.Where, false}, {"WHEN MATCHED", stmt.MatchedWhere, true}}
	default:
		clauses = []clause{{"WHERE", stmt.Where, true}}
	}
	for _, cl := range clauses {
		for _, c := range cl.conds {
			group := fencingGroup(c)
			for _, cmp := range c.Or {
				if cmp.Op == "" {
					continue
				}
				col, tokSide, op, swapped := cmp.Left, cmp.Right, cmp.Op, false
				o, ph := (*origin)(nil), sqlcond.Placeholder{}
				if isStored(cmp.Left) {
					o, ph = operandOrigin(cmp.Right)
				}
				if o == nil && isStored(cmp.Right) {
					col, tokSide, op, swapped = cmp.Right, cmp.Left, flipOp(cmp.Op), true
					o, ph = operandOrigin(cmp.Left)
				}
				if o == nil {
					continue
				}
				column, _ := storedColumn(col)
				rc := readCmp{o: o, pub: CondCompare{
					Column: column, Text: col.Text, Op: op, Origin: o.desc, Weak: o.weak,
					Clause: cl.name, Fencing: cl.fencing && group, Swapped: swapped, Offset: cmp.Offset, Len: len(cmp.Text),
					ph: ph,
				}}
				if cl.fencing && !group {
					rc.bypass = c.Text
				}
				if (op == "=" || strings.EqualFold(op, "IS NOT DISTINCT FROM")) && o.isToken() && rules.IsRowKeyColumn(column) && !fenceLikeColumn(column) {
					rc.rowKey = true
					rc.pub.Fencing = false
				}
				rc.pub.Token = tokSide.Text
				if tokSide.IsParam || tokSide.Text == "" {
					rc.pub.Token = phText(text, ph)
				}
				if !cmp.Negated {
					// Under NOT the operator written is not the one to flip.
					rc.pub.OpText, rc.pub.opOff = opAt(text, cmp.Text, cmp.Offset, cmp.Left.Text)
				}
				if col.Column == "" {
					// COALESCE(fence, 0) < $1 lets a row whose fence is
					// NULL through, as "fence IS NULL OR fence < $1" does
					// (the PostgreSQL proof plays it).
					rc.pub.NullBranch = true
				}
				if len(c.Or) > 1 {
					for _, alt := range c.Or {
						if c, ok := storedColumn(alt.Left); ok && alt.Op == "IS NULL" && c == column {
							rc.pub.NullBranch = true
						}
					}
				}
				cmps = append(cmps, rc)
			}
		}
	}
	// Columns that record the token.
	for _, a := range recordingSets(stmt) {
		if o, _ := operandOrigin(a.Value); o.isToken() {
			recorded = append(recorded, a.Column)
			recordOrigin = o
		}
	}
	return cmps, recorded, recordOrigin
}

// coalesceRe matches COALESCE(col, n) (also IFNULL, NVL): the stored
// column with a default for NULL, the common way to fence rows written
// before the fence column existed.
var coalesceRe = lazyregexp.New(`(?is)^\s*(?:coalesce|ifnull|nvl)\s*\(\s*((?:[a-z_][a-z0-9_$]*|"[^"]+")(?:\.(?:[a-z_][a-z0-9_$]*|"[^"]+"))*)\s*,\s*[-+]?\d+\s*\)\s*$`)

// storedColumn returns the column of the target row an operand reads: a
// column reference (not EXCLUDED.col, the proposed value), or the column
// of COALESCE(col, n). The name is lower-cased and unqualified, as
// sqlcond gives it.
func storedColumn(op sqlcond.Operand) (string, bool) {
	if op.Column != "" {
		return op.Column, op.Table != "excluded"
	}
	m := coalesceRe.FindStringSubmatch(op.Text)
	if m == nil {
		return "", false
	}
	parts := strings.Split(m[1], ".")
	last := parts[len(parts)-1]
	if strings.HasPrefix(last, `"`) {
		return strings.Trim(last, `"`), len(parts) == 1 || !strings.EqualFold(parts[0], "excluded")
	}
	return strings.ToLower(last), len(parts) == 1 || !strings.EqualFold(parts[0], "excluded")
}

// fencingGroup: an OR group fences only when its one alternative besides
// the transitional "fence IS NULL" branch (a defect of its own) compares
// the token: "fence < $1 OR id = $2" lets any row with the id through, and
// "a < $1 OR b < $1" a row that recorded the token in only one of them
// (the PostgreSQL proof showed both).
// recordingSets are the assignments that reach the row a fence protects:
// the SET list, or an upsert's conflict SET list, since the row exists
// and the inserted values never reach it (an upsert that does nothing on
// conflict records what it inserts).
func recordingSets(stmt *sqlcond.Statement) []sqlcond.Assignment {
	if (stmt.OnConflict || stmt.OnDuplicateKey) && len(stmt.ConflictSet) > 0 {
		return stmt.ConflictSet
	}
	return stmt.Set
}

func fencingGroup(c sqlcond.Conjunct) bool {
	n := 0
	for _, cmp := range c.Or {
		if cmp.Op != "IS NULL" {
			n++
		}
	}
	return n <= 1
}

var phRe = lazyregexp.New(`^[$:@?][A-Za-z0-9_]*`)

// phText is the placeholder as written ("$3", ":tok", "@tok").
func phText(sql string, p sqlcond.Placeholder) string {
	if p.Offset >= 0 && p.Offset < len(sql) {
		if m := phRe.FindString(sql[p.Offset:]); m != "" {
			return m
		}
	}
	return "the token"
}

// publicCompares are the token compares of a reading, for Write.Cond.
func publicCompares(cmps []readCmp) []CondCompare {
	var out []CondCompare
	for _, c := range cmps {
		if c.o.isToken() {
			out = append(out, c.pub)
		}
	}
	return out
}
