// Package basic exercises fence conditions in SQL writes: wrong ones with
// their good twins.
package basic

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

type Lease struct {
	Resource  string
	Token     int64
	ExpiresAt time.Time
}

func reversedBad(ctx context.Context, db *sql.DB, lease *Lease, id string, amt int64) error {
	_, err := db.ExecContext(ctx, "UPDATE acct SET bal = bal - $1, fence = $3 WHERE id = $2 AND fence > $3", amt, id, lease.Token) // want `fence condition of db.ExecContext is reversed: fence > \$3 lets a stale holder's older token through and rejects the current holder; use fence < \$3`
	return err
}

func reversedGood(ctx context.Context, db *sql.DB, lease *Lease, id string, amt int64) error {
	// ok: the stored fence is below the presented token
	_, err := db.ExecContext(ctx, "UPDATE acct SET bal = bal - $1, fence = $3 WHERE id = $2 AND fence < $3", amt, id, lease.Token)
	return err
}

func reversedEqBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	_, err := db.ExecContext(ctx, "UPDATE acct SET fence = $2 WHERE id = $1 AND fence >= $2", id, lease.Token) // want `is reversed: fence >= \$2 .*; use fence <= \$2`
	return err
}

func retryGood(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	// ok: <= admits a retry by the same holder
	_, err := db.ExecContext(ctx, "UPDATE acct SET fence = $2 WHERE id = $1 AND fence <= $2", id, lease.Token)
	return err
}

func swappedBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	_, err := db.ExecContext(ctx, "UPDATE acct SET fence = $2 WHERE id = $1 AND $2 < fence", id, lease.Token) // want `is reversed: fence > \$2`
	return err
}

func swappedGood(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	// ok: operand-swapped, same meaning as fence < $2
	_, err := db.ExecContext(ctx, "UPDATE acct SET fence = $2 WHERE id = $1 AND $2 > fence", id, lease.Token)
	return err
}

func inequalityBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	_, err := db.ExecContext(ctx, "UPDATE acct SET fence = ? WHERE id = ? AND fence <> ?", lease.Token, id, lease.Token) // want `fence condition of db.ExecContext compares fence <> \?: any other token passes, an older one included`
	return err
}

func notEqualBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	_, err := db.ExecContext(ctx, "UPDATE acct SET fence = $2 WHERE id = $1 AND fence != $2", id, lease.Token) // want `compares fence != \$2: any other token passes`
	return err
}

func generationCASGood(ctx context.Context, db *sql.DB, lease *Lease, shard int, data []byte) error {
	// ok: equality compare-and-set on a generation stamped at acquire; nothing to record
	_, err := db.ExecContext(ctx, "UPDATE shards SET data = $1 WHERE shard_id = $2 AND range_id = $3", data, shard, lease.Token)
	return err
}

func isNullBad(ctx context.Context, db *sql.DB, lease *Lease, id string, amt int64) error {
	_, err := db.ExecContext(ctx, `UPDATE account_balances SET balance = balance - $1, fence_token = $3 WHERE account_id = $2 AND (fence_token IS NULL OR fence_token < $3)`, amt, id, lease.Token) // want `keeps the transitional "fence_token IS NULL OR" branch: a row whose fence_token is NULL stays unfenced for ever`
	return err
}

func isNullGood(ctx context.Context, db *sql.DB, lease *Lease, id string, amt int64) error {
	// ok: the backfill is done and the branch removed
	_, err := db.ExecContext(ctx, `UPDATE account_balances SET balance = balance - $1, fence_token = $3 WHERE account_id = $2 AND fence_token < $3`, amt, id, lease.Token)
	return err
}

func backfillGood(ctx context.Context, db *sql.DB, lease *Lease) error {
	// ok: the backfill itself compares no token
	_, err := db.ExecContext(ctx, `UPDATE account_balances SET fence_token = 0 WHERE fence_token IS NULL`)
	return err
}

func notRecordedBad(ctx context.Context, db *sql.DB, lease *Lease, id string, amt int64) error {
	_, err := db.ExecContext(ctx, "UPDATE acct SET bal = bal - $1 WHERE id = $2 AND fence < $3", amt, id, lease.Token) // want `fence condition of db.ExecContext compares fence with the token but never records it: .*; add SET fence = \$3`
	return err
}

func notRecordedGood(ctx context.Context, db *sql.DB, lease *Lease, id string, amt int64) error {
	// ok: compares and records the same column
	_, err := db.ExecContext(ctx, "UPDATE acct SET bal = bal - $1, fence = $3 WHERE id = $2 AND fence < $3", amt, id, lease.Token)
	return err
}

