package fence

// SQL lease tables as locks (issue 13 item 6). Applications that take a
// lock through a table of their own run one statement that claims a row:
//
//	UPDATE locks SET holder = $1, expires_at = now() + interval '30s'
//	 WHERE name = $2 AND (expires_at < now() OR holder = $1)
//	INSERT INTO locks (name, holder, expires_at) VALUES ($1, $2, ...)
//	  ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, ...
//	  WHERE locks.expires_at < now()
//
// Such a call is an acquire (acquireOf), its success is told by the rows
// it affected, the row RETURNING gives back or the error (failValues),
// and a DELETE of the row or an UPDATE that clears its holder or expiry
// releases it. Every other write to the table (renewal) is the lock's own
// bookkeeping, as a SET NX key's DEL is. The claim hands out a token when
// it mints one in the same statement (token = token + 1, nextval(...)) and
// RETURNs it; the variable RETURNING is scanned into is then the token.
// What is recognised is decided here, from the statement's structure; the
// column names come from rules' heuristics (IsLeaseHolderColumn,
// IsLeaseExpiryColumn, IsLockTableName). docs/unfencedwrite.md#lease-tables
// says it in prose.

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/sqlcond"
	"github.com/fencelint/fencelint/internal/lazyregexp"
	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// leaseRole is what a statement does to a lease table.
type leaseRole int

const (
	leaseNone    leaseRole = iota
	leaseClaim             // takes the row if it is free or expired
	leaseRelease           // deletes the row, or clears its holder or expiry
	leaseKeep              // any other write to a lease table: renewal, cleanup
)

// leaseStmt is the reading of one statement as lease-table SQL.
type leaseStmt struct {
	role   leaseRole
	table  string
	holder string // the holder column a claim sets
	// minted is the column a claim mints its token in (fence = fence + 1,
	// nextval(...)) when RETURNING gives it back, at index mintedAt of the
	// RETURNING list; "" when the claim hands out no token.
	minted   string
	mintedAt int
}

// clockRe: SQL's reading of the clock, in the dialects fencelint reads.
var clockRe = lazyregexp.New(`(?i)\b(now|current_timestamp|localtimestamp|utc_timestamp|sysdate|sysutcdatetime|getdate|getutcdate|clock_timestamp|statement_timestamp|transaction_timestamp|unix_timestamp|unixepoch|systimestamp)\b|datetime\s*\(\s*'now'`)

// readLeaseStmt classifies one statement. claimed reports whether a table
// is claimed by some statement of the package (nil: none known).
func readLeaseStmt(st *sqlcond.Statement, claimed func(string) bool) leaseStmt {
	if st == nil || !st.Verb.IsWrite() || st.Table == "" || st.WithWrite {
		return leaseStmt{}
	}
	if ls, ok := readClaim(st); ok {
		return ls
	}
	lease := claimed != nil && claimed(st.Table)
	if !lease && !(rules.IsLockTableName(st.Table) && touchesLeaseColumns(st)) {
		return leaseStmt{}
	}
	ls := leaseStmt{role: leaseKeep, table: st.Table}
	switch {
	case isReleaseShape(st):
		ls.role = leaseRelease
	case setsDataColumn(st):
		// The lease lives on the data row (a job's locked_by and
		// locked_until): UPDATE jobs SET state = 'done' is a write under
		// the lease, not its bookkeeping.
		return leaseStmt{}
	}
	return ls
}

// setsDataColumn: the statement sets a column that is none of a lease
// row's own (holder, expiry, token, its timestamps).
func setsDataColumn(st *sqlcond.Statement) bool {
	for _, set := range [][]sqlcond.Assignment{st.Set, st.ConflictSet} {
		for _, a := range set {
			if !isLeaseColumn(a.Column) {
				return true
			}
		}
	}
	return false
}

// isLeaseColumn: a column a lease row keeps for the lock itself.
func isLeaseColumn(c string) bool {
	if rules.IsLeaseHolderColumn(c) || rules.IsLeaseExpiryColumn(c) || fenceLikeColumn(c) {
		return true
	}
	for _, w := range []string{"lock", "acquir", "renew", "elect", "claim", "updated", "modified", "name", "key"} {
		if strings.Contains(c, w) {
			return true
		}
	}
	return false
}

