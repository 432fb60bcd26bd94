// Package leasetable exercises SQL lease tables used as locks: a claim
// statement (UPDATE ... WHERE expires_at < now(), an upsert with an ON
// CONFLICT ... WHERE on the expiry, an INSERT into a lock table) opens a
// scope after its success check and a DELETE or clearing UPDATE of the
// row ends it. The claim hands out a token only when it mints one in the
// same statement and RETURNs it.
package leasetable

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jackc/pgx/v5"
)

var ErrSuperseded = errors.New("superseded")

const claim = `UPDATE locks SET holder = $1, expires_at = now() + interval '30 seconds'
	WHERE name = $2 AND (expires_at < now() OR holder = $1)`

const claimFenced = `UPDATE locks SET holder = $1, expires_at = now() + interval '30 seconds', fence = fence + 1
	WHERE name = $2 AND (expires_at < now() OR holder = $1)
	RETURNING fence`

func updateClaimBad(ctx context.Context, db *sql.DB, me string) error {
	res, err := db.ExecContext(ctx, claim, me, "ledger")
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return errors.New("held by another")
	}
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", 10, 1) // want `SQL write via db.ExecContext to accounts under the lease table locks is not fenced: its WHERE does not compare a fence column with the token; the lease table locks gives no token to fence with: mint a counter in the same atomic step as the grant \(a Lua script that takes the lock and INCRs a counter, or a lock service with a revision or zxid: etcd, ZooKeeper\) and compare it in the write; for a lease table, the claim is that step: SET fence = fence \+ 1 \(or nextval\) in the claim statement, RETURNING fence; see https://github.com/fencelint/fencelint/blob/main/docs/unfencedwrite.md#no-token$`
	return err
}

func updateClaimNotAcquiredGood(ctx context.Context, db *sql.DB, me string) error {
	res, err := db.ExecContext(ctx, claim, me, "ledger")
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		// ok: the claim matched no row: another holder has it, no scope here
		_, err = db.ExecContext(ctx, "UPDATE lock_stats SET misses = misses + 1 WHERE name = $1", "ledger")
		return err
	}
	return nil
}

func releasedGood(ctx context.Context, db *sql.DB, me string) error {
	res, err := db.ExecContext(ctx, claim, me, "ledger")
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	// ok: renewing the claim is the lock table's own bookkeeping
	if _, err := db.ExecContext(ctx, "UPDATE locks SET expires_at = now() + interval '30 seconds' WHERE name = $1 AND holder = $2", "ledger", me); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, "DELETE FROM locks WHERE name = $1 AND holder = $2", "ledger", me); err != nil {
		return err
	}
	// ok: released: no lock is claimed here
	_, err = db.ExecContext(ctx, "UPDATE accounts SET audited = true WHERE id = $1", 1)
	return err
}

func cleanupIsNoReleaseBad(ctx context.Context, db *sql.DB, me string) error {
	res, err := db.ExecContext(ctx, claim, me, "ledger")
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	defer db.ExecContext(ctx, "UPDATE locks SET holder = NULL, expires_at = NULL WHERE name = $1 AND holder = $2", "ledger", me)
	// deleting other, expired rows is bookkeeping and releases nothing
	if _, err := db.ExecContext(ctx, "DELETE FROM locks WHERE expires_at < now()"); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "DELETE FROM outbox WHERE id = $1", 7) // want `SQL write via db.ExecContext to outbox under the lease table locks is not fenced`
	return err
}

func returningTokenGood(ctx context.Context, db *sql.DB, me string) error {
	var fence int64
	if err := db.QueryRowContext(ctx, claimFenced, me, "ledger").Scan(&fence); err != nil {
		return err // sql.ErrNoRows: held by another
	}
	// ok: the write compares the fence the claim minted
	res, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1, fence = $3 WHERE id = $2 AND fence < $3", 10, 1, fence)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrSuperseded
	}
	return nil
}

func returningTokenIgnoredBad(ctx context.Context, db *sql.DB, me string) error {
	var fence int64
	if err := db.QueryRowContext(ctx, claimFenced, me, "ledger").Scan(&fence); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2", 10, 1) // want `SQL write via db.ExecContext to accounts under the lease table locks is not fenced: its WHERE does not compare a fence column with the token; compare the stored fence with the fence its claim RETURNs in the write itself$`
	return err
}

func nextvalTokenGood(ctx context.Context, conn *pgx.Conn, me string) error {
	var tok int64
	err := conn.QueryRow(ctx, `UPDATE locks SET holder = $1, token = nextval('lock_tokens'), expires_at = now() + interval '1 minute'
		WHERE name = $2 AND expires_at < now() RETURNING token`, me, "reports").Scan(&tok)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	// ok: fenced by the sequence value the claim took
	tag, err := conn.Exec(ctx, "UPDATE reports SET body = $1, token = $3 WHERE id = $2 AND token < $3", "x", 1, tok)
	if err == nil && tag.RowsAffected() == 0 {
		return ErrSuperseded
	}
	return err
}