func deleteGood(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	// ok: a DELETE removes the row, nothing to record
	_, err := db.ExecContext(ctx, "DELETE FROM acct WHERE id = $1 AND fence < $2", id, lease.Token)
	return err
}

func txRecordedGood(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// ok: the same transaction records the token in fence
	if _, err := tx.ExecContext(ctx, "UPDATE docs SET body = 'x' WHERE id = $1 AND fence < $2", id, lease.Token); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE docs SET fence = $2 WHERE id = $1", id, lease.Token); err != nil {
		return err
	}
	return tx.Commit()
}

func otherColumnBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence_token = $2 WHERE id = $1 AND version < $2", id, lease.Token) // want `fence condition of db.ExecContext compares version with the token but records the token in fence_token`
	return err
}

func otherColumnGood(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	// ok: the compared column is the recorded one
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', version = $2 WHERE id = $1 AND version < $2", id, lease.Token)
	return err
}

func upsertReversedBad(ctx context.Context, db *sql.DB, lease *Lease, k, v string) error {
	_, err := db.ExecContext(ctx, `INSERT INTO kv (k, v, fence) VALUES ($1, $2, $3) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v, fence = EXCLUDED.fence WHERE kv.fence > EXCLUDED.fence`, k, v, lease.Token) // want `is reversed: kv.fence > EXCLUDED.fence`
	return err
}

func upsertGood(ctx context.Context, db *sql.DB, lease *Lease, k, v string) error {
	// ok: the upsert compares and records the fence
	_, err := db.ExecContext(ctx, `INSERT INTO kv (k, v, fence) VALUES ($1, $2, $3) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v, fence = EXCLUDED.fence WHERE kv.fence < EXCLUDED.fence`, k, v, lease.Token)
	return err
}

func etcdRevisionBad(ctx context.Context, m *concurrency.Mutex, pool *pgxpool.Pool, id string) error {
	_, err := pool.Exec(ctx, "UPDATE docs SET fence = $2 WHERE id = $1 AND fence > $2", id, m.Header().Revision) // want `fence condition of pool.Exec is reversed`
	return err
}

func ignoredBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	//fencelint:ignore fencepredicate the audit table keeps the lowest token on purpose
	_, err := db.ExecContext(ctx, "UPDATE audit SET fence = $2 WHERE id = $1 AND fence > $2", id, lease.Token)
	return err
}

func mergeReversedBad(ctx context.Context, db *sql.DB, lease *Lease, id, body string) error {
	_, err := db.ExecContext(ctx, "MERGE INTO docs t USING (SELECT $3 AS id) s ON t.id = s.id WHEN MATCHED AND t.fence > $2 THEN UPDATE SET body = $1, fence = $2", body, lease.Token, id) // want `is reversed: t.fence > \$2`
	return err
}

func mergeGood(ctx context.Context, db *sql.DB, lease *Lease, id, body string) error {
	// ok: the WHEN MATCHED condition is the fence, in the valid direction
	_, err := db.ExecContext(ctx, "MERGE INTO docs t USING (SELECT $3 AS id) s ON t.id = s.id WHEN MATCHED AND t.fence < $2 THEN UPDATE SET body = $1, fence = $2", body, lease.Token, id)
	return err
}

func mergeSourceReversedBad(ctx context.Context, db *sql.DB, lease *Lease, id, body string) error {
	// s.fence is the token: the USING row's column reads the placeholder behind it.
	_, err := db.ExecContext(ctx, "MERGE INTO docs t USING (VALUES ($1, $2, $3::bigint)) AS s (id, body, fence) ON t.id = s.id WHEN MATCHED AND t.fence >= s.fence THEN UPDATE SET body = s.body, fence = s.fence", id, body, lease.Token) // want `is reversed: t.fence >= s.fence`
	return err
}

func mergeSourceGood(ctx context.Context, db *sql.DB, lease *Lease, id, body string) error {
	// ok: the same through a VALUES row
	_, err := db.ExecContext(ctx, "MERGE INTO docs t USING (VALUES ($1, $2, $3::bigint)) AS s (id, body, fence) ON t.id = s.id WHEN MATCHED AND t.fence < s.fence THEN UPDATE SET body = s.body, fence = s.fence", id, body, lease.Token)
	return err
}

func mysqlGuardedUpsertReversedBad(ctx context.Context, db *sql.DB, lease *Lease, id, body string) error {
	// No fix: the condition is repeated in every IF.
	_, err := db.ExecContext(ctx, `INSERT INTO docs (id, body, fence) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE body = IF(VALUES(fence) < fence, VALUES(body), body), fence = IF(VALUES(fence) < fence, VALUES(fence), fence)`, id, body, lease.Token) // want `is reversed: fence > VALUES\(fence\)`
	return err
}

