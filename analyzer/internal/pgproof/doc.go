// Package pgproof proves fencelint's SQL verdicts against a real
// PostgreSQL, and holds the engine's determinism and soak tests.
//
// For every SQL write the engine judges in testdata/src/unfencedwrite, the
// PostgreSQL proof (TestPostgresProof) creates a table with the columns the
// statement mentions, seeds one row, and replays the frozen-worker scenario
// of the fencing-token runbook: holder B (token 34) writes, then the stale
// holder A (token 33) writes. A write the engine calls fenced must be
// rejected by PostgreSQL (zero rows affected); a write it calls unfenced,
// recorded-only or wrong-predicate must go through. The test needs a server
// at $FENCELINT_PG_DSN (see .ci/postgres.sh); without one it skips, or fails
// when $CI is set.
package pgproof
