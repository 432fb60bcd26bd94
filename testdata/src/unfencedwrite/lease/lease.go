// Package lease exercises in-house lease types recognised by the heuristic,
// with database/sql writes.
package lease

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"time"
)

// Lease is lease-shaped: its name ends in Lease and it has an int Token.
type Lease struct {
	Resource  string
	Token     int64
	ExpiresAt time.Time
}

// TTLLock carries only an expiry: the lock service gives no token.
type TTLLock struct {
	Key       string
	ExpiresAt time.Time
}

type Locker struct{ db *sql.DB }

func (l *Locker) Acquire(ctx context.Context, resource string) (*Lease, error) {
	return &Lease{Resource: resource}, nil
}

func (l *Locker) Release(ctx context.Context, lease *Lease) error { return nil }

func (l *Locker) AcquireTTL(ctx context.Context, key string) (*TTLLock, error) {
	return &TTLLock{Key: key}, nil
}

func (l *Locker) ReleaseTTL(ctx context.Context, lock *TTLLock) error { return nil }

func debitBad(ctx context.Context, db *sql.DB, lease Lease, account string, amount int64) error {
	_, err := db.ExecContext(ctx, "UPDATE account_balances SET balance = balance - $1 WHERE account_id = $2", amount, account) // want `SQL write via db.ExecContext to account_balances under the Lease held in parameter lease is not fenced: its WHERE does not compare a fence column with the token; compare the stored fence with lease.Token in the write itself`
	return err
}

func debitGood(ctx context.Context, db *sql.DB, lease Lease, account string, amount int64) error {
	// ok: the WHERE compares fence_token with the token and records it
	_, err := db.ExecContext(ctx, "UPDATE account_balances SET balance = balance - $1, fence_token = $3 WHERE account_id = $2 AND fence_token < $3", amount, account, lease.Token)
	return err
}

func recordOnlyBad(ctx context.Context, db *sql.DB, lease *Lease, account string, amount int64) error {
	_, err := db.ExecContext(ctx, "UPDATE account_balances SET balance = balance - $1, fence_token = $3 WHERE account_id = $2", amount, account, lease.Token) // want `records lease.Token in fence_token but its WHERE never compares it`
	return err
}

func generationCASGood(ctx context.Context, db *sql.DB, lease *Lease, shard int, data []byte) error {
	// ok: equality CAS on the generation stamped at acquire
	_, err := db.ExecContext(ctx, "UPDATE shards SET data = $1 WHERE shard_id = $2 AND range_id = $3", data, shard, lease.Token)
	return err
}

func acquireBad(ctx context.Context, l *Locker, db *sql.DB, id string) error {
	lease, err := l.Acquire(ctx, "orders/"+id)
	if err != nil {
		// ok: a write on the failure path is outside the scope
		_, _ = db.ExecContext(ctx, "INSERT INTO lock_failures (id) VALUES ($1)", id)
		return err
	}
	defer l.Release(ctx, lease)
	_, err = db.ExecContext(ctx, "UPDATE orders SET state = 'shipped' WHERE id = $1", id) // want `SQL write via db.ExecContext to orders under the lease Lease from Acquire is not fenced`
	return err
}

func acquireGood(ctx context.Context, l *Locker, db *sql.DB, id string) error {
	lease, err := l.Acquire(ctx, "orders/"+id)
	if err != nil {
		return err
	}
	defer l.Release(ctx, lease)
	tok := lease.Token
	// ok: the token flows through a local into the WHERE
	_, err = db.ExecContext(ctx, "UPDATE orders SET state = 'shipped', fence = ? WHERE id = ? AND fence < ?", tok, id, tok)
	return err
}

func afterReleaseGood(ctx context.Context, l *Locker, db *sql.DB, id string) error {
	lease, err := l.Acquire(ctx, "orders/"+id)
	if err != nil {
		return err
	}
	_ = l.Release(ctx, lease)
	// ok: written after the release, outside the scope
	_, err = db.ExecContext(ctx, "UPDATE orders SET state = 'idle' WHERE id = $1", id)
	return err
}

func beforeAcquireGood(ctx context.Context, l *Locker, db *sql.DB, id string) error {
	// ok: written before the lock is taken
	if _, err := db.ExecContext(ctx, "UPDATE orders SET state = 'queued' WHERE id = $1", id); err != nil {
		return err
	}
	lease, err := l.Acquire(ctx, "orders/"+id)
	if err != nil {
		return err
	}
	return l.Release(ctx, lease)
}

