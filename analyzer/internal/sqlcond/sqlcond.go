package sqlcond

import (
	"errors"
	"fmt"
)

// Verb is the kind of a statement.
type Verb string

const (
	Unknown Verb = ""
	Select  Verb = "SELECT"
	Insert  Verb = "INSERT" // also REPLACE INTO (MySQL) and UPSERT
	Update  Verb = "UPDATE"
	Delete  Verb = "DELETE"
	Merge   Verb = "MERGE"
	Other   Verb = "OTHER" // DDL, SET, BEGIN, CALL, ... anything else recognised as not a DML write
)

// IsWrite reports whether the verb modifies rows (INSERT, UPDATE, DELETE, MERGE).
func (v Verb) IsWrite() bool {
	switch v {
	case Insert, Update, Delete, Merge:
		return true
	}
	return false
}

// PlaceholderKind is the style of a bind parameter.
type PlaceholderKind int

const (
	Positional PlaceholderKind = iota + 1 // $1, $2 (PostgreSQL/pgx/lib/pq), @p1 (SQL Server), ?1 (SQLite) -> Index 1
	Ordinal                               // ? (MySQL/SQLite/sqlx before Rebind): Index = 1-based ordinal among the ? placeholders of the whole input
	Named                                 // :name (sqlx/SQLite), @name (pgx NamedArgs, SQL Server, gorm), $name (SQLite)
)

// Placeholder is one bind parameter in the text.
type Placeholder struct {
	Kind PlaceholderKind
	// Positional: n (0 if the number does not fit an int); Ordinal: 1-based
	// ordinal of this '?' among all '?' placeholders in the WHOLE input text
	// passed to Parse (so it maps to the Go args slice); 0 for Named.
	Index  int
	Name   string // Named: the name without sigil, as written (case preserved)
	Offset int    // byte offset of the placeholder in the input text
}

// Operand is one side of a comparison, or the value of an assignment.
type Operand struct {
	Column  string        // lower-cased unqualified column name when the operand is exactly a column reference (possibly qualified and/or quoted); else ""
	Table   string        // lower-cased qualifier of that column if any ("t", "excluded", "public.accounts")
	Params  []Placeholder // every placeholder inside the operand expression
	Literal string        // the literal text when the operand is exactly a constant (number, 'string'; NULL, TRUE, FALSE upper-cased), else ""
	Text    string        // raw source text of the operand, trimmed

	// IsParam: the operand is exactly one placeholder, casts and
	// parentheses aside ($2, $2::bigint, CAST(? AS INT), (@tok)).
	IsParam bool
	// ValuesOf: the operand is MySQL's VALUES(col), the value proposed
	// for insertion into col (lower-cased); Column is "" then.
	ValuesOf string
}

// Comparison is one comparison term of a condition.
type Comparison struct {
	Left, Right Operand
	// "=", "<>", "!=", "<", "<=", ">", ">=", "IS NULL", "IS NOT NULL", "IN",
	// "NOT IN", "BETWEEN", "NOT BETWEEN", "LIKE", "NOT LIKE", "ILIKE",
	// "NOT ILIKE", "IS DISTINCT FROM", "IS NOT DISTINCT FROM" (also MySQL
	// <=>), "EXISTS", "NOT EXISTS"; "" when the term is not a recognisable
	// comparison (e.g. a bare function call, NOT x); Left then holds the term.
	// For IS NULL/IS NOT NULL Right is zero. "==" is normalised to "=".
	Op     string
	Text   string // raw text of the comparison
	Offset int    // byte offset in the input text
	// Negated: the term is NOT (x op y) with an invertible op, read as
	// x op' y (NOT (fence >= $1) is fence < $1); Text and Offset span the
	// whole NOT term, and the operator written is not Op.
	Negated bool
}

// Conjunct is one AND-ed term of a WHERE clause. A plain comparison has len(Or)==1;
// a parenthesised or top-level OR group `(a OR b OR c)` has one Comparison per alternative.
// Anything more deeply nested (AND inside OR, NOT (...), subquery as a term) sets Unknown
// (still fill Text/Offset and as many Or entries as could be read).
type Conjunct struct {
	Or      []Comparison
	Unknown bool
	Text    string
	Offset  int
}

// Assignment is one `col = expr` of a SET list, or an INSERT column zipped
// with its value.
type Assignment struct {
	Column string  // lower-cased unqualified target column
	Value  Operand // the assigned expression
	Offset int     // byte offset of the assignment text
}

