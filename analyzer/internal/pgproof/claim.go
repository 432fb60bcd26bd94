package pgproof

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/sqlcond"
	"github.com/fencelint/fencelint/internal/lazyregexp"
	"github.com/fencelint/fencelint/rules"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// ClaimCase is one SQL lease-table claim the engine took for an acquire,
// prepared to be played as a lock in PostgreSQL (PlayClaim).
type ClaimCase struct {
	Pos   string
	Claim fence.Claim
	Stmt  *sqlcond.Statement
	// Columns of the lease table; Key are the columns that pick the row
	// (a unique index).
	Columns []Column
	Key     []string
	// KeyLit: a key column the claim compares with a constant, and that
	// constant (the seeded row must carry it).
	KeyLit map[string]string
	// Roles say what each $n is bound to: "holder", "key", "expiry-new"
	// (the new expiry), "expiry-now" (compared with the stored expiry).
	Roles     map[int]string
	Sequences []string // sequences the claim takes values from
	// Seed: the row exists before the first claim (an UPDATE claim), free
	// (no holder, long expired).
	Seed bool
	// Cleanup: the claim only inserts (ON CONFLICT DO NOTHING), so an
	// expired row is deleted before the next claim, as such schemes do.
	Cleanup  bool
	MintedAt int // index of the minted token in RETURNING, -1 if none
}

var nextvalArgRe = lazyregexp.New(`(?i)nextval\s*\(\s*'([a-z_][a-z0-9_]*)'`)

// NewClaimCase prepares a claim; a non-empty skip says why it cannot be
// played.
func NewClaimCase(pos string, cl fence.Claim) (*ClaimCase, string) {
	stmts, err := sqlcond.Parse(cl.SQL)
	if err != nil || len(stmts) != 1 {
		return nil, "not one statement sqlcond reads"
	}
	st := stmts[0]
	if st.OnDuplicateKey || strings.Contains(cl.SQL, "?") {
		return nil, "MySQL dialect"
	}
	if st.Partial || strings.Contains(st.Table, ".") {
		return nil, "read partially, or a qualified table"
	}
	c := &ClaimCase{Pos: pos, Claim: cl, Stmt: st, Roles: map[int]string{}, MintedAt: -1, KeyLit: map[string]string{}}
	for i, r := range st.Returning {
		if cl.Minted != "" && r == cl.Minted {
			c.MintedAt = i
		}
	}
	types := map[string]string{}
	var order []string
	add := func(col string) {
		if col == "" || col == "*" || types[col] != "" {
			return
		}
		order = append(order, col)
		switch {
		case rules.IsLeaseExpiryColumn(col):
			types[col] = "timestamptz"
		case col == cl.Minted:
			types[col] = "bigint NOT NULL DEFAULT 0"
		case rules.IsLeaseHolderColumn(col):
			types[col] = "text"
		default:
			types[col] = "text"
		}
	}
	stored := func(o sqlcond.Operand) string {
		if o.Column != "" && o.Table != "excluded" {
			return o.Column
		}
		return ""
	}
	role := func(col string, assigned bool) string {
		switch {
		case rules.IsLeaseHolderColumn(col):
			return "holder"
		case rules.IsLeaseExpiryColumn(col) && assigned:
			return "expiry-new"
		case rules.IsLeaseExpiryColumn(col):
			return "expiry-now"
		}
		return "key"
	}
	bind := func(o sqlcond.Operand, r string) string {
		for _, p := range o.Params {
			if p.Kind != sqlcond.Positional {
				return "a placeholder that is not $n"
			}
			if old, ok := c.Roles[p.Index]; ok && old != r {
				return fmt.Sprintf("$%d is both %s and %s", p.Index, old, r)
			}
			c.Roles[p.Index] = r
		}
		return ""
	}
	for _, list := range [][]sqlcond.Assignment{st.Set, st.ConflictSet} {
		for _, a := range list {
			add(a.Column)
			if skip := bind(a.Value, role(a.Column, true)); skip != "" {
				return nil, skip
			}
		}
	}
	for _, conds := range [][]sqlcond.Conjunct{st.Where, st.ConflictWhere} {
		for _, cj := range conds {
			for _, cmp := range cj.Or {
				for _, side := range [2][2]sqlcond.Operand{{cmp.Left, cmp.Right}, {cmp.Right, cmp.Left}} {
					if col := stored(side[0]); col != "" {
						add(col)
						if skip := bind(side[1], role(col, false)); skip != "" {
							return nil, skip
						}
					}
				}
				if len(cj.Or) == 1 && cmp.Op == "=" && !cj.Unknown {
					for _, side := range [2][2]sqlcond.Operand{{cmp.Left, cmp.Right}, {cmp.Right, cmp.Left}} {
						if col := stored(side[0]); col != "" && !rules.IsLeaseHolderColumn(col) && !rules.IsLeaseExpiryColumn(col) {
							c.Key = appendOnce(c.Key, col)
							if side[1].Literal != "" {
								c.KeyLit[col] = side[1].Literal
							}
						}
					}
				}
			}
		}
	}
	for _, col := range st.Returning {
		add(col)
	}
	if st.Verb == sqlcond.Insert {
		c.Key = conflictTarget(st.Text)
		if len(c.Key) == 0 {
			// INSERT IGNORE or ON CONFLICT DO NOTHING without a target:
			// the key is every inserted column that is not the holder, an
			// expiry or the token.
			for _, a := range st.Set {
				if !rules.IsLeaseHolderColumn(a.Column) && !rules.IsLeaseExpiryColumn(a.Column) && a.Column != cl.Minted {
					c.Key = append(c.Key, a.Column)
				}
			}
		}
		c.Cleanup = st.DoNothing
	} else {
		c.Seed = true
	}
	for _, col := range c.Key {
		add(col)
	}
	if len(c.Key) == 0 {
		return nil, "no key column picks the row"
	}
	for _, p := range st.Params {
		if _, ok := c.Roles[p.Index]; !ok {
			return nil, fmt.Sprintf("$%d has no role the scenario can bind", p.Index)
		}
	}
	for _, m := range nextvalArgRe.FindAllStringSubmatch(cl.SQL, -1) {
		c.Sequences = appendOnce(c.Sequences, strings.ToLower(m[1]))
	}
	for _, col := range order {
		c.Columns = append(c.Columns, Column{col, types[col]})
	}
	return c, ""
}