// readClaim recognises the three claim shapes:
//   - UPDATE that sets a holder column to a caller's value, keyed by an
//     equality on another column, whose WHERE compares an expiry column
//     with the clock or a parameter (the row is free or expired);
//   - an upsert whose inserted row names the holder, whose conflict update
//     sets the holder, and whose ON CONFLICT ... WHERE compares an expiry
//     column with the clock, a parameter or the proposed value (MySQL's ON
//     DUPLICATE KEY UPDATE: the holder's new value is chosen by an IF or
//     CASE on the expiry);
//   - an INSERT ... ON CONFLICT DO NOTHING (or INSERT IGNORE) of a row
//     naming a holder and an expiry into a table named like a lock: the
//     row exists while the lock is held.
//
// In a table named like a lock (IsLockTableName) a claim needs no holder
// column: an UPDATE or upsert that sets the expiry only where the stored
// one has passed (expires_at < now(), not > now(), which is a renewal)
// takes the row as well.
func readClaim(st *sqlcond.Statement) (leaseStmt, bool) {
	ls := leaseStmt{role: leaseClaim, table: st.Table}
	lockTable := rules.IsLockTableName(st.Table)
	switch st.Verb {
	case sqlcond.Update:
		ls.holder = holderSetByCaller(st.Set)
		if !keyedRow(st.Where) {
			return leaseStmt{}, false
		}
		switch {
		case ls.holder != "" && comparesExpiry(st.Where):
		case ls.holder == "" && lockTable && setsExpiry(st.Set) && comparesExpired(st.Where):
		default:
			return leaseStmt{}, false
		}
		ls.minted, ls.mintedAt = mintedToken(st, st.Set)
		return ls, true
	case sqlcond.Insert:
		ls.holder = holderSetByCaller(st.Set)
		if ls.holder == "" {
			if !lockTable || !st.OnConflict || st.DoNothing || !setsExpiry(st.ConflictSet) || !comparesExpired(st.ConflictWhere) {
				return leaseStmt{}, false
			}
			ls.minted, ls.mintedAt = mintedToken(st, append(append([]sqlcond.Assignment{}, st.Set...), st.ConflictSet...))
			return ls, true
		}
		switch {
		case st.OnConflict && !st.DoNothing:
			if !setsColumn(st.ConflictSet, ls.holder) || !comparesExpiry(st.ConflictWhere) {
				return leaseStmt{}, false
			}
		case st.OnDuplicateKey:
			// holder = IF(expired, VALUES(holder), holder), as written or
			// as sqlcond read it: SET holder = ... WHERE expired.
			guarded := setsColumn(st.ConflictSet, ls.holder) && comparesExpiry(st.ConflictWhere)
			if !guarded && !conditionalHolder(st.ConflictSet, ls.holder) {
				return leaseStmt{}, false
			}
		case st.DoNothing: // insert-if-absent: ON CONFLICT DO NOTHING, INSERT IGNORE
			if !lockTable || !setsExpiry(st.Set) {
				return leaseStmt{}, false
			}
		default:
			// A plain INSERT into "leases" is as likely a business record
			// (an apartment's lease, a DHCP lease) as a lock whose unique
			// key refuses the second holder: not guessed.
			return leaseStmt{}, false
		}
		ls.minted, ls.mintedAt = mintedToken(st, append(append([]sqlcond.Assignment{}, st.Set...), st.ConflictSet...))
		return ls, true
	}
	return leaseStmt{}, false
}

// holderSetByCaller returns the holder column assigned a caller's value
// (a placeholder), "" if none.
func holderSetByCaller(set []sqlcond.Assignment) string {
	for _, a := range set {
		if rules.IsLeaseHolderColumn(a.Column) && len(a.Value.Params) > 0 {
			return a.Column
		}
	}
	return ""
}

func setsColumn(set []sqlcond.Assignment, col string) bool {
	for _, a := range set {
		if a.Column == col {
			return true
		}
	}
	return false
}

func setsExpiry(set []sqlcond.Assignment) bool {
	for _, a := range set {
		if rules.IsLeaseExpiryColumn(a.Column) {
			return true
		}
	}
	return false
}

