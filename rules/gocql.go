package rules

const gocql = "github.com/gocql/gocql"

// Gocql is github.com/gocql/gocql, the Cassandra driver. A fenced
// Cassandra write is a lightweight transaction: an UPDATE or DELETE whose
// IF clause compares the stored fence with the token (UPDATE shards SET
// range_id = ?, data = ? WHERE shard_id = ? IF range_id = ?; temporal and
// cadence fence their shards so). The statement is the constant CQL given
// to Session.Query (or Batch.Query), read by the SQL reader, which knows
// CQL's IF; the write is the call that runs it. Cassandra answers a
// failed IF with [applied] = false and no error: ScanCAS, MapScanCAS and
// the batch CAS forms return it, while Exec and ExecuteBatch throw it
// away.
var Gocql = Lib{
	Name:  "gocql",
	Paths: []string{gocql},
	Writes: []Write{
		{Func: "(*" + gocql + ".Query).Exec", Kind: CQLQuery, Store: "Cassandra", KeyArg: -1, Outcome: cqlDropped},
		{Func: "(*" + gocql + ".Query).ScanCAS", Kind: CQLQuery, Store: "Cassandra", KeyArg: -1, Outcome: cqlApplied},
		{Func: "(*" + gocql + ".Query).MapScanCAS", Kind: CQLQuery, Store: "Cassandra", KeyArg: -1, Outcome: cqlApplied},
		{Func: "(*" + gocql + ".Session).ExecuteBatch", Kind: CQLBatch, Store: "Cassandra", InputArg: 0, KeyArg: -1, Outcome: cqlDropped},
		{Func: "(*" + gocql + ".Session).ExecuteBatchCAS", Kind: CQLBatch, Store: "Cassandra", InputArg: 0, KeyArg: -1, Outcome: cqlApplied},
		{Func: "(*" + gocql + ".Session).MapExecuteBatchCAS", Kind: CQLBatch, Store: "Cassandra", InputArg: 0, KeyArg: -1, Outcome: cqlApplied},
	},
	Reads: []string{"(*" + gocql + ".Query).Scan", "(*" + gocql + ".Query).MapScan", "(*" + gocql + ".Query).Iter"},
}

var (
	// cqlApplied: a lightweight transaction whose IF failed returns
	// applied == false with a nil error.
	cqlApplied = Outcome{Kind: RejectFlag, Name: "applied == false"}
	// cqlDropped: Exec and ExecuteBatch discard [applied].
	cqlDropped = Outcome{Kind: RejectDropped, Name: "[applied] = false", Method: "ScanCAS or MapScanCAS (MapExecuteBatchCAS for a batch)"}
)

// CQLQueries are the functions that make a gocql query, by the index of
// their statement argument; the bound values are the variadic after it.
var CQLQueries = map[string]int{"(*" + gocql + ".Session).Query": 0}

// CQLBinds are the query methods that replace its bound values with
// their variadic argument.
var CQLBinds = map[string]bool{"(*" + gocql + ".Query).Bind": true}

// CQLBatchQueries are the batch methods that queue a statement, by the
// index of the statement; the values are the variadic after it.
var CQLBatchQueries = map[string]int{"(*" + gocql + ".Batch).Query": 0}

// CQLBatchMakers make an empty batch.
var CQLBatchMakers = map[string]bool{"(*" + gocql + ".Session).NewBatch": true, gocql + ".NewBatch": true}

// CQLQueryType and CQLBatchType are the query and batch types: a method
// of theirs that returns the same type (WithContext, Consistency) is a
// setting on the chain, not another statement. CQLBatchEntries is the
// batch's field of queued statements, of CQLBatchEntry {Stmt, Args}.
const (
	CQLQueryType    = gocql + ".Query"
	CQLBatchType    = gocql + ".Batch"
	CQLBatchEntries = "Entries"
	CQLBatchEntry   = gocql + ".BatchEntry"
)
