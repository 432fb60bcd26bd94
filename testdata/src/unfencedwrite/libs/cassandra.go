package libs

import (
	"context"
	"fmt"

	"github.com/gocql/gocql"
)

// Cassandra (gocql): a fenced write is a lightweight transaction whose IF
// compares the stored fence with the token; the WHERE only names the row.

func cqlNoIfBad(ctx context.Context, s *gocql.Session, lease Lease, shard int, data []byte) error {
	return s.Query(`UPDATE shards SET data = ? WHERE shard_id = ?`, data, shard).WithContext(ctx).Exec() // want `Cassandra write via s.Query\(.*\).WithContext\(ctx\).Exec to shards under the Lease held in parameter lease is not fenced: it has no IF condition \(in CQL the WHERE only names the row\)`
}

func cqlIfGood(ctx context.Context, s *gocql.Session, lease Lease, shard int, data []byte) (bool, error) {
	// ok: the IF compares the stored fence with the lease's token and the SET records it
	q := s.Query(`UPDATE shards SET data = ?, fence = ? WHERE shard_id = ? IF fence < ?`, data, lease.Token, shard, lease.Token)
	return q.WithContext(ctx).ScanCAS()
}

func cqlRangeIDGood(s *gocql.Session, lease Lease, shard int, data []byte) (bool, error) {
	// ok: IF range_id = ? with the lease's token is a compare-and-set on the fence
	previous := map[string]interface{}{}
	return s.Query(`UPDATE shards SET range_id = ?, data = ? WHERE shard_id = ? IF range_id = ?`, lease.Token+1, data, shard, lease.Token).MapScanCAS(previous)
}

func cqlIfExistsBad(s *gocql.Session, lease Lease, shard int, data []byte) (bool, error) {
	return s.Query(`UPDATE shards SET data = ? WHERE shard_id = ? IF EXISTS`, data, shard).ScanCAS() // want `its IF EXISTS only checks that the row exists, not the fence`
}

func cqlWhereIsTheKeyBad(s *gocql.Session, lease Lease, shard int, data []byte) error {
	// The token compared in the IF of another column than the WHERE's
	// key would fence; a WHERE of the key alone does not.
	q := s.Query(`DELETE FROM shards WHERE shard_id = ?`, shard)
	return q.Exec() // want `Cassandra write via q.Exec to shards under the Lease held in parameter lease is not fenced: it has no IF condition`
}

func cqlInsertBad(s *gocql.Session, lease Lease, shard int, data []byte) error {
	return s.Query(`INSERT INTO shards (shard_id, data) VALUES (?, ?)`, shard, data).Exec() // want `a CQL INSERT overwrites the row \(it is an upsert\) and has no IF condition`
}

func cqlInsertIfNotExistsGood(s *gocql.Session, lease Lease, shard int, data []byte) (bool, error) {
	// ok: IF NOT EXISTS of a row keyed by the token: a stale holder's
	// insert creates its own row or does nothing
	return s.Query(`INSERT INTO shard_log (shard_id, fence, data) VALUES (?, ?, ?) IF NOT EXISTS`, shard, lease.Token, data).ScanCAS()
}

func cqlRecordedOnlyBad(s *gocql.Session, lease Lease, shard int) (bool, error) {
	return s.Query(`UPDATE shards SET fence = ? WHERE shard_id = ? IF owner = ?`, lease.Token, shard, "me").ScanCAS() // want `it records lease.Token in fence but its IF never compares it`
}

func cqlBindGood(s *gocql.Session, lease Lease, shard int, data []byte) (bool, error) {
	// ok: the values are Bind's
	q := s.Query(`UPDATE shards SET data = ?, fence = ? WHERE shard_id = ? IF fence < ?`)
	return q.Bind(data, lease.Token, shard, lease.Token).ScanCAS()
}

func cqlBatchBad(ctx context.Context, s *gocql.Session, lease Lease, shard int, data []byte) error {
	b := s.NewBatch(gocql.LoggedBatch)
	b.Query(`UPDATE shards SET data = ? WHERE shard_id = ?`, data, shard)
	b.Query(`INSERT INTO shard_log (shard_id, data) VALUES (?, ?)`, shard, data)
	return s.ExecuteBatch(b.WithContext(ctx)) // want `Cassandra write via s.ExecuteBatch to shards under the Lease held in parameter lease is not fenced: no statement of the batch has an IF that compares the fencing token`
}

func cqlBatchSiblingGood(ctx context.Context, s *gocql.Session, lease Lease, shard int, data []byte) (bool, error) {
	// ok: the shard row's IF fences the whole batch, its sibling included
	b := s.NewBatch(gocql.LoggedBatch).WithContext(ctx)
	b.Query(`UPDATE shards SET range_id = ? WHERE shard_id = ? IF range_id = ?`, lease.Token, shard, lease.Token)
	b.Query(`INSERT INTO shard_log (shard_id, data) VALUES (?, ?)`, shard, data)
	applied, _, err := s.MapExecuteBatchCAS(b, map[string]interface{}{})
	return applied, err
}

func cqlBatchElsewhereGood(s *gocql.Session, lease Lease, b *gocql.Batch) (bool, error) {
	// ok: the batch's statements are queued by the caller: not judged
	applied, _, err := s.ExecuteBatchCAS(b)
	return applied, err
}

func cqlBatchPackageGood(s *gocql.Session, lease Lease, shard int) (bool, error) {
	// ok: gocql.NewBatch makes the batch too
	b := gocql.NewBatch(gocql.LoggedBatch)
	b.Query(`UPDATE shards SET fence = ? WHERE shard_id = ? IF fence < ?`, lease.Token, shard, lease.Token)
	applied, _, err := s.ExecuteBatchCAS(b)
	return applied, err
}

func cqlReadGood(s *gocql.Session, lease Lease, shard int) ([]byte, error) {
	// ok: a read
	var data []byte
	err := s.Query(`SELECT data FROM shards WHERE shard_id = ?`, shard).Scan(&data)
	return data, err
}

func cqlAfterLeaseGood(s *gocql.Session, shard int, data []byte) error {
	// ok: no lock is held here
	return s.Query(`UPDATE shards SET data = ? WHERE shard_id = ?`, data, shard).Exec()
}

func cqlKeyspaceBad(s *gocql.Session, lease Lease, ks string, shard int) error {
	return s.Query(fmt.Sprintf("UPDATE %s.shards SET owner = ? WHERE shard_id = ?", ks), "me", shard).Exec() // want `Cassandra write via s.Query\(...\).Exec to shards under the Lease held in parameter lease is not fenced: it has no IF condition`
}

func cqlKeyspaceGood(s *gocql.Session, lease Lease, ks string, shard int) (bool, error) {
	// ok: the keyspace formatted into the statement does not hide its IF
	return s.Query(fmt.Sprintf("UPDATE %s.shards SET fence = ? WHERE shard_id = ? IF fence < ?", ks), lease.Token, shard, lease.Token).ScanCAS()
}

func cqlFormattedValueGood(s *gocql.Session, lease Lease, shard int) error {
	// ok for unfencedwrite: a value formatted into the statement is not guessed at (a blind spot)
	return s.Query(fmt.Sprintf("UPDATE shards SET owner = 'me' WHERE shard_id = %d", shard)).Exec()
}