// comparesExpiry: some term compares a stored expiry column with the
// clock, a parameter or the value an upsert proposes (EXCLUDED.col).
func comparesExpiry(conds []sqlcond.Conjunct) bool {
	for _, c := range conds {
		for _, cmp := range c.Or {
			if !orderOp(cmp.Op) {
				continue
			}
			for _, side := range [2][2]sqlcond.Operand{{cmp.Left, cmp.Right}, {cmp.Right, cmp.Left}} {
				col, other := side[0], side[1]
				if col.Column == "" || col.Table == "excluded" || !rules.IsLeaseExpiryColumn(col.Column) {
					continue
				}
				if len(other.Params) > 0 || clockRe.MatchString(other.Text) || other.Table == "excluded" {
					return true
				}
			}
		}
	}
	return false
}

// comparesExpired: some term holds only where a stored expiry column has
// passed: expires_at < now(), expires_at <= $1, now() > expires_at.
func comparesExpired(conds []sqlcond.Conjunct) bool {
	for _, c := range conds {
		for _, cmp := range c.Or {
			col, other, op := cmp.Left, cmp.Right, cmp.Op
			if col.Column == "" || !rules.IsLeaseExpiryColumn(col.Column) {
				col, other, op = cmp.Right, cmp.Left, flipOp(cmp.Op)
			}
			if col.Column == "" || col.Table == "excluded" || !rules.IsLeaseExpiryColumn(col.Column) {
				continue
			}
			if (op == "<" || op == "<=") && (len(other.Params) > 0 || clockRe.MatchString(other.Text) || other.Table == "excluded") {
				return true
			}
		}
	}
	return false
}

// keyedRow: a term picks the row by equality of a column that is neither
// its holder nor its expiry with a parameter or a constant (name = $2).
func keyedRow(conds []sqlcond.Conjunct) bool {
	for _, c := range conds {
		if len(c.Or) != 1 || c.Unknown {
			continue
		}
		cmp := c.Or[0]
		if cmp.Op != "=" {
			continue
		}
		for _, side := range [2][2]sqlcond.Operand{{cmp.Left, cmp.Right}, {cmp.Right, cmp.Left}} {
			col, other := side[0], side[1]
			if col.Column == "" || rules.IsLeaseHolderColumn(col.Column) || rules.IsLeaseExpiryColumn(col.Column) {
				continue
			}
			if other.IsParam || other.Literal != "" {
				return true
			}
		}
	}
	return false
}

// conditionalHolder: MySQL's ON DUPLICATE KEY UPDATE holder = IF(expires_at
// < NOW(), VALUES(holder), holder): the holder changes only when the
// stored expiry has passed.
func conditionalHolder(set []sqlcond.Assignment, holder string) bool {
	for _, a := range set {
		if a.Column != holder {
			continue
		}
		text := strings.ToLower(a.Value.Text)
		if !strings.HasPrefix(text, "if") && !strings.HasPrefix(text, "case") {
			return false
		}
		for _, w := range wordRe.FindAllString(text, -1) {
			if rules.IsLeaseExpiryColumn(w) {
				return clockRe.MatchString(text) || strings.Contains(text, "?")
			}
		}
	}
	return false
}

// mintedToken returns the column the statement mints a token in and
// RETURNs, with its index in RETURNING: col = col + n, or a sequence's
// nextval, assigned in set.
func mintedToken(st *sqlcond.Statement, set []sqlcond.Assignment) (string, int) {
	for _, a := range set {
		if !mintsInPlace(a) {
			continue
		}
		for i, r := range st.Returning {
			if r == a.Column {
				return a.Column, i
			}
		}
	}
	return "", -1
}

var wordRe = lazyregexp.New(`[a-z_][a-z0-9_]*`)

var incrementRe = lazyregexp.New(`(?i)^\s*(?:(?:"[^"]+"|[a-z_][a-z0-9_$]*)\.)*(?:"([^"]+)"|([a-z_][a-z0-9_$]*))\s*\+\s*\d+\s*$`)
var nextvalRe = lazyregexp.New(`(?i)\bnextval\s*\(`)

// mintsInPlace: the assignment bumps its own column (fence = fence + 1,
// locks.fence + 1) or takes a sequence's next value.
func mintsInPlace(a sqlcond.Assignment) bool {
	if nextvalRe.MatchString(a.Value.Text) {
		return true
	}
	m := incrementRe.FindStringSubmatch(a.Value.Text)
	if m == nil {
		return false
	}
	col := m[1]
	if col == "" {
		col = strings.ToLower(m[2])
	}
	return col == a.Column
}

