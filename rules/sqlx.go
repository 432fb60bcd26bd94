package rules

const sqlx = "github.com/jmoiron/sqlx"

// Sqlx is jmoiron/sqlx. Its DB, Tx, Conn and Stmt embed database/sql's, so
// Exec and friends resolve to database/sql; these are its own methods.
// NamedExec binds :name placeholders to a struct's fields or a map.
var Sqlx = Lib{
	Name:  "sqlx",
	Paths: []string{sqlx},
	Writes: concatWrites(
		sqlWrites("(*"+sqlx+".DB)", 0, "NamedExec", "MustExec"),
		sqlWrites("(*"+sqlx+".DB)", 1, "NamedExecContext", "MustExecContext"),
		sqlWrites("(*"+sqlx+".Tx)", 0, "NamedExec", "MustExec"),
		sqlWrites("(*"+sqlx+".Tx)", 1, "NamedExecContext", "MustExecContext"),
		[]Write{
			{Func: sqlx + ".NamedExec", Kind: SQLWrite, Store: "SQL", QueryArg: 1, ArgsFrom: 2, KeyArg: -1, Outcome: sqlOutcome("NamedExec")},
			{Func: sqlx + ".NamedExecContext", Kind: SQLWrite, Store: "SQL", QueryArg: 2, ArgsFrom: 3, KeyArg: -1, Outcome: sqlOutcome("NamedExecContext")},
			{Func: sqlx + ".MustExec", Kind: SQLWrite, Store: "SQL", QueryArg: 1, ArgsFrom: 2, KeyArg: -1, Outcome: sqlOutcome("MustExec")},
			{Func: sqlx + ".MustExecContext", Kind: SQLWrite, Store: "SQL", QueryArg: 2, ArgsFrom: 3, KeyArg: -1, Outcome: sqlOutcome("MustExecContext")},
		},
	),
	TxTypes:      []string{sqlx + ".Tx"},
	SessionTypes: []string{sqlx + ".Tx"},
}