func upsertClaimBad(ctx context.Context, conn *pgx.Conn, me string) error {
	tag, err := conn.Exec(ctx, `INSERT INTO leases (name, owner, expires_at) VALUES ($1, $2, now() + interval '30 seconds')
		ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
		WHERE leases.expires_at < now() OR leases.owner = EXCLUDED.owner`, "compactor", me)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return nil
	}
	_, err = conn.Exec(ctx, "UPDATE segments SET compacted = true WHERE id = $1", 3) // want `SQL write via conn.Exec to segments under the lease table leases is not fenced`
	return err
}

func upsertClaimFencedGood(ctx context.Context, conn *pgx.Conn, me string) error {
	var fence int64
	err := conn.QueryRow(ctx, `INSERT INTO leases (name, owner, expires_at, fence) VALUES ($1, $2, now() + interval '30 seconds', 1)
		ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at, fence = leases.fence + 1
		WHERE leases.expires_at < now()
		RETURNING fence`, "compactor", me).Scan(&fence)
	if err != nil {
		return err
	}
	// ok: fenced by the minted fence
	_, err = conn.Exec(ctx, "UPDATE segments SET compacted = true, fence = $2 WHERE id = $1 AND fence < $2", 3, fence)
	return err
}

func mysqlDuplicateKeyBad(ctx context.Context, db *sql.DB, me string) error {
	res, err := db.ExecContext(ctx, `INSERT INTO locks (name, owner, expires_at) VALUES (?, ?, NOW() + INTERVAL 30 SECOND)
		ON DUPLICATE KEY UPDATE owner = IF(expires_at < NOW(), VALUES(owner), owner),
		expires_at = IF(expires_at < NOW(), VALUES(expires_at), expires_at)`, "mailer", me)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	_, err = db.ExecContext(ctx, "UPDATE outbox SET sent = 1 WHERE id = ?", 9) // want `SQL write via db.ExecContext to outbox under the lease table locks is not fenced`
	return err
}

func insertLeaderBad(ctx context.Context, db *sql.DB, me string) error {
	res, err := db.ExecContext(ctx, `INSERT INTO leader (name, leader_id, expires_at) VALUES ('default', $1, now() + interval '15 seconds')
		ON CONFLICT (name) DO NOTHING`, me)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n > 0 {
		_, err = db.ExecContext(ctx, "UPDATE schedules SET runs = runs + 1 WHERE id = $1", 1) // want `SQL write via db.ExecContext to schedules under the lease table leader is not fenced`
	}
	return err
}

func claimInTxSameTxGood(ctx context.Context, db *sql.DB, me string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, claim, me, "ledger")
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return nil
	}
	// ok: the claim's row lock is held by this transaction until it ends
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", 1); err != nil {
		return err
	}
	return tx.Commit()
}

func claimInTxPoolWriteBad(ctx context.Context, db *sql.DB, me string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, claim, me, "ledger")
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return tx.Rollback()
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", 1) // want `SQL write via db.ExecContext to accounts under the lease table locks is not fenced`
	return err
}

// Traps: none of these is a lease-table lock.

func ordinaryUpsertGood(ctx context.Context, db *sql.DB) error {
	// ok: an upsert with a timestamp guard but no holder is not a claim
	if _, err := db.ExecContext(ctx, `INSERT INTO settings (k, v, updated_at) VALUES ($1, $2, now())
		ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v, updated_at = EXCLUDED.updated_at
		WHERE settings.updated_at < EXCLUDED.updated_at`, "mode", "on"); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE accounts SET mode = $1 WHERE id = $2", "on", 1)
	return err
}

func selectForUpdateSameTxGood(ctx context.Context, db *sql.DB, me string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var holder string
	if err := tx.QueryRowContext(ctx, "SELECT holder FROM locks WHERE name = $1 FOR UPDATE", "ledger").Scan(&holder); err != nil {
		return err
	}
	if holder != "" && holder != me {
		return nil
	}
	// ok: taking the row under FOR UPDATE is not a claim (no expiry test)
	if _, err := tx.ExecContext(ctx, "UPDATE locks SET holder = $1 WHERE name = $2", me, "ledger"); err != nil {
		return err
	}
	// ok: the row lock fences this write while the transaction lives
	if _, err := tx.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", 1); err != nil {
		return err
	}
	return tx.Commit()
}

func skipLockedJobGood(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var id int64
	if err := tx.QueryRowContext(ctx, "SELECT id FROM jobs WHERE state = 'queued' ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1").Scan(&id); err != nil {
		return err
	}
	// ok: a SKIP LOCKED job claim is a row lock for this transaction, not a lease
	if _, err := tx.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id); err != nil {
		return err
	}
	return tx.Commit()
}