func appendOnce(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

// ClaimOutcome is what PostgreSQL did when two holders took turns.
type ClaimOutcome struct {
	// Rows each step claimed: A takes the free row, B tries while A
	// holds it, (A's claim expires), B takes it, A tries while B holds it.
	AFirst, BWhileA, BAfter, AWhileB int64
	// Tokens A and B were handed, when the claim mints one.
	TokA, TokB int64
	DDL        string
}

func (o *ClaimOutcome) String() string {
	s := fmt.Sprintf("A claims the free row: %d; B while A holds it: %d; after A's claim expires, B: %d; A while B holds it: %d",
		o.AFirst, o.BWhileA, o.BAfter, o.AWhileB)
	if o.TokA != 0 || o.TokB != 0 {
		s += fmt.Sprintf("; tokens A %d, B %d", o.TokA, o.TokB)
	}
	return s
}

// Problem says how the outcome contradicts "this statement is a lock
// claim that hands out a token iff Minted", or "" when it agrees.
func (c *ClaimCase) Problem(o *ClaimOutcome) string {
	switch {
	case o.AFirst != 1:
		return "A's claim of a free row did not take it"
	case o.BWhileA != 0:
		return "B's claim took the row while A held it: the statement excludes nobody"
	case o.BAfter != 1:
		return "B's claim did not take the row after A's claim expired"
	case o.AWhileB != 0:
		return "A's claim took the row back while B held it"
	case c.Claim.Minted != "" && o.TokB <= o.TokA:
		return fmt.Sprintf("the token the claim minted did not grow: A got %d, B %d", o.TokA, o.TokB)
	}
	return ""
}

// PlayClaim runs the two-holder scenario in one transaction in its own
// schema, rolled back at the end.
func (c *ClaimCase) PlayClaim(ctx context.Context, conn *pgx.Conn, schema string) (*ClaimOutcome, error) {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(ctx)
	out := &ClaimOutcome{}
	var defs []string
	for _, col := range c.Columns {
		defs = append(defs, ident(col.Name)+" "+col.Type)
	}
	table := ident(c.Stmt.Table)
	out.DDL = fmt.Sprintf("CREATE TABLE %s (%s)", table, strings.Join(defs, ", "))
	var keys []string
	for _, k := range c.Key {
		keys = append(keys, ident(k))
	}
	setup := []string{"CREATE SCHEMA " + ident(schema), "SET LOCAL search_path TO " + ident(schema), out.DDL,
		fmt.Sprintf("CREATE UNIQUE INDEX ON %s (%s)", table, strings.Join(keys, ", "))}
	for _, s := range c.Sequences {
		setup = append(setup, "CREATE SEQUENCE "+ident(s))
	}
	var expiries []string
	for _, col := range c.Columns {
		if rules.IsLeaseExpiryColumn(col.Name) {
			expiries = append(expiries, ident(col.Name))
		}
	}
	if c.Seed {
		var vals []string
		for _, k := range c.Key {
			if lit := c.KeyLit[k]; lit != "" {
				vals = append(vals, lit)
			} else {
				vals = append(vals, "'k'")
			}
		}
		setup = append(setup, fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", table, strings.Join(keys, ", "), strings.Join(vals, ", ")))
		for _, x := range expiries {
			setup = append(setup, fmt.Sprintf("UPDATE %s SET %s = now() - interval '1 day'", table, x))
		}
	}
	for _, q := range setup {
		if _, err := tx.Exec(ctx, q); err != nil {
			return nil, fmt.Errorf("%s: %w", q, err)
		}
	}
	desc, err := tx.Conn().PgConn().Prepare(ctx, "", c.Claim.SQL, nil)
	if err != nil {
		return nil, fmt.Errorf("preparing the claim: %w", err)
	}
	claim := func(holder string) (rows, tok int64, err error) {
		args := make([]any, len(desc.ParamOIDs))
		for i := range args {
			args[i], err = claimArg(c.Roles[i+1], holder, desc.ParamOIDs[i])
			if err != nil {
				return 0, 0, err
			}
		}
		rs, err := tx.Query(ctx, c.Claim.SQL, args...)
		if err != nil {
			return 0, 0, err
		}
		defer rs.Close()
		for rs.Next() {
			rows++
			if c.MintedAt >= 0 {
				vals, err := rs.Values()
				if err != nil {
					return 0, 0, err
				}
				if n, ok := vals[c.MintedAt].(int64); ok {
					tok = n
				}
			}
		}
		if err := rs.Err(); err != nil {
			return 0, 0, err
		}
		if len(c.Stmt.Returning) == 0 {
			rows = rs.CommandTag().RowsAffected()
		}
		return rows, tok, nil
	}
	if out.AFirst, out.TokA, err = claim("A"); err != nil {
		return nil, fmt.Errorf("A's claim: %w", err)
	}
	if out.BWhileA, _, err = claim("B"); err != nil {
		return nil, fmt.Errorf("B's claim while A holds: %w", err)
	}
	// A's claim expires (A froze past its lease).
	if len(expiries) == 0 {
		return nil, errors.New("the table has no expiry column to let A's claim lapse")
	}
	for _, x := range expiries {
		qs := []string{fmt.Sprintf("UPDATE %s SET %s = now() - interval '1 hour'", table, x)}
		if c.Cleanup {
			qs = append(qs, fmt.Sprintf("DELETE FROM %s WHERE %s < now()", table, x))
		}
		for _, q := range qs {
			if _, err := tx.Exec(ctx, q); err != nil {
				return nil, fmt.Errorf("%s: %w", q, err)
			}
		}
	}
	if out.BAfter, out.TokB, err = claim("B"); err != nil {
		return nil, fmt.Errorf("B's claim after A's expired: %w", err)
	}
	if out.AWhileB, _, err = claim("A"); err != nil {
		return nil, fmt.Errorf("A's claim while B holds: %w", err)
	}
	return out, nil
}

// claimArg binds a claim's parameter by its role and the type PostgreSQL
// inferred for it.
func claimArg(role, holder string, oid uint32) (any, error) {
	switch role {
	case "holder":
		return holder, nil
	case "key":
		if numeric(oid) {
			return 1, nil
		}
		return "k", nil
	case "expiry-new", "expiry-now":
		at := time.Now()
		if role == "expiry-new" {
			at = at.Add(time.Hour)
		}
		switch oid {
		case pgtype.TimestamptzOID, pgtype.TimestampOID:
			return at, nil
		case pgtype.IntervalOID:
			return "1 hour", nil
		}
		if numeric(oid) {
			return at.Unix(), nil
		}
	}
	return nil, fmt.Errorf("no value for a parameter of role %q and type %d", role, oid)
}
