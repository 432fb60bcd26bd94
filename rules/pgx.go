package rules

const (
	pgx     = "github.com/jackc/pgx/v5"
	pgxpool = "github.com/jackc/pgx/v5/pgxpool"
)

// Pgx is pgx v5: Conn, pgxpool.Pool and pgxpool.Conn, the Tx interface and
// Batch.Queue. SQL is the argument after the context.
var Pgx = Lib{
	Name:  "pgx",
	Paths: []string{pgx, pgxpool},
	Writes: concatWrites(
		sqlWrites("(*"+pgx+".Conn)", 1, "Exec", "Query", "QueryRow"),
		sqlWrites("("+pgx+".Tx)", 1, "Exec", "Query", "QueryRow"),
		sqlWrites("(*"+pgxpool+".Pool)", 1, "Exec", "Query", "QueryRow"),
		sqlWrites("(*"+pgxpool+".Conn)", 1, "Exec", "Query", "QueryRow"),
		sqlWrites("(*"+pgxpool+".Tx)", 1, "Exec", "Query", "QueryRow"),
		sqlWrites("(*"+pgx+".Batch)", 0, "Queue"),
	),
}

// NamedArgsTypes bind @name placeholders when passed as the first argument.
var NamedArgsTypes = []string{pgx + ".NamedArgs", pgx + ".StrictNamedArgs"}

// SQLNamed is database/sql's Named(name, value).
const SQLNamed = dbsql + ".Named"
