package rules

const (
	pgx     = "github.com/jackc/pgx/v5"
	pgxpool = "github.com/jackc/pgx/v5/pgxpool"
)

// Pgx is pgx v5: Conn, pgxpool.Pool and pgxpool.Conn, the Tx interface and
// Batch.Queue. SQL is the argument after the context.
var Pgx = pgxLib("pgx", pgx, pgxpool)

// PgxV4 is pgx v4, still common in lock code: the same methods with the
// same argument positions (its CommandTag lives in github.com/jackc/pgconn).
var PgxV4 = pgxLib("pgx v4", "github.com/jackc/pgx/v4", "github.com/jackc/pgx/v4/pgxpool")

func pgxLib(name, pgx, pgxpool string) Lib {
	return Lib{
		Name:  name,
		Paths: []string{pgx, pgxpool},
		Writes: concatWrites(
			sqlWrites("(*"+pgx+".Conn)", 1, "Exec", "Query", "QueryRow"),
			sqlWrites("("+pgx+".Tx)", 1, "Exec", "Query", "QueryRow"),
			sqlWrites("(*"+pgxpool+".Pool)", 1, "Exec", "Query", "QueryRow"),
			sqlWrites("(*"+pgxpool+".Conn)", 1, "Exec", "Query", "QueryRow"),
			sqlWrites("(*"+pgxpool+".Tx)", 1, "Exec", "Query", "QueryRow"),
			sqlWrites("(*"+pgx+".Batch)", 0, "Queue"),
		),
		TxTypes:      []string{pgx + ".Tx", pgx + ".Batch", pgxpool + ".Tx"},
		SessionTypes: []string{pgx + ".Tx", pgx + ".Conn", pgxpool + ".Tx", pgxpool + ".Conn"},
	}
}

// NamedArgsTypes bind @name placeholders when passed as the first argument.
var NamedArgsTypes = []string{pgx + ".NamedArgs", pgx + ".StrictNamedArgs"}

// SQLNamed is database/sql's Named(name, value).
const SQLNamed = dbsql + ".Named"