func noTokenBad(ctx context.Context, l *Locker, db *sql.DB, id string) error {
	lk, err := l.AcquireTTL(ctx, "jobs/"+id)
	if err != nil {
		return err
	}
	defer l.ReleaseTTL(ctx, lk)
	_, err = db.ExecContext(ctx, "UPDATE jobs SET done = true WHERE id = $1", id) // want `under the lease TTLLock from AcquireTTL is not fenced: its WHERE does not compare a fence column with the token; the lease TTLLock from AcquireTTL gives no token to fence with: mint a counter in the same atomic step as the grant \(a Lua script that takes the lock and INCRs a counter, or a lock service with a revision or zxid: etcd, ZooKeeper\) and compare it in the write; see https://github.com/fencelint/fencelint/blob/main/docs/unfencedwrite.md#no-token$`
	return err
}

func readsGood(ctx context.Context, db *sql.DB, lease *Lease, id string) (int64, error) {
	var bal int64
	// ok: a read is not a write
	err := db.QueryRowContext(ctx, "SELECT balance FROM account_balances WHERE account_id = $1", id).Scan(&bal)
	return bal, err
}

var mu sync.Mutex

func syncMutexGood(ctx context.Context, db *sql.DB, id string) error {
	mu.Lock()
	defer mu.Unlock()
	// ok: a sync.Mutex is not a distributed lock
	_, err := db.ExecContext(ctx, "UPDATE orders SET state = 'x' WHERE id = $1", id)
	return err
}

func outsideScopeGood(ctx context.Context, db *sql.DB, id string) error {
	// ok: no lock scope at all
	_, err := db.ExecContext(ctx, "DELETE FROM sessions WHERE id = $1", id)
	return err
}

func insertBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	_, err := db.ExecContext(ctx, "INSERT INTO ledger (id, amount) VALUES ($1, 10)", id) // want `a plain INSERT carries no fencing token`
	return err
}

func upsertGood(ctx context.Context, db *sql.DB, lease *Lease, k, v string) error {
	// ok: the ON CONFLICT update compares the stored fence with EXCLUDED.fence, bound to the token
	_, err := db.ExecContext(ctx, `INSERT INTO kv (k, v, fence) VALUES ($1, $2, $3)
		ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v, fence = EXCLUDED.fence WHERE kv.fence < EXCLUDED.fence`, k, v, lease.Token)
	return err
}

func txUnitGood(ctx context.Context, db *sql.DB, lease *Lease, from, to string, amt int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, "UPDATE account_balances SET balance = balance - $1, fence_token = $3 WHERE account_id = $2 AND fence_token < $3", amt, from, lease.Token)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errors.New("superseded")
	}
	// ok: the transaction is fenced by the statement above; a stale holder's transaction aborts
	if _, err := tx.ExecContext(ctx, "INSERT INTO transfers (src, dst, amount) VALUES ($1, $2, $3)", from, to, amt); err != nil {
		return err
	}
	return tx.Commit()
}

func lockingReadGood(ctx context.Context, db *sql.DB, lease *Lease, shard int, data []byte) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var rangeID int64
	if err := tx.QueryRowContext(ctx, "SELECT range_id FROM shards WHERE shard_id = $1 FOR UPDATE", shard).Scan(&rangeID); err != nil {
		return err
	}
	if rangeID != lease.Token {
		return errors.New("shard ownership lost")
	}
	// ok: the row lock on the fence row serialises holders (Temporal/Cadence style)
	if _, err := tx.ExecContext(ctx, "UPDATE shard_data SET data = $1 WHERE shard_id = $2", data, shard); err != nil {
		return err
	}
	return tx.Commit()
}

func closureBad(ctx context.Context, l *Locker, db *sql.DB, id string) error {
	lease, err := l.Acquire(ctx, id)
	if err != nil {
		return err
	}
	defer l.Release(ctx, lease)
	done := make(chan error)
	go func() {
		_, err := db.ExecContext(ctx, "UPDATE orders SET state = 'x' WHERE id = $1", id) // want `SQL write via db.ExecContext to orders under the lease Lease from Acquire is not fenced`
		done <- err
	}()
	return <-done
}

func tokenParamBad(ctx context.Context, db *sql.DB, id string, fencingToken int64) error {
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x' WHERE id = $1", id) // want `under the token parameter fencingToken is not fenced`
	return err
}

func tokenParamGood(ctx context.Context, db *sql.DB, id string, fencingToken int64) error {
	// ok: compared with the token parameter
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, fencingToken)
	return err
}

func dynamicSQLGood(ctx context.Context, db *sql.DB, lease *Lease, q string) error {
	// ok: non-constant SQL is not guessed at
	_, err := db.ExecContext(ctx, q, lease.Token)
	return err
}

