package pgproof

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/sqlcond"
	"github.com/fencelint/fencelint/internal/lazyregexp"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// Connect opens one connection to dsn. Statements are described afresh
// on every execution: each case creates and drops its own tables, so a
// statement cache keyed by SQL text would go stale.
func Connect(ctx context.Context, dsn string) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeDescribeExec
	return pgx.ConnectConfig(ctx, cfg)
}

// Outcome is what PostgreSQL did in the frozen-worker scenario.
type Outcome struct {
	Baseline int64 // stored fence (FenceCols) the row was seeded with
	BRan     bool  // the current holder's write was replayed (not for DELETE)
	BRows    int64 // rows the current holder's write (token 34) affected
	ARows    int64 // rows the stale holder's write (token 33) affected
	// ANullRows: rows the stale write affects from the state B left after
	// the row lost its token (every fence column set to NULL, as a row
	// never backfilled or written by a non-recording writer). A sound
	// fence rejects it too; a transitional "fence IS NULL OR" branch lets
	// it through. Nil when the statement compares no fence column.
	ANullRows *int64
	// Control is set when a non-fenced judgement met a rejected stale
	// write: the rows the same write affects from the same state with a
	// newer token (35). Zero too means the rejection does not depend on
	// the token (the statement's own filter, e.g. WHERE col IS NULL, no
	// longer matches): no fence is at work.
	Control *int64
	Tried   []string
	DDL     string // the CREATE TABLE used
}

// Rejected reports whether the stale holder's write was refused.
func (o *Outcome) Rejected() bool { return o.ARows == 0 }

// Agrees reports whether PostgreSQL's behaviour matches a judgement: a
// fenced write's stale copy is rejected; a defective one's goes through,
// or is refused for a reason that has nothing to do with the token (a
// newer token is refused the same way, or no token reaches the statement).
func (o *Outcome) Agrees(expectRejected bool) bool {
	nullThrough := o.ANullRows != nil && *o.ANullRows > 0
	if expectRejected {
		return o.Rejected() && !nullThrough
	}
	return !o.Rejected() || nullThrough || o.Control == nil || *o.Control == 0
}

func (o *Outcome) String() string {
	b := "not replayed (DELETE; row seeded as B left it)"
	if o.BRan {
		b = fmt.Sprintf("%d row(s)", o.BRows)
	}
	str := fmt.Sprintf("B (token %d): %s; stale A (token %d): %d row(s)", CurrentToken, b, StaleToken, o.ARows)
	if o.ANullRows != nil {
		str = fmt.Sprintf("stored fence seeded %d; %s; stale A after the row lost its fence (NULL): %d row(s)", o.Baseline, str, *o.ANullRows)
	}
	if o.Control != nil {
		str += fmt.Sprintf("; control (token %d, same state): %d row(s)", CurrentToken+1, *o.Control)
	}
	return str
}

// errNoCurrentWrite: at this baseline, the current holder's write matched
// nothing, so the stale write would prove nothing.
var errNoCurrentWrite = errors.New("the current holder's write affected no row")

var missingColumnRE = lazyregexp.New(`column "([^"]+)"(?: of relation "[^"]+")? does not exist`)

// Run replays the scenario in a schema of its own, inside a transaction
// that is rolled back, so nothing is left behind and cases cannot interact.
// It tries c.Baselines in order and returns the first outcome in which the
// current holder's write went through (always the only one for DELETE).
func (c *Case) Run(ctx context.Context, conn *pgx.Conn, schema string) (*Outcome, error) {
	cols := c.Columns
	var tried []string
	for _, base := range c.Baselines() {
		for round := 0; ; round++ {
			out, err := c.attempt(ctx, conn, schema, cols, base)
			var pgErr *pgconn.PgError
			if errors.As(err, &pgErr) && pgErr.Code == "42703" && round < 16 {
				// The statement mentions a column sqlcond does not list
				// (inside an expression): add it and start again.
				if m := missingColumnRE.FindStringSubmatch(pgErr.Message); m != nil && !hasColumn(cols, m[1]) {
					cols = append(append([]Column(nil), cols...), Column{m[1], "bigint"})
					continue
				}
			}
			if errors.Is(err, errNoCurrentWrite) {
				tried = append(tried, fmt.Sprintf("fence %d: B's write affected no row", base))
				break
			}
			if err != nil {
				return nil, fmt.Errorf("stored fence %d: %w", base, err)
			}
			out.Tried = tried
			return out, nil
		}
	}
	return nil, fmt.Errorf("no starting state lets the current holder (token %d) write: %s", CurrentToken, strings.Join(tried, "; "))
}

func hasColumn(cols []Column, name string) bool {
	for _, c := range cols {
		if c.Name == name {
			return true
		}
	}
	return false
}

