package fence

import (
	"testing"

	"github.com/fencelint/fencelint/analyzer/internal/sqlcond"
)

// TestReadLeaseStmt pins which statements the engine takes for a SQL
// lease table's claim, release or bookkeeping, and which token a claim
// mints (docs/unfencedwrite.md#lease-tables says the same in prose).
func TestReadLeaseStmt(t *testing.T) {
	claimedLocks := func(table string) bool { return table == "jobs" || table == "lease" }
	for _, c := range []struct {
		sql    string
		role   leaseRole
		minted string
	}{
		// claims
		{`UPDATE locks SET holder = $1, expires_at = now() + interval '30s' WHERE name = $2 AND (expires_at < now() OR holder = $1)`, leaseClaim, ""},
		{`UPDATE locks SET holder = $1, fence = fence + 1 WHERE name = $2 AND expires_at < $3 RETURNING fence`, leaseClaim, "fence"},
		{`UPDATE locks SET owner = $1, token = nextval('lock_tokens') WHERE name = $2 AND expires_at <= now() RETURNING holder, token`, leaseClaim, "token"},
		{`UPDATE locks SET holder = $1, fence = fence + 1 WHERE name = $2 AND expires_at < now()`, leaseClaim, ""}, // minted, not returned
		{`UPDATE locks SET holder = $1, fence = fence + 1 WHERE name = $2 AND expires_at < now() RETURNING *`, leaseClaim, ""},
		{`INSERT INTO locks (name, holder, expires_at) VALUES ($1, $2, now()) ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, fence = locks.fence + 1 WHERE locks.expires_at < now() RETURNING fence`, leaseClaim, "fence"},
		{"INSERT INTO locks (name, owner, expires_at) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE owner = IF(expires_at < NOW(), VALUES(owner), owner)", leaseClaim, ""},
		{"INSERT INTO locks (lock_key, owner_id, expires_at) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE owner_id = CASE WHEN expires_at <= NOW() THEN VALUES(owner_id) ELSE owner_id END", leaseClaim, ""},
		{`INSERT INTO river_leader (leader_id, elected_at, expires_at) VALUES ($1, now(), now() + interval '5s') ON CONFLICT (name) DO NOTHING`, leaseClaim, ""},
		{`INSERT INTO locks (name, data, expires_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE locks.expires_at <= NOW() RETURNING *`, leaseClaim, ""},
		{`UPDATE jobs SET locked_by = $1, locked_until = now() + interval '5m' WHERE id = $2 AND (locked_until IS NULL OR locked_until < now())`, leaseClaim, ""},
		// releases
		{`DELETE FROM locks WHERE name = $1 AND holder = $2`, leaseRelease, ""},
		{`UPDATE locks SET holder = NULL, expires_at = NULL WHERE name = $1 AND holder = $2`, leaseRelease, ""},
		{`UPDATE locks SET expires_at = now() WHERE name = $1 AND owner = $2`, leaseRelease, ""},
		{`DELETE FROM "Lease" l USING (SELECT unnest($1::bigint[]) AS "id") AS input WHERE l."id" = input."id" RETURNING l.*`, leaseRelease, ""},
		{`DELETE FROM river_leader WHERE name = $1 AND expires_at < now()`, leaseKeep, ""}, // cleanup of an expired row
		// bookkeeping
		{`UPDATE locks SET expires_at = now() + interval '30s' WHERE name = $1 AND holder = $2`, leaseKeep, ""},
		{`DELETE FROM locks WHERE expires_at < now()`, leaseKeep, ""},
		{`UPDATE locks SET expires_at = now() + interval '5m' WHERE name = $1 AND expires_at > now()`, leaseKeep, ""}, // renewal, not a holder-less claim
		{`UPDATE jobs SET locked_until = now() + interval '5m' WHERE id = $1 AND locked_by = $2`, leaseKeep, ""},
		// not lease-table SQL
		{`UPDATE jobs SET state = 'done' WHERE id = $1`, leaseNone, ""}, // a data write on a claimed table
		{`INSERT INTO settings (k, v, updated_at) VALUES ($1, $2, now()) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v WHERE settings.updated_at < EXCLUDED.updated_at`, leaseNone, ""},
		{`INSERT INTO locks (name, holder, expires_at) VALUES ($1, $2, now()) ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder`, leaseKeep, ""}, // steals: not a claim
		{`INSERT INTO leases (apartment_id, owner_id, expires_at) VALUES ($1, $2, $3)`, leaseNone, ""},                                                   // a business lease: a data write
		{`UPDATE tasks SET owner = $1 WHERE id = $2 AND owner IS NULL`, leaseNone, ""},                                                                   // no expiry
		{`UPDATE accounts SET balance = balance - $1 WHERE id = $2`, leaseNone, ""},
		{`UPDATE locks SET holder = $1, expires_at = now() + interval '30s' WHERE name = $2`, leaseKeep, ""}, // no expiry test: bookkeeping of a lock table, no claim
	} {
		stmts, err := sqlcond.Parse(c.sql)
		if err != nil || len(stmts) != 1 {
			t.Fatalf("%s: %v", c.sql, err)
		}
		got := readLeaseStmt(stmts[0], claimedLocks)
		if got.role != c.role || got.minted != c.minted {
			t.Errorf("%s:\n\trole %d minted %q; want role %d minted %q", c.sql, got.role, got.minted, c.role, c.minted)
		}
	}
}

// TestContainsFoldASCII: the write-verb test before a statement is read
// finds a verb in any case and anywhere, as strings.ToLower then
// strings.Contains did.
func TestContainsFoldASCII(t *testing.T) {
	for _, c := range []struct {
		s, word string
		want    bool
	}{
		{"UPDATE locks SET holder = $1", "update", true},
		{"insert into jobs values ($1)", "insert", true},
		{"with x as (select 1) DeLeTe from t", "delete", true},
		{"SELECT * FROM updates_log", "update", true}, // a prefilter: any occurrence
		{"SELECT holder FROM locks", "update", false},
		{"UPDAT", "update", false},
		{"", "update", false},
		{"@PDATE", "update", false}, // '@'|0x20 is '`', not 'u'
	} {
		if got := containsFoldASCII(c.s, c.word); got != c.want {
			t.Errorf("containsFoldASCII(%q, %q) = %v, want %v", c.s, c.word, got, c.want)
		}
	}
}
