// Package sqlcond reads the fence-relevant subset of one SQL text: the verb,
// the target table, the SET list, the WHERE and ON CONFLICT conditions split
// into AND-ed comparisons, RETURNING, and every placeholder ($1, ?, :name,
// @name) with its offset, across PostgreSQL, MySQL, SQLite and SQL Server.
//
// It is purpose-built because no maintained pure-Go parser reads both
// dialect families: the PostgreSQL parsers reject MySQL/SQLite `?`, the
// MySQL-family parsers (TiDB, vitess) reject RETURNING, ON CONFLICT and `::`
// and silently misread `$1` as a column, pg_query needs cgo or a wasm build
// that costs about 2 s at the start of every go vet process, and vitess is a
// very large dependency that registers global flags. Reading only what a
// fencing check needs keeps the reader small and tolerant.
//
// The reader never guesses. Whatever it cannot read is reported as such:
// Statement.Partial, Conjunct.Unknown, an empty Comparison.Op, or an error
// from Parse when nothing sensible can be read. It never panics, runs in
// time linear in the input, and refuses parentheses nested deeper than
// MaxNesting.
package sqlcond
