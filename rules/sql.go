package rules

import "strings"

const dbsql = "database/sql"

// DatabaseSQL is database/sql. Exec/Query* carry constant SQL whose own
// WHERE (or ON CONFLICT ... WHERE) is the fence; Stmt methods take the SQL
// of the Prepare that made them. Query* are writes only when the SQL is.
var DatabaseSQL = Lib{
	Name:  "database/sql",
	Paths: []string{dbsql},
	Writes: concatWrites(
		sqlWrites("(*"+dbsql+".DB)", 0, "Exec", "Query", "QueryRow"),
		sqlWrites("(*"+dbsql+".DB)", 1, "ExecContext", "QueryContext", "QueryRowContext"),
		sqlWrites("(*"+dbsql+".Tx)", 0, "Exec", "Query", "QueryRow"),
		sqlWrites("(*"+dbsql+".Tx)", 1, "ExecContext", "QueryContext", "QueryRowContext"),
		sqlWrites("(*"+dbsql+".Conn)", 1, "ExecContext", "QueryContext", "QueryRowContext"),
		stmtWrites("(*"+dbsql+".Stmt)", 0, "Exec", "Query", "QueryRow"),
		stmtWrites("(*"+dbsql+".Stmt)", 1, "ExecContext", "QueryContext", "QueryRowContext"),
	),
	TxTypes:      []string{dbsql + ".Tx"},
	SessionTypes: []string{dbsql + ".Tx", dbsql + ".Conn"},
}

// Prepares are the calls whose SQL a *sql.Stmt or pgx prepared name carries.
var Prepares = map[string]int{
	"(*" + dbsql + ".DB).Prepare":          0,
	"(*" + dbsql + ".DB).PrepareContext":   1,
	"(*" + dbsql + ".Tx).Prepare":          0,
	"(*" + dbsql + ".Tx).PrepareContext":   1,
	"(*" + dbsql + ".Conn).PrepareContext": 1,
}

// TxStmts rebinds a prepared statement to a transaction: the SQL is that
// of the statement argument.
var TxStmts = map[string]int{
	"(*" + dbsql + ".Tx).Stmt":        0,
	"(*" + dbsql + ".Tx).StmtContext": 1,
}

func sqlWrites(recv string, queryArg int, names ...string) []Write {
	out := make([]Write, len(names))
	for i, n := range names {
		out[i] = Write{Func: recv + "." + n, Kind: SQLWrite, Store: "SQL", QueryArg: queryArg, ArgsFrom: queryArg + 1, KeyArg: -1, Outcome: sqlOutcome(n)}
	}
	return out
}

func stmtWrites(recv string, argsFrom int, names ...string) []Write {
	out := make([]Write, len(names))
	for i, n := range names {
		out[i] = Write{Func: recv + "." + n, Kind: SQLStmtWrite, Store: "SQL", QueryArg: -1, ArgsFrom: argsFrom, KeyArg: -1, Outcome: sqlOutcome(n)}
	}
	return out
}

// sqlOutcome is the outcome of a SQL method by what it returns: Exec and
// its variants (sqlx's NamedExec and MustExec too) a result whose
// RowsAffected() is 0 on a rejection, QueryRow a row whose Scan says
// ErrNoRows (when the statement has RETURNING), Query rows and a batch's
// Queue are not followed.
func sqlOutcome(method string) Outcome {
	switch {
	case strings.Contains(method, "Exec"):
		return rowsAffected
	case strings.HasPrefix(method, "QueryRow"):
		return noRow
	}
	return unmodelled
}

// kvBlindWrites declares blind key-value writes in store: the methods
// prefix+name for each name (prefix is a receiver's key up to the method,
// "(*pkg.T)."), whose key is argument keyArg (-1: none).
func kvBlindWrites(prefix, store string, keyArg int, names ...string) []Write {
	out := make([]Write, len(names))
	for i, n := range names {
		out[i] = Write{Func: prefix + n, Kind: KVBlind, Store: store, KeyArg: keyArg, Outcome: NoOutcome}
	}
	return out
}

func concatWrites(lists ...[]Write) []Write {
	var out []Write
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// AdvisoryLock classifies SQL that takes or releases a database's own
// named lock: a PostgreSQL advisory lock (pg_advisory_lock,
// pg_try_advisory_lock, their _xact_ and _shared variants;
// pg_advisory_unlock, pg_advisory_unlock_all) or a MySQL/MariaDB named
// lock (GET_LOCK; RELEASE_LOCK, RELEASE_ALL_LOCKS). Neither hands out a
// token. A transaction-level lock (xact, PostgreSQL only) lasts until the
// transaction ends; a session-level one (MySQL's are all session-level)
// until unlock or disconnect, on whichever pooled connection ran it.
func AdvisoryLock(sql string) SQLLock {
	// Called for every constant SQL string passed to a write: match case-
	// insensitively without lower-casing a copy of the statement.
	if containsFold(sql, "_lock") {
		if callsSQLFunc(sql, "release_lock") || callsSQLFunc(sql, "release_all_locks") {
			return SQLLock{Release: true, Kind: MySQLNamedLock}
		}
		if callsSQLFunc(sql, "get_lock") {
			return SQLLock{Acquire: true, Kind: MySQLNamedLock}
		}
	}
	if !containsFold(sql, "advisory_") {
		return SQLLock{}
	}
	if containsFold(sql, "pg_advisory_unlock") {
		return SQLLock{Release: true, Kind: AdvisoryLockName}
	}
	for _, f := range []string{"pg_advisory_xact_lock", "pg_try_advisory_xact_lock"} {
		if containsFold(sql, f) {
			return SQLLock{Acquire: true, Xact: true, Kind: AdvisoryLockName}
		}
	}
	for _, f := range []string{"pg_advisory_lock", "pg_try_advisory_lock"} {
		if containsFold(sql, f) {
			return SQLLock{Acquire: true, Kind: AdvisoryLockName}
		}
	}
	return SQLLock{}
}

// SQLLock is AdvisoryLock's reading of a statement.
type SQLLock struct {
	Acquire, Release, Xact bool
	Kind                   string // AdvisoryLockName or MySQLNamedLock; "" for neither
}

// callsSQLFunc reports whether sql calls the function name (ASCII lower
// case): the name, in any case, not preceded by an identifier character
// and followed by an opening parenthesis (spaces allowed), so that
// GET_LOCK( matches and IS_GET_LOCK( or a column get_lock_at does not.
func callsSQLFunc(sql, name string) bool {
	for i := 0; i+len(name) <= len(sql); i++ {
		if !strings.EqualFold(sql[i:i+len(name)], name) {
			continue
		}
		if i > 0 && isSQLIdentByte(sql[i-1]) {
			continue
		}
		rest := strings.TrimLeft(sql[i+len(name):], " \t\n")
		if strings.HasPrefix(rest, "(") {
			return true
		}
	}
	return false
}

func isSQLIdentByte(c byte) bool {
	return c == '_' || c == '.' || c == '$' || '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z'
}

// containsFold reports whether s contains lower, an ASCII lower-case
// string, ignoring ASCII case in s.
func containsFold(s, lower string) bool {
	n := len(lower)
	for i := 0; i+n <= len(s); i++ {
		j := 0
		for ; j < n; j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != lower[j] {
				break
			}
		}
		if j == n {
			return true
		}
	}
	return false
}

// AdvisoryLockName and MySQLNamedLock name the SQL locks of AdvisoryLock
// in messages.
const (
	AdvisoryLockName = "PostgreSQL advisory lock"
	MySQLNamedLock   = "MySQL named lock (GET_LOCK)"
)