func appCheckedNotHere(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	if time.Now().Before(lease.ExpiresAt) {
		// ok: guarded by a client-side check: appcheck's finding, not unfencedwrite's
		_, err := db.ExecContext(ctx, "UPDATE orders SET state = 'x' WHERE id = $1", id)
		return err
	}
	return nil
}

func ignoredBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	//fencelint:ignore unfencedwrite the cache table is rebuilt from the ledger on every start
	_, err := db.ExecContext(ctx, "UPDATE cache SET v = 1 WHERE id = $1", id)
	return err
}

func preparedBad(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	stmt, err := db.PrepareContext(ctx, "UPDATE orders SET state = 'paid' WHERE id = $1")
	if err != nil {
		return err
	}
	defer stmt.Close()
	_, err = stmt.ExecContext(ctx, id) // want `SQL write via stmt.ExecContext to orders under the Lease held in parameter lease is not fenced`
	return err
}

func preparedGood(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	stmt, err := db.PrepareContext(ctx, "UPDATE orders SET state = 'paid', fence = $2 WHERE id = $1 AND fence < $2")
	if err != nil {
		return err
	}
	defer stmt.Close()
	// ok: the prepared statement compares the fence with the token
	_, err = stmt.ExecContext(ctx, id, lease.Token)
	return err
}

func txPreparedBad(ctx context.Context, db *sql.DB, tx *sql.Tx, lease *Lease, id string) error {
	stmt, err := db.PrepareContext(ctx, "DELETE FROM carts WHERE id = ?")
	if err != nil {
		return err
	}
	_, err = tx.StmtContext(ctx, stmt).ExecContext(ctx, id) // want `SQL write via tx.StmtContext\(ctx, stmt\).ExecContext to carts under the Lease held in parameter lease is not fenced`
	return err
}

func orFenceBad(ctx context.Context, db *sql.DB, lease Lease, account string, amount int64) error {
	// the OR lets any row with the id through, whatever its fence
	_, err := db.ExecContext(ctx, "UPDATE account_balances SET balance = balance - $1, fence_token = $3 WHERE fence_token < $3 OR account_id = $2", amount, account, lease.Token) // want `SQL write via db.ExecContext to account_balances under the Lease held in parameter lease is not fenced`
	return err
}

func orTwoFencesBad(ctx context.Context, db *sql.DB, lease Lease, account string, amount int64) error {
	// either column lets the write through: a row that recorded the token
	// only in fence_token still passes on fence_epoch
	_, err := db.ExecContext(ctx, "UPDATE account_balances SET balance = balance - $1, fence_token = $3 WHERE account_id = $2 AND (fence_token < $3 OR fence_epoch < $3)", amount, account, lease.Token) // want `SQL write via db.ExecContext to account_balances under the Lease held in parameter lease is not fenced`
	return err
}

func mergeFencedGood(ctx context.Context, db *sql.DB, lease Lease, id, body string) error {
	// ok: the WHEN MATCHED condition compares the token, and the update records it
	_, err := db.ExecContext(ctx, `MERGE INTO docs t USING (SELECT $3 AS id) s ON t.id = s.id
		WHEN MATCHED AND t.fence < $2 THEN UPDATE SET body = $1, fence = $2`, body, lease.Token, id)
	return err
}

func mergeSourceRecordedOnlyBad(ctx context.Context, db *sql.DB, lease Lease, id, body string) error {
	// The token reaches the update through the USING row's fence column.
	// want +1 `it records lease.Token in fence but its WHEN MATCHED never compares it`
	_, err := db.ExecContext(ctx, `MERGE INTO docs t USING (SELECT $1 AS id, $2 AS body, $3::bigint AS fence) s ON t.id = s.id
		WHEN MATCHED THEN UPDATE SET body = s.body, fence = s.fence`, id, body, lease.Token)
	return err
}

func mergeSourceFencedGood(ctx context.Context, db *sql.DB, lease Lease, id, body string) error {
	// ok: s.fence is the token, compared and recorded in the WHEN MATCHED update
	_, err := db.ExecContext(ctx, `MERGE INTO docs t USING (SELECT $1 AS id, $2 AS body, $3::bigint AS fence) s ON t.id = s.id
		WHEN MATCHED AND t.fence < s.fence THEN UPDATE SET body = s.body, fence = s.fence
		WHEN NOT MATCHED THEN INSERT (id, body, fence) VALUES (s.id, s.body, s.fence)`, id, body, lease.Token)
	return err
}