func migrationGood(ctx context.Context, db *sql.DB) error {
	// ok: creating the lock table claims nothing
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS locks (name text PRIMARY KEY, holder text, expires_at timestamptz, fence bigint NOT NULL DEFAULT 0)`); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "INSERT INTO locks (name) VALUES ($1) ON CONFLICT DO NOTHING", "ledger")
	return err
}

func noExpiryGood(ctx context.Context, db *sql.DB, me string) error {
	// ok: a holder without an expiry is no lease: nobody else can take it
	res, err := db.ExecContext(ctx, "UPDATE jobs SET owner = $1 WHERE id = $2 AND owner IS NULL", me, 1)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	_, err = db.ExecContext(ctx, "UPDATE jobs SET state = 'running' WHERE id = $1", 1)
	return err
}

// A table named like a lock needs no holder column: the row is taken
// where its expiry has passed.

func holderlessUpsertBad(ctx context.Context, conn *pgx.Conn) error {
	tag, err := conn.Exec(ctx, `INSERT INTO locks (name, data, expires_at) VALUES ($1, $2, now() + interval '5 minutes')
		ON CONFLICT (name) DO UPDATE SET expires_at = EXCLUDED.expires_at
		WHERE locks.expires_at <= now()`, "cleanup", []byte(nil))
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return nil
	}
	_, err = conn.Exec(ctx, "DELETE FROM sessions WHERE id = $1", 5) // want `SQL write via conn.Exec to sessions under the lease table locks is not fenced`
	return err
}

func holderlessExtendIsNoClaimGood(ctx context.Context, conn *pgx.Conn) error {
	// ok: extending a lease that has not passed is renewal, not a claim
	tag, err := conn.Exec(ctx, "UPDATE locks SET expires_at = now() + interval '5 minutes' WHERE name = $1 AND expires_at > now()", "cleanup")
	if err != nil || tag.RowsAffected() == 0 {
		return err
	}
	_, err = conn.Exec(ctx, "DELETE FROM sessions WHERE id = $1", 5)
	return err
}

// Store is a query set like sqlc's Queries: one method claims a lease
// row on the shared handle, the others are unrelated queries that do not
// run under that claim.
type Store struct{ db *sql.DB }

func (s *Store) ClaimLock(ctx context.Context, me string) (int64, error) {
	res, err := s.db.ExecContext(ctx, claim, me, "reports")
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (s *Store) DeleteSession(ctx context.Context, id int64) error {
	// ok: not run under ClaimLock's lease
	_, err := s.db.ExecContext(ctx, "DELETE FROM sessions WHERE id = $1", id)
	return err
}

// StateClient takes the lease in Lock and keeps it (held); Put writes
// the state under it, as terraform's remote-state clients do.
type StateClient struct {
	db   *sql.DB
	me   string
	held bool
}

func (c *StateClient) Lock(ctx context.Context) error {
	res, err := c.db.ExecContext(ctx, claim, c.me, "state")
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errors.New("state locked")
	}
	c.held = true
	return nil
}

func (c *StateClient) Put(ctx context.Context, data string) error {
	_, err := c.db.ExecContext(ctx, "UPDATE states SET data = $1 WHERE name = $2", data, "state") // want `SQL write via c.db.ExecContext to states under the lease table locks held in the StateClient by Lock is not fenced: .*; for a lease table, the claim is that step: .*`
	return err
}

// BusinessStore calls its query set's claim like any other query: its
// other methods do not run under the claim.
type BusinessStore struct{ q *Store }

func (b *BusinessStore) AcquireReportsLock(ctx context.Context, me string) (bool, error) {
	n, err := b.q.ClaimLock(ctx, me)
	return n == 1, err
}

func (b *BusinessStore) ExpireSessions(ctx context.Context) error {
	// ok: not run under AcquireReportsLock's lease
	_, err := b.q.db.ExecContext(ctx, "DELETE FROM sessions WHERE expires < now()")
	return err
}

func plainInsertIsNoClaimGood(ctx context.Context, db *sql.DB, tenant string) error {
	// ok: a plain INSERT into leases records a business lease, not a lock
	if _, err := db.ExecContext(ctx, "INSERT INTO leases (apartment_id, owner_id, expires_at) VALUES ($1, $2, $3)", 4, tenant, "2027-01-01"); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE apartments SET rented = true WHERE id = $1", 4)
	return err
}

// A lease kept on the data row itself: a job claimed by a worker for a
// while. Renewing it is bookkeeping; marking the job done is a write
// under the lease.
func jobLeaseBad(ctx context.Context, db *sql.DB, worker string, id int64) error {
	res, err := db.ExecContext(ctx, `UPDATE jobs SET locked_by = $1, locked_until = now() + interval '5 minutes'
		WHERE id = $2 AND state = 'queued' AND (locked_until IS NULL OR locked_until < now())`, worker, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	// ok: extending the job's lease is its bookkeeping
	if _, err := db.ExecContext(ctx, "UPDATE jobs SET locked_until = now() + interval '5 minutes' WHERE id = $1 AND locked_by = $2", id, worker); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE jobs SET state = 'done' WHERE id = $1", id) // want `SQL write via db.ExecContext to jobs under the lease table jobs is not fenced`
	return err
}