// touchesLeaseColumns: the statement sets, inserts or tests a holder or
// expiry column.
func touchesLeaseColumns(st *sqlcond.Statement) bool {
	for _, set := range [][]sqlcond.Assignment{st.Set, st.ConflictSet} {
		for _, a := range set {
			if rules.IsLeaseHolderColumn(a.Column) || rules.IsLeaseExpiryColumn(a.Column) {
				return true
			}
		}
	}
	for _, conds := range [][]sqlcond.Conjunct{st.Where, st.ConflictWhere} {
		for _, c := range conds {
			for _, cmp := range c.Or {
				for _, o := range []sqlcond.Operand{cmp.Left, cmp.Right} {
					if o.Column != "" && (rules.IsLeaseHolderColumn(o.Column) || rules.IsLeaseExpiryColumn(o.Column)) {
						return true
					}
				}
			}
		}
	}
	return false
}

// isReleaseShape: a DELETE of rows not picked for having expired (name =
// $1 AND holder = $2, id = ANY(...)), or an UPDATE of a row picked by
// equality that clears the holder or ends the expiry (holder = NULL,
// expires_at = now()) without naming a new holder.
func isReleaseShape(st *sqlcond.Statement) bool {
	switch st.Verb {
	case sqlcond.Delete:
		// Deleting rows whose expiry has passed is cleanup (DELETE FROM
		// locks WHERE expires_at < now(), also for one name); deleting
		// rows picked otherwise, by name, holder or id (hatchet's DELETE
		// ... USING a list of lease ids), gives them up.
		return !comparesExpired(st.Where)
	case sqlcond.Update:
		if !keyedRow(st.Where) && !holderKeyed(st.Where) {
			return false
		}
		if holderSetByCaller(st.Set) != "" {
			return false
		}
		for _, a := range st.Set {
			v := strings.ToLower(strings.TrimSpace(a.Value.Text))
			switch {
			case rules.IsLeaseHolderColumn(a.Column) && (a.Value.Literal == "NULL" || v == "''"):
				return true
			case rules.IsLeaseExpiryColumn(a.Column) && (a.Value.Literal == "NULL" || isClockNow(v) || v == "'epoch'" || v == "'-infinity'" || strings.HasPrefix(v, "to_timestamp(0")):
				return true
			}
		}
	}
	return false
}

// holderKeyed: a term compares the holder column by equality.
func holderKeyed(conds []sqlcond.Conjunct) bool {
	for _, c := range conds {
		if len(c.Or) != 1 || c.Or[0].Op != "=" {
			continue
		}
		l, r := c.Or[0].Left, c.Or[0].Right
		if l.Column != "" && rules.IsLeaseHolderColumn(l.Column) || r.Column != "" && rules.IsLeaseHolderColumn(r.Column) {
			return true
		}
	}
	return false
}

// isClockNow: the clock's reading itself, not a time after it.
func isClockNow(v string) bool {
	v = strings.TrimSuffix(strings.TrimSuffix(v, "()"), " ")
	switch v {
	case "now", "current_timestamp", "localtimestamp", "utc_timestamp", "sysdate", "clock_timestamp", "getdate", "getutcdate":
		return true
	}
	return false
}

// sqlTextOf returns the constant SQL a call runs: a database call's query
// argument (or prepared statement), or the statement a helper forwards,
// spelled out by this call (forward.go). ok is false for any other call.
func (e *engine) sqlTextOf(cc *ssa.CallCommon) (text string, ok bool) {
	fn := calleeFunc(cc)
	if fn == nil {
		return "", false
	}
	ps := params(cc)
	if w, isWrite := e.writeOf(fn); isWrite {
		switch {
		case w.Kind == rules.SQLStmtWrite:
			return e.preparedSQL(receiver(cc), 0)
		case w.Kind == rules.SQLWrite && w.QueryArg >= 0 && w.QueryArg < len(ps):
			return e.sqlString(ps[w.QueryArg])
		}
		return "", false
	}
	// A helper that runs its caller's SQL (exec(ctx, q, args...)); one
	// that runs a constant of its own is an acquire or release wrapper by
	// inference instead.
	for _, fw := range e.calleeForwards(cc) {
		if fw.Kind == "sql" && fw.Query >= 0 && fw.Query < len(ps) {
			return e.sqlString(ps[fw.Query])
		}
	}
	return "", false
}