func mysqlGuardedUpsertGood(ctx context.Context, db *sql.DB, lease *Lease, id, body string) error {
	// ok: IF(VALUES(fence) > fence, new, old) in every assignment is the fence
	_, err := db.ExecContext(ctx, `INSERT INTO docs (id, body, fence) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE body = IF(VALUES(fence) > fence, VALUES(body), body), fence = IF(VALUES(fence) > fence, VALUES(fence), fence)`, id, body, lease.Token)
	return err
}

func upsertNotRecordedBad(ctx context.Context, db *sql.DB, lease *Lease, id, body string) error {
	// The inserted fence only reaches a new row: the row the fence
	// protects keeps its old fence.
	_, err := db.ExecContext(ctx, "INSERT INTO docs AS t (id, body, fence) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body WHERE t.fence < EXCLUDED.fence", id, body, lease.Token) // want `compares t.fence with the token but never records it`
	return err
}

func upsertRecordedGood(ctx context.Context, db *sql.DB, lease *Lease, id, body string) error {
	// ok: the conflict update records it
	_, err := db.ExecContext(ctx, "INSERT INTO docs AS t (id, body, fence) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body, fence = EXCLUDED.fence WHERE t.fence < EXCLUDED.fence", id, body, lease.Token)
	return err
}

func notReversedBad(ctx context.Context, db *sql.DB, lease *Lease, id, body string) error {
	// NOT (fence < $2) is fence >= $2; no fix: the operator written is
	// not the one to flip
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND NOT (fence < $2)", body, lease.Token, id) // want `is reversed: fence >= \$2`
	return err
}

func notGood(ctx context.Context, db *sql.DB, lease *Lease, id, body string) error {
	// ok: NOT (fence >= $2) is fence < $2
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND NOT (fence >= $2)", body, lease.Token, id)
	return err
}

func etcdValueDecimalBad(ctx context.Context, m *concurrency.Mutex, cli *clientv3.Client) error {
	rev := strconv.FormatInt(m.Header().Revision, 10)
	_, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.Value("/fence"), "<", rev)).Then(clientv3.OpPut("/data", "v"), clientv3.OpPut("/fence", rev)).Commit() // want `compares clientv3.Value\("/fence"\) < rev as decimal strings`
	return err
}

func etcdValuePaddedGood(ctx context.Context, m *concurrency.Mutex, cli *clientv3.Client) error {
	// ok: a fixed-width decimal orders as the number does
	rev := fmt.Sprintf("%020d", m.Header().Revision)
	_, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.Value("/fence"), "<", rev)).Then(clientv3.OpPut("/data", "v"), clientv3.OpPut("/fence", rev)).Commit()
	return err
}

func etcdTxnReversedBad(ctx context.Context, m *concurrency.Mutex, cli *clientv3.Client) error {
	_, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision("/data"), ">", m.Header().Revision)).Then(clientv3.OpPut("/data", "v")).Commit() // want `is reversed: clientv3.ModRevision\("/data"\) > m.Header\(\).Revision lets a stale holder's older token through`
	return err
}

func etcdTxnInequalityBad(ctx context.Context, m *concurrency.Mutex, cli *clientv3.Client) error {
	_, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision("/data"), "!=", m.Header().Revision)).Then(clientv3.OpPut("/data", "v")).Commit() // want `compares clientv3.ModRevision\("/data"\) != m.Header\(\).Revision: any other token passes`
	return err
}

func etcdTxnGood(ctx context.Context, m *concurrency.Mutex, cli *clientv3.Client) error {
	// ok: the key was last written before this holder's lock revision
	_, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision("/data"), "<", m.Header().Revision)).Then(clientv3.OpPut("/data", "v")).Commit()
	return err
}

func coalesceReversedBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	_, err := db.ExecContext(ctx, "UPDATE acct SET fence = $2 WHERE id = $1 AND COALESCE(fence, 0) > $2", id, lease.Token) // want `is reversed: COALESCE\(fence, 0\) > \$2 .*; use COALESCE\(fence, 0\) < \$2`
	return err
}

func coalesceNullBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	// COALESCE(fence, 0) is "fence IS NULL OR fence < $2" in disguise; its
	// good twin is isNullGood, which compares the column itself.
	_, err := db.ExecContext(ctx, "UPDATE acct SET fence = $2 WHERE id = $1 AND COALESCE(fence, 0) < $2", id, lease.Token) // want `keeps the transitional "COALESCE\(fence, 0\)" default: a row whose fence is NULL stays unfenced for ever`
	return err
}