func (c *Case) attempt(ctx context.Context, conn *pgx.Conn, schema string, cols []Column, base int64) (_ *Outcome, err error) {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(ctx) // DDL too: nothing survives the case

	out := &Outcome{Baseline: base}
	var defs []string
	for _, col := range cols {
		defs = append(defs, ident(col.Name)+" "+col.Type)
	}
	out.DDL = fmt.Sprintf("CREATE TABLE %s (%s)", ident(c.Table), strings.Join(defs, ", "))
	setup := []string{
		"CREATE SCHEMA " + ident(schema),
		"SET LOCAL search_path TO " + ident(schema),
		out.DDL,
	}
	if len(c.Unique) > 0 {
		var u []string
		for _, col := range c.Unique {
			u = append(u, ident(col))
		}
		setup = append(setup, fmt.Sprintf("CREATE UNIQUE INDEX ON %s (%s)", ident(c.Table), strings.Join(u, ", ")))
	}
	for _, q := range setup {
		if _, err := tx.Exec(ctx, q); err != nil {
			return nil, fmt.Errorf("%s: %w", q, err)
		}
	}

	// Parameter types as PostgreSQL infers them from the statement.
	desc, err := tx.Conn().PgConn().Prepare(ctx, "", c.PGSQL, nil)
	if err != nil {
		return nil, fmt.Errorf("preparing %q: %w", c.PGSQL, err)
	}
	if len(desc.ParamOIDs) != c.NParams {
		return nil, fmt.Errorf("PostgreSQL sees %d parameters, the rewrite %d", len(desc.ParamOIDs), c.NParams)
	}
	args := func(token int64) []any {
		a := make([]any, c.NParams)
		for i, oid := range desc.ParamOIDs {
			n := i + 1
			if c.TokenParams[n] {
				a[i] = typed(oid, token)
			} else {
				a[i] = value(oid, n)
			}
		}
		return a
	}

	// Seed the row.
	var names, vals []string
	var seedArgs []any
	fence := map[string]bool{}
	for _, col := range c.FenceCols {
		fence[col] = true
	}
	for _, col := range cols {
		names = append(names, ident(col.Name))
		switch {
		case fence[col.Name]:
			vals = append(vals, fmt.Sprint(base))
		case c.SeedNull[col.Name]:
			vals = append(vals, "NULL")
		case c.SeedLit[col.Name] != "":
			vals = append(vals, c.SeedLit[col.Name])
		case c.SeedParam[col.Name] > 0:
			n := c.SeedParam[col.Name]
			seedArgs = append(seedArgs, value(desc.ParamOIDs[n-1], n))
			vals = append(vals, fmt.Sprintf("$%d", len(seedArgs)))
		default:
			vals = append(vals, zero(col.Type))
		}
	}
	seed := fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", ident(c.Table), strings.Join(names, ", "), strings.Join(vals, ", "))
	if _, err := tx.Exec(ctx, seed, seedArgs...); err != nil {
		return nil, fmt.Errorf("seeding with %q: %w", seed, err)
	}

	if c.Stmt.Verb != sqlcond.Delete {
		out.BRan = true
		if out.BRows, err = c.exec(ctx, tx, args(CurrentToken)); err != nil {
			return nil, fmt.Errorf("B's write: %w", err)
		}
		if out.BRows == 0 {
			return nil, errNoCurrentWrite
		}
	}
	// inSavepoint runs the statement with token from the state B left,
	// after prep, and undoes both.
	inSavepoint := func(what, prep string, token int64) (*int64, error) {
		sp, err := tx.Begin(ctx)
		if err != nil {
			return nil, err
		}
		defer sp.Rollback(ctx)
		if prep != "" {
			if _, err := sp.Exec(ctx, prep); err != nil {
				return nil, fmt.Errorf("%s: %q: %w", what, prep, err)
			}
		}
		n, err := c.exec(ctx, sp, args(token))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		return &n, sp.Rollback(ctx)
	}
	if len(c.FenceCols) > 0 {
		var sets []string
		for _, col := range c.FenceCols {
			sets = append(sets, ident(col)+" = NULL")
		}
		prep := fmt.Sprintf("UPDATE %s SET %s", ident(c.Table), strings.Join(sets, ", "))
		if out.ANullRows, err = inSavepoint("stale write on a row without fence", prep, StaleToken); err != nil {
			return nil, err
		}
	}
	if !c.ExpectRejected && len(c.TokenParams) > 0 {
		if out.Control, err = inSavepoint("control write", "", CurrentToken+1); err != nil {
			return nil, err
		}
	}
	if out.ARows, err = c.exec(ctx, tx, args(StaleToken)); err != nil {
		return nil, fmt.Errorf("A's stale write: %w", err)
	}
	if out.ARows > 0 || c.ExpectRejected {
		out.Control = nil // only informative for a rejected stale write
	}
	return out, nil
}

// exec runs the statement and returns the rows it affected, or for
// RETURNING the rows it returned.
func (c *Case) exec(ctx context.Context, tx pgx.Tx, args []any) (int64, error) {
	if len(c.Stmt.Returning) == 0 {
		tag, err := tx.Exec(ctx, c.PGSQL, args...)
		return tag.RowsAffected(), err
	}
	rows, err := tx.Query(ctx, c.PGSQL, args...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var n int64
	for rows.Next() {
		n++
	}
	return n, rows.Err()
}

func numeric(oid uint32) bool {
	switch oid {
	case pgtype.Int2OID, pgtype.Int4OID, pgtype.Int8OID, pgtype.NumericOID,
		pgtype.Float4OID, pgtype.Float8OID, pgtype.OIDOID:
		return true
	}
	return false
}

// value is the fixed test value of non-token parameter $n: the same for
// both holders.
func value(oid uint32, n int) any {
	switch {
	case numeric(oid):
		return int64(100 + n)
	case oid == pgtype.BoolOID:
		return true
	case oid == pgtype.ByteaOID:
		return []byte{byte(n)}
	}
	return fmt.Sprintf("v%d", n)
}

func typed(oid uint32, v int64) any {
	if numeric(oid) {
		return v
	}
	return fmt.Sprint(v)
}

func zero(typ string) string {
	switch typ {
	case "text":
		return "''"
	case "boolean":
		return "false"
	}
	return "0"
}

func ident(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