// leaseStmtOf reads the lease-table statement a call runs, if any.
func (e *engine) leaseStmtOf(cc *ssa.CallCommon) leaseStmt {
	text, ok := e.sqlTextOf(cc)
	if !ok {
		return leaseStmt{}
	}
	// Every call is asked (release inference asks of each call whether it
	// ends a lease), and the same text recurs: read each text once. The
	// claimed tables are the package's, fixed once computed.
	if ls, ok := e.leaseStmts[text]; ok {
		return ls
	}
	ls := e.readLeaseSQL(text)
	if e.leaseStmts == nil {
		e.leaseStmts = map[string]leaseStmt{}
	}
	e.leaseStmts[text] = ls
	return ls
}

func (e *engine) readLeaseSQL(text string) leaseStmt {
	if !mayBeLeaseSQL(text) {
		return leaseStmt{}
	}
	for _, st := range e.parseSQL(text) {
		if ls := readLeaseStmt(st, e.isClaimedTable); ls.role != leaseNone {
			return ls
		}
	}
	return leaseStmt{}
}

// mayBeLeaseSQL is a cheap test before the statement is read: a write.
func mayBeLeaseSQL(text string) bool {
	return containsFoldASCII(text, "update") || containsFoldASCII(text, "insert") || containsFoldASCII(text, "delete")
}

// containsFoldASCII reports whether s contains lower (lower-case ASCII)
// in any case, without allocating.
func containsFoldASCII(s, lower string) bool {
	for i := 0; i+len(lower) <= len(s); i++ {
		if s[i]|0x20 == lower[0] && strings.EqualFold(s[i:i+len(lower)], lower) {
			return true
		}
	}
	return false
}

// isClaimedTable: some statement of the package claims rows of table t.
// Computed once, from every call's constant SQL.
func (e *engine) isClaimedTable(t string) bool {
	if e.claimedTables == nil {
		e.claimedTables = map[string]bool{}
		for _, f := range e.funcs {
			e.forEachCall(f, func(_ ssa.Instruction, cc *ssa.CallCommon) {
				text, ok := e.sqlTextOf(cc)
				if !ok || !mayBeLeaseSQL(text) {
					return
				}
				for _, st := range e.parseSQL(text) {
					if ls, ok := readClaim(st); ok && st.Verb.IsWrite() && !st.WithWrite {
						e.claimedTables[ls.table] = true
					}
				}
			})
		}
	}
	return e.claimedTables[t]
}

// leaseClaim makes a claim call an acquire: of a lease table, with the
// token RETURNING gives back when the statement mints one. A claim run on
// a transaction holds the row lock until that transaction ends, so SQL on
// the same transaction is protected (as under an advisory lock).
func (e *engine) leaseClaim(cc *ssa.CallCommon, ls leaseStmt, via string) acquireInfo {
	src := "SQL: lease-table claim on " + ls.table
	if via != "" {
		src += " via " + via
	}
	ai := acquireInfo{success: rules.ErrNil, lock: leaseTableLock + ls.table, noToken: ls.minted == "", keyArg: -1,
		source: src, lease: &ls}
	if r := receiver(cc); r != nil && rules.IsTxType(r.Type()) {
		ai.session = stripValue(r)
	} else if s := e.sessionOf(cc); s != nil && rules.IsTxType(s.Type()) {
		ai.session = s
	}
	return ai
}