func mysqlUpsertPartlyGuardedBad(ctx context.Context, db *sql.DB, lease Lease, id, body string) error {
	// body is overwritten whatever the stored fence: only fence's own
	// assignment is conditional.
	// want +1 `its ON CONFLICT update does not compare a fence column with the token`
	_, err := db.ExecContext(ctx, `INSERT INTO docs (id, body, fence) VALUES (?, ?, ?)
		ON DUPLICATE KEY UPDATE body = VALUES(body), fence = IF(VALUES(fence) > fence, VALUES(fence), fence)`, id, body, lease.Token)
	return err
}

func mysqlUpsertGuardedGood(ctx context.Context, db *sql.DB, lease Lease, id, body string) error {
	// ok: every assignment keeps its column unless the proposed fence is newer
	_, err := db.ExecContext(ctx, `INSERT INTO docs (id, body, fence) VALUES (?, ?, ?)
		ON DUPLICATE KEY UPDATE body = IF(VALUES(fence) > fence, VALUES(body), body),
		fence = IF(VALUES(fence) > fence, VALUES(fence), fence)`, id, body, lease.Token)
	return err
}

func swappedArgumentsBad(ctx context.Context, db *sql.DB, lease Lease, id, body string) error {
	// $2 is meant for id and $3 for the token: the token selects the row
	// and the fence is compared with the id.
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = $1 WHERE id = $2 AND fence < $3", body, lease.Token, id) // want `its WHERE compares the token only with id, which names the row, not a fence column: are the arguments in the wrong order\?`
	return err
}

func tokenAsAccountNumberBad(ctx context.Context, db *sql.DB, lease Lease, body string) error {
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = $1 WHERE account_no = $2", body, lease.Token) // want `its WHERE compares the token only with account_no, which names the row`
	return err
}

func argumentsInOrderGood(ctx context.Context, db *sql.DB, lease Lease, id, body string) error {
	// ok: the twin, each argument where it belongs
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = $1, fence = $3 WHERE id = $2 AND fence < $3", body, id, lease.Token)
	return err
}

func generationEqualityGood(ctx context.Context, db *sql.DB, lease Lease, shard string, data []byte) error {
	// ok: equality on a generation stamped at acquire (range_id) is a
	// compare-and-set, not a row key
	_, err := db.ExecContext(ctx, "UPDATE shard_data SET data = $1 WHERE shard_id = $2 AND range_id = $3", data, shard, lease.Token)
	return err
}

func orBypassBad(ctx context.Context, db *sql.DB, lease Lease, id, body string) error {
	// want +1 `its WHERE compares the token inside an OR, "\(fence < \$2 OR force_write = 1\)"`
	_, err := db.ExecContext(ctx, `UPDATE docs SET body = $1, fence = $2
		WHERE id = $3 AND (fence < $2 OR force_write = 1)`, body, lease.Token, id)
	return err
}

func orNullBranchIsNotABypassGood(ctx context.Context, db *sql.DB, lease Lease, id, body string) error {
	// ok here (fencepredicate words the transitional NULL branch): only
	// one alternative besides the missing fence
	_, err := db.ExecContext(ctx, `UPDATE docs SET body = $1, fence = $2
		WHERE id = $3 AND (fence IS NULL OR fence < $2)`, body, lease.Token, id)
	return err
}

func mergeRecordedOnlyBad(ctx context.Context, db *sql.DB, lease Lease, id, body string) error {
	// want +1 `it records lease.Token in fence but its WHEN MATCHED never compares it`
	_, err := db.ExecContext(ctx, `MERGE INTO docs t USING (SELECT $3 AS id) s ON t.id = s.id
		WHEN MATCHED THEN UPDATE SET body = $1, fence = $2`, body, lease.Token, id)
	return err
}

func coalesceGood(ctx context.Context, db *sql.DB, lease Lease, id, body string) error {
	// ok: COALESCE(fence, 0) compares the stored fence (its NULL default is fencepredicate's)
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = $1, fence = $2 WHERE id = $3 AND COALESCE(fence, 0) < $2", body, lease.Token, id)
	return err
}

func coalesceNoTokenBad(ctx context.Context, db *sql.DB, lease Lease, id, body string, limit int64) error {
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = $1 WHERE id = $2 AND COALESCE(fence, 0) < $3", body, id, limit) // want `SQL write via db.ExecContext to docs under the Lease held in parameter lease is not fenced: its WHERE does not compare a fence column with the token`
	return err
}

func blankLeaseParamBad(ctx context.Context, db *sql.DB, _ Lease, id string) error {
	// The lease parameter is blank: the message names no token to compare.
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x' WHERE id = $1", id) // want `SQL write via db.ExecContext to docs under the Lease held in parameter _ is not fenced: its WHERE does not compare a fence column with the token$`
	return err
}