// Statement is what could be read of one SQL statement.
type Statement struct {
	Verb  Verb
	Table string // lower-cased target table of INSERT/UPDATE/DELETE/MERGE (schema kept: "public.accounts", quotes removed); first FROM table for SELECT
	Alias string // lower-cased alias of the target table if any

	Set   []Assignment // UPDATE ... SET list; for INSERT: columns zipped with the single VALUES row (nothing if columns are not listed or several rows; Partial then)
	Where []Conjunct   // top-level AND terms of WHERE (UPDATE/DELETE/SELECT; for MERGE the ON condition)

	OnConflict     bool         // PostgreSQL/SQLite INSERT ... ON CONFLICT ...
	ConflictSet    []Assignment // ON CONFLICT ... DO UPDATE SET ...; MySQL ON DUPLICATE KEY UPDATE ... also goes here
	ConflictWhere  []Conjunct   // ON CONFLICT ... DO UPDATE SET ... WHERE ...
	DoNothing      bool         // ON CONFLICT DO NOTHING / INSERT IGNORE / INSERT OR IGNORE
	OnDuplicateKey bool         // MySQL ON DUPLICATE KEY UPDATE

	Returning []string // lower-cased RETURNING columns ("*" kept); also SQL Server OUTPUT inserted.x -> "x"
	Columns   []string // SELECT projection: lower-cased column names (unqualified; alias if aliased) or "*"; expression items give their raw lower-cased text
	Locking   string   // "FOR UPDATE", "FOR NO KEY UPDATE", "FOR SHARE", "FOR KEY SHARE", "LOCK IN SHARE MODE", or ""

	Params  []Placeholder // every placeholder of this statement in text order
	Calls   []string      // lower-cased unqualified names of every function called anywhere, first occurrence order, no duplicates
	Partial bool          // some clause could not be read; the fields hold what could be read
	Text    string        // this statement's text
	Offset  int           // its byte offset in the input

	// MatchedWhere: MERGE only, the AND condition of the WHEN MATCHED
	// clause whose UPDATE SET is in Set; it guards that update like Where.
	MatchedWhere []Conjunct
	// Source: MERGE only, the values of the USING source's columns when
	// it is a single-row subquery, USING (SELECT $1 AS id, $3 AS fence)
	// s or USING (VALUES ($1, $3)) AS s(id, fence): keyed by the
	// source's lower-cased alias and column ("s.fence"), so that a
	// condition on s.fence reads the placeholder behind it. Nil for a
	// table source or one it could not read.
	Source map[string]Operand
	// WithWrite: a WITH query modifies rows (PostgreSQL data-modifying
	// CTE), so even a SELECT writes; Partial is set too.
	WithWrite bool

	// If is the IF clause of a Cassandra (CQL) lightweight transaction,
	// UPDATE ... IF col = ? AND ... or DELETE ... IF ...: the condition
	// the store evaluates (Paxos) before it applies the write. In CQL the
	// WHERE only names the row (its primary key), so If, not Where, is
	// the write's condition. IfExists is IF EXISTS (If stays nil);
	// IfNotExists is INSERT ... IF NOT EXISTS, which sets DoNothing too
	// (an insert that does nothing when the row exists).
	If          []Conjunct
	IfExists    bool
	IfNotExists bool
}

// MaxNesting bounds parenthesis depth; deeper input is refused so that
// no caller-visible work depends on attacker-sized recursion.
const MaxNesting = 64

var errEmpty = errors.New("sqlcond: no statement")

// Parse reads every statement of sql (split on top-level ';' outside strings, comments,
// dollar-quoted strings and parentheses). It returns an error only when nothing sensible
// can be read (e.g. unterminated string/comment, unbalanced parentheses, empty input).
func Parse(sql string) (stmts []*Statement, err error) {
	// Last line of defence: the analyzer must survive any constant string.
	// The fuzz test calls parse directly so that bugs still surface.
	defer func() {
		if r := recover(); r != nil {
			stmts, err = nil, fmt.Errorf("sqlcond: internal error: %v", r)
		}
	}()
	return parse(sql)
}

func parse(sql string) ([]*Statement, error) {
	toks, err := lex(sql, false)
	if err != nil {
		// MySQL escapes quotes with backslashes and does not nest comments:
		// text unterminated under PostgreSQL rules may read as MySQL.
		if mtoks, merr := lex(sql, true); merr == nil {
			toks, err = mtoks, nil
		}
	}
	if err != nil {
		return nil, err
	}
	if err := matchParens(toks); err != nil {
		return nil, err
	}
	ranges := splitStatements(toks)
	if len(ranges) == 0 {
		return nil, errEmpty
	}
	numberPlaceholders(sql, toks, ranges)
	stmts := make([]*Statement, 0, len(ranges))
	for _, r := range ranges {
		p := &parser{src: sql, t: toks, lo: r[0], hi: r[1]}
		stmts = append(stmts, p.statement())
	}
	return stmts, nil
}