// closesSQLResult: fn is the Close of a query's rows or a prepared
// statement (database/sql, pgx, sqlx), which releases no lock:
// `defer rows.Close()` in a claim run with Query (sqlc's :many) must not
// hide that the function returns holding the lease-table row.
func closesSQLResult(fn *types.Func) bool {
	if fn.Name() != "Close" || fn.Pkg() == nil {
		return false
	}
	path := fn.Pkg().Path()
	if path != "database/sql" && !strings.HasPrefix(path, "github.com/jackc/pgx/") && path != "github.com/jmoiron/sqlx" {
		return false
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	n := namedType(recv.Type())
	return n != nil && (n.Obj().Name() == "Rows" || n.Obj().Name() == "Stmt")
}

// leaseTableLock starts the name of a lease-table lock in messages and
// facts ("lease table locks").
const leaseTableLock = "lease table "

// leaseTable: the region's lock is a SQL lease table, claimed here or by
// an acquire wrapper (whose fact names the lock so).
func (r *region) leaseTable() bool {
	return r.acq.lease != nil || strings.HasPrefix(r.acq.lock, leaseTableLock)
}

// leaseTableHint completes the fix for writes under a lease table that
// hands out no token: the claim itself can mint one.
const leaseTableHint = "for a lease table, the claim is that step: SET fence = fence + 1 (or nextval) in the claim statement, RETURNING fence"

// databaseLockHint completes the fix for writes under a PostgreSQL
// advisory lock or a MySQL named lock: a counter bumped while the lock is
// held increases with every grant, which is what a token needs.
const databaseLockHint = "for a database lock, that step is a counter row bumped right after taking it (UPDATE lock_fences SET token = token + 1 WHERE name = $1 RETURNING token) whose value every write compares"

// isLeaseRelease: the call releases a row of lease table table ("" any).
func (e *engine) isLeaseRelease(cc *ssa.CallCommon, table string) bool {
	ls := e.leaseStmtOf(cc)
	return ls.role == leaseRelease && (table == "" || ls.table == table)
}

// leaseFails adds what tells a claim's success: RowsAffected() (0 rows:
// the row is held by another), the error of Scan on the RETURNING row
// (ErrNoRows), rows.Next(). The handles themselves (a sql.Result, a
// *sql.Row) are never nil.
func (e *engine) leaseFails(call *ssa.Call, fs failSet) {
	handles := []ssa.Value{call}
	delete(fs.nilFails, call)
	if _, ok := call.Type().(*types.Tuple); ok {
		handles = handles[:0]
		for _, ref := range *call.Referrers() {
			if ex, ok := ref.(*ssa.Extract); ok && !isError(ex.Type()) {
				handles = append(handles, ex)
				delete(fs.nilFails, ex)
			}
		}
	}
	for _, h := range handles {
		for _, c := range methodCallsOn(h) {
			fn := calleeFunc(c.Common())
			if fn == nil {
				continue
			}
			switch fn.Name() {
			case "RowsAffected":
				for _, v := range resultValues(c) {
					if rules.IsIntegerLike(v.Type()) {
						fs.counts[v] = true
					}
				}
			case "Scan":
				for _, v := range resultValues(c) {
					if isError(v.Type()) {
						fs.errs[v] = true
					}
				}
			case "Next":
				if loopHeader(c.Block()) {
					continue // for rows.Next(): false also ends the rows of a claim that took them
				}
				for _, v := range resultValues(c) {
					if types.Identical(v.Type().Underlying(), types.Typ[types.Bool]) {
						fs.oks[v] = true
					}
				}
			}
		}
	}
}

// loopHeader: b is entered again from a block it dominates (a loop's
// condition block).
func loopHeader(b *ssa.BasicBlock) bool {
	if b == nil {
		return false
	}
	for _, p := range b.Preds {
		if b.Dominates(p) {
			return true
		}
	}
	return false
}

// methodCallsOn returns the calls whose receiver is v (through an Alloc
// the SSA builder spilled it to, for a pointer-receiver method).
func methodCallsOn(v ssa.Value) []*ssa.Call {
	var out []*ssa.Call
	refs := v.Referrers()
	if refs == nil {
		return nil
	}
	for _, ref := range *refs {
		switch r := ref.(type) {
		case *ssa.Call:
			if rv := receiver(r.Common()); rv != nil && stripValue(rv) == v {
				out = append(out, r)
			}
		case *ssa.Store:
			if a, ok := r.Addr.(*ssa.Alloc); ok && r.Val == v && a.Referrers() != nil {
				for _, ar := range *a.Referrers() {
					if c, ok := ar.(*ssa.Call); ok && receiver(c.Common()) == ssa.Value(a) {
						out = append(out, c)
					}
				}
			}
		}
	}
	return out
}

// resultValues: the call itself, or the Extracts of its tuple.
func resultValues(c *ssa.Call) []ssa.Value {
	if _, ok := c.Type().(*types.Tuple); !ok {
		return []ssa.Value{c}
	}
	var out []ssa.Value
	for _, ref := range *c.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok {
			out = append(out, ex)
		}
	}
	return out
}

// classifyCount says whether `count op k` being true means the claim
// failed: n == 0, n != 1, n < 1 fail; n == 1, n > 0, n != 0 succeed.
func classifyCount(op token.Token, k int64) (failOnTrue, known bool) {
	switch op {
	case token.EQL:
		return k == 0, true
	case token.NEQ:
		return k != 0, true
	case token.LSS: // n < k
		return k <= 1, k <= 1
	case token.LEQ: // n <= k
		return k <= 0, k <= 0
	case token.GTR: // n > k
		return false, k == 0
	case token.GEQ: // n >= k
		return false, k == 1
	}
	return false, false
}

// claimTokenOrigin: v (a variable) is filled by Scan from the RETURNING
// column a claim mints its token in: the token.
func (e *engine) claimTokenOrigin(alloc *ssa.Alloc) *origin {
	scan, idx := scanDest(alloc)
	if scan == nil {
		return nil
	}
	claim, ok := stripValue(receiver(scan.Common())).(*ssa.Call)
	if !ok {
		return nil
	}
	ls := e.leaseStmtOf(claim.Common())
	if ls.role != leaseClaim || ls.minted == "" || ls.mintedAt != idx {
		return nil
	}
	desc := alloc.Comment
	if desc == "" {
		desc = ls.minted
	}
	return &origin{desc: desc, param: -1, pos: e.exprPos(scan.Pos())}
}

// scanDest finds the Scan call alloc is a destination of, and its index
// among Scan's arguments.
func scanDest(alloc *ssa.Alloc) (*ssa.Call, int) {
	if alloc.Referrers() == nil {
		return nil, -1
	}
	for _, r := range *alloc.Referrers() {
		mi, ok := r.(*ssa.MakeInterface)
		if !ok || mi.Referrers() == nil {
			continue
		}
		for _, mr := range *mi.Referrers() {
			st, ok := mr.(*ssa.Store)
			if !ok || st.Val != ssa.Value(mi) {
				continue
			}
			ia, ok := st.Addr.(*ssa.IndexAddr)
			if !ok {
				continue
			}
			k, ok := ia.Index.(*ssa.Const)
			if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
				continue
			}
			idx, _ := constant.Int64Val(k.Value)
			arr, ok := ia.X.(*ssa.Alloc)
			if !ok || arr.Referrers() == nil {
				continue
			}
			for _, ar := range *arr.Referrers() {
				sl, ok := ar.(*ssa.Slice)
				if !ok || sl.Referrers() == nil {
					continue
				}
				for _, sr := range *sl.Referrers() {
					if c, ok := sr.(*ssa.Call); ok {
						if fn := calleeFunc(c.Common()); fn != nil && fn.Name() == "Scan" {
							return c, int(idx)
						}
					}
				}
			}
		}
	}
	return nil, -1
}

// claimOutcomes judges what each lease-table claim's caller does with its
// refusal: a claim whose result is thrown away, or whose RowsAffected is
// never compared, carries on whether or not it took the lock. Only those
// two are defects: a claim that returns nil, or retries, when the row is
// held is how a claim is meant to be handled. Claims run through a helper
// that forwards the caller's SQL are not followed.
func (e *engine) claimOutcomes() {
	for _, f := range e.funcs {
		for _, r := range e.regions[f] {
			if r.acq.lease == nil || r.call == nil {
				continue
			}
			if _, direct := e.writeOf(calleeFunc(r.call.Common())); !direct {
				continue
			}
			pos := r.call.Common().Pos()
			text, _ := e.sqlTextOf(r.call.Common())
			w := &Write{Pos: pos, End: pos, Call: e.callName(pos), Store: "SQL", Target: r.acq.lease.table, SQL: text,
				Scope: r.scope, Verdict: Fenced, Claim: true, Cond: &Condition{}}
			if c := e.callExpr(pos); c != nil {
				w.Pos, w.End = c.Pos(), c.End()
			}
			if text != "" {
				e.model.Claims = append(e.model.Claims, Claim{Pos: w.Pos, End: w.End, SQL: text, Table: r.acq.lease.table,
					Holder: r.acq.lease.holder, Minted: r.acq.lease.minted})
			}
			j := &outcomeJudge{e: e, w: w, call: r.call, claim: true}
			e.guard(f, j.judge)
			w.Outcome = j.out
			switch j.out.Handling {
			case Discarded, NeverRead:
			default:
				continue
			}
			k, cat := j.out.Handling.defect()
			d := &Defect{Kind: k, Pos: w.Pos, End: w.End, Write: w, Category: cat}
			if j.out.Test.IsValid() {
				d.Related = []Related{{Pos: j.out.Test, End: j.out.Test, Message: "the refusal is told apart here"}}
			}
			e.model.Defects = append(e.model.Defects, d)
		}
	}
}
