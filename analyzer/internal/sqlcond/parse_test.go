package sqlcond

import (
	"strings"
	"testing"
)

// parseCases is shared with the fuzz seed corpus. want is describeAll of
// the result: verb, table, set/where/... with operands as column, $n
// (positional), ?n (ordinal), :name (named), literal or <text {params}>;
// "?" marks an Unknown conjunct, "~" a comparison without operator.
var parseCases = []struct {
	name, sql, want string
}{
	{"pg update",
		"UPDATE account_balances SET balance = balance - $1, fence_token = $3 WHERE account_id = $2 AND fence_token < $3",
		"UPDATE account_balances set[balance=<balance - $1 {$1}>, fence_token=$3] where[account_id = $2 & fence_token < $3] params[$1 $3 $2 $3]"},
	{"ordinal update",
		"UPDATE account_balances SET balance = balance - ?, fence_token = ? WHERE account_id = ? AND fence_token < ?",
		"UPDATE account_balances set[balance=<balance - ? {?1}>, fence_token=?2] where[account_id = ?3 & fence_token < ?4] params[?1 ?2 ?3 ?4]"},
	{"named colon update",
		"UPDATE account_balances SET balance = balance - :amount, fence_token = :token WHERE account_id = :account AND fence_token < :token RETURNING balance",
		"UPDATE account_balances set[balance=<balance - :amount {:amount}>, fence_token=:token] where[account_id = :account & fence_token < :token] ret[balance] params[:amount :token :account :token]"},
	{"at named with OR group",
		"UPDATE t SET v = @v, fence = @tok WHERE id = @id AND (fence IS NULL OR fence < @tok)",
		"UPDATE t set[v=:v, fence=:tok] where[id = :id & (fence IS NULL OR fence < :tok)] params[:v :tok :id :tok]"},
	{"on conflict do update where",
		"INSERT INTO kv (k, v, fence) VALUES ($1, $2, $3) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v, fence = EXCLUDED.fence WHERE kv.fence < EXCLUDED.fence",
		"INSERT kv set[k=$1, v=$2, fence=$3] onconflict cset[v=excluded.v, fence=excluded.fence] cwhere[kv.fence < excluded.fence] params[$1 $2 $3]"},
	{"range id",
		"UPDATE shards SET range_id = $1, data = $2 WHERE shard_id = $3 AND range_id = $4",
		"UPDATE shards set[range_id=$1, data=$2] where[shard_id = $3 & range_id = $4] params[$1 $2 $3 $4]"},
	{"select for update",
		"SELECT range_id FROM shards WHERE shard_id = $1 FOR UPDATE",
		"SELECT shards cols[range_id] where[shard_id = $1] lock[FOR UPDATE] params[$1]"},
	{"select fence",
		"SELECT fence_token FROM account_balances WHERE account_id = $1",
		"SELECT account_balances cols[fence_token] where[account_id = $1] params[$1]"},
	{"advisory lock",
		"SELECT pg_try_advisory_xact_lock($1)",
		"SELECT cols[pg_try_advisory_xact_lock($1)] params[$1] calls[pg_try_advisory_xact_lock]"},
	{"question marks in string and comment",
		"UPDATE t SET x = '?', y = $1::text WHERE id = $2 -- ? comment",
		"UPDATE t set[x='?', y=$1] where[id = $2] params[$1 $2]"},
	{"delete",
		"DELETE FROM jobs WHERE id = $1 AND fence_token <= $2",
		"DELETE jobs where[id = $1 & fence_token <= $2] params[$1 $2]"},
	{"swapped operands",
		"UPDATE t SET a = 1 WHERE $2 > fence_token",
		"UPDATE t set[a=1] where[$2 > fence_token] params[$2]"},
	{"mysql on duplicate key",
		"INSERT INTO t (id, v, fence) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE v = IF(VALUES(fence) > fence, VALUES(v), v), fence = GREATEST(fence, VALUES(fence))",
		"INSERT t set[id=?1, v=?2, fence=?3] ondupkey cset[v=<IF(VALUES(fence) > fence, VALUES(v), v)>, fence=<GREATEST(fence, VALUES(fence))>] params[?1 ?2 ?3] calls[if, greatest]"},
	{"multi statement",
		"BEGIN; UPDATE a SET x = $1 WHERE id = $2; COMMIT",
		"OTHER ;; UPDATE a set[x=$1] where[id = $2] params[$1 $2] ;; OTHER"},
	{"dollar quoted body",
		"DO $body$ BEGIN UPDATE t SET x = 1 WHERE y = '?'; END $body$; UPDATE t SET f = ? WHERE id = ?",
		"OTHER ;; UPDATE t set[f=?1] where[id = ?2] params[?1 ?2]"},
	{"quoted alias from returning",
		"UPDATE \"Accounts\" AS a SET \"Fence\" = $1 FROM other o WHERE a.id = o.id AND a.\"Fence\" < $1::bigint RETURNING a.id, *",
		"UPDATE accounts as a set[fence=$1] where[a.id = o.id & a.fence < $1] ret[id, *] params[$1 $1]"},
	{"only tuple between",
		"UPDATE ONLY public.t SET (a, b) = ($1, $2) WHERE id = $3 AND fence BETWEEN $4 AND $5",
		"UPDATE public.t set[a=$1, b=$2] where[id = $3 & fence BETWEEN <$4 AND $5 {$4 $5}>] params[$1 $2 $3 $4 $5]"},
	{"mysql backticks limit",
		"UPDATE `t` SET `v` = ?, `fence` = ? WHERE `id` = ? AND `fence` < ? LIMIT 1",
		"UPDATE t set[v=?1, fence=?2] where[id = ?3 & fence < ?4] params[?1 ?2 ?3 ?4]"},
	{"sql server brackets output",
		"UPDATE [dbo].[t] SET [v] = @p1, fence = @p2 OUTPUT inserted.fence, INSERTED.v WHERE id = @p3 AND fence < @p2",
		"UPDATE dbo.t set[v=$1, fence=$2] where[id = $3 & fence < $2] ret[fence, v] params[$1 $2 $3 $2]"},
	{"delete using returning",
		"DELETE FROM t USING u WHERE t.id = u.id AND t.fence < $1 RETURNING t.id",
		"DELETE t where[t.id = u.id & t.fence < $1] ret[id] params[$1]"},
	{"insert select",
		"INSERT INTO t (a) SELECT a FROM u WHERE x = $1",
		"INSERT t params[$1] partial"},
	{"replace into",
		"REPLACE INTO t (id, fence) VALUES (?, ?)",
		"INSERT t set[id=?1, fence=?2] params[?1 ?2]"},
	{"insert or replace",
		"INSERT OR REPLACE INTO t (id, fence) VALUES (:id, :fence)",
		"INSERT t set[id=:id, fence=:fence] params[:id :fence]"},
	{"insert or ignore sqlite dollar name",
		"INSERT OR IGNORE INTO t (id) VALUES ($id)",
		"INSERT t set[id=:id] nothing params[:id]"},
	{"insert ignore",
		"INSERT IGNORE INTO t (id) VALUES (?)",
		"INSERT t set[id=?1] nothing params[?1]"},
	{"on constraint do nothing",
		"INSERT INTO t (id) VALUES ($1) ON CONFLICT ON CONSTRAINT t_pkey DO NOTHING",
		"INSERT t set[id=$1] onconflict nothing params[$1]"},
	{"several rows",
		"INSERT INTO t (id, f) VALUES ($1, $2), ($3, $4)",
		"INSERT t params[$1 $2 $3 $4] partial"},
	{"no column list",
		"INSERT INTO t VALUES ($1, $2)",
		"INSERT t params[$1 $2] partial"},
	{"merge",
		"MERGE INTO t USING s ON t.id = s.id AND t.fence < s.fence WHEN MATCHED AND s.x > 0 THEN UPDATE SET v = s.v, fence = s.fence WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id);",
		"MERGE t set[v=s.v, fence=s.fence] where[t.id = s.id & t.fence < s.fence] matched[s.x > 0] partial"},
	{"merge sql server",
		"MERGE t AS tgt USING (SELECT @id AS id, @f AS f) AS src ON tgt.id = src.id WHEN MATCHED AND tgt.f < src.f THEN UPDATE SET f = src.f, v = CASE WHEN 1 = 1 THEN 2 END OUTPUT inserted.f;",
		"MERGE t as tgt set[f=src.f, v=<CASE WHEN 1 = 1 THEN 2 END>] where[tgt.id = src.id] matched[tgt.f < src.f] source[src.f=@f, src.id=@id] ret[f] params[:id :f] partial"},
	{"merge source values row with column list",
		"MERGE INTO t USING (VALUES ($1, $2::bigint)) AS s (id, fence) ON t.id = s.id WHEN MATCHED AND t.fence < s.fence THEN UPDATE SET fence = s.fence",
		"MERGE t set[fence=s.fence] where[t.id = s.id] matched[t.fence < s.fence] source[s.fence=$2::bigint, s.id=$1] params[$1 $2] partial"},
	{"merge source implicit aliases",
		"MERGE INTO t USING (SELECT $1 id, $2 fence) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET fence = s.fence",
		"MERGE t set[fence=s.fence] where[t.id = s.id] source[s.fence=$2, s.id=$1] params[$1 $2] partial"},
	{"merge source from a table is not a row",
		"MERGE INTO t USING (SELECT id, fence FROM staged) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET fence = s.fence",
		"MERGE t set[fence=s.fence] where[t.id = s.id] partial"},
	{"not of a comparison is its inverse",
		"UPDATE t SET v = 1 WHERE id = $1 AND NOT (fence >= $2)",
		"UPDATE t set[v=1] where[id = $1 & fence < $2] params[$1 $2]"},
	{"not of an and group stays unread",
		"UPDATE t SET v = 1 WHERE NOT (fence >= $2 AND id = $1)",
		"UPDATE t set[v=1] where[?~<NOT (fence >= $2 AND id = $1) {$2 $1}>] params[$2 $1]"},
	{"mysql guarded upsert",
		"INSERT INTO t (id, v, fence) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE v = IF(VALUES(fence) > fence, VALUES(v), v), fence = IF(VALUES(fence) > fence, VALUES(fence), fence)",
		"INSERT t set[id=?1, v=?2, fence=?3] ondupkey cset[v=values(v), fence=values(fence)] cwhere[values(fence) > fence] params[?1 ?2 ?3] calls[if]"},
	{"mysql upsert guarded by different conditions stays as written",
		"INSERT INTO t (id, v, fence) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE v = IF(VALUES(fence) > fence, VALUES(v), v), fence = IF(VALUES(fence) >= fence, VALUES(fence), fence)",
		"INSERT t set[id=?1, v=?2, fence=?3] ondupkey cset[v=<IF(VALUES(fence) > fence, VALUES(v), v)>, fence=<IF(VALUES(fence) >= fence, VALUES(fence), fence)>] params[?1 ?2 ?3] calls[if]"},
	{"cte",
		"WITH x AS (SELECT $1 AS a), y AS (SELECT 2) UPDATE t SET v = x.a FROM x WHERE id = $2",
		"UPDATE t set[v=x.a] where[id = $2] params[$1 $2]"},
	{"cte ordinals counted",
		"WITH x AS (SELECT ? AS a) UPDATE t SET v = ? WHERE id = ?",
		"UPDATE t set[v=?2] where[id = ?3] params[?1 ?2 ?3]"},
	{"data modifying cte",
		"WITH u AS (UPDATE t SET v = 1 WHERE id = $1 RETURNING *) SELECT * FROM u",
		"SELECT u cols[*] params[$1] withwrite partial"},
	{"select projection lock in share mode",
		"SELECT a, b AS c, t.d, count(*) n, t.* FROM public.t t JOIN u ON u.id = t.id WHERE x = ? LOCK IN SHARE MODE",
		"SELECT public.t cols[a, c, d, n, *] where[x = ?1] lock[LOCK IN SHARE MODE] params[?1] calls[count]"},
	{"for no key update",
		"SELECT * FROM t WHERE id = $1 FOR NO KEY UPDATE OF t SKIP LOCKED",
		"SELECT t cols[*] where[id = $1] lock[FOR NO KEY UPDATE] params[$1]"},
	{"for key share",
		"SELECT * FROM t WHERE id = $1 FOR KEY SHARE NOWAIT",
		"SELECT t cols[*] where[id = $1] lock[FOR KEY SHARE] params[$1]"},
	{"for share",
		"SELECT * FROM t WHERE id = $1 FOR SHARE",
		"SELECT t cols[*] where[id = $1] lock[FOR SHARE] params[$1]"},
	{"jsonb question operator",
		"SELECT data FROM t WHERE data ? 'k' AND id = $1",
		"SELECT t cols[data] where[~<data ? 'k'> & id = $1] params[$1]"},
	{"question placeholder without dollar",
		"SELECT data FROM t WHERE data ? 'k' AND id = ?",
		"SELECT t cols[data] where[~<data ? 'k' {?1}> & id = ?2] params[?1 ?2]"},
	{"jsonb ?",
		" and ?&|SELECT data ?| array['a'] FROM t WHERE id = $1 AND data ?& array['b']",
		"OTHER params[$1]"},
	{"any in not exists",
		"UPDATE t SET v = $1 WHERE id = ANY($2) AND fence IN ($3, $4) AND NOT deleted AND EXISTS (SELECT 1 FROM u WHERE u.id = t.id)",
		"UPDATE t set[v=$1] where[id = <ANY($2) {$2}> & fence IN <($3, $4) {$3 $4}> & ?~<NOT deleted> & ?EXISTS <(SELECT 1 FROM u WHERE u.id = t.id)>] params[$1 $2 $3 $4]"},
	{"case and parenthesised and",
		"UPDATE t SET v = CASE WHEN a = 1 AND b = 2 THEN 1 ELSE 2 END WHERE (a = 1 AND b = 2) AND ((c = 3))",
		"UPDATE t set[v=<CASE WHEN a = 1 AND b = 2 THEN 1 ELSE 2 END>] where[a = 1 & b = 2 & c = 3]"},
	{"top level or",
		"UPDATE t SET v = 1 WHERE a = 1 OR b = 2 AND c = 3",
		"UPDATE t set[v=1] where[?(a = 1 OR ~<b = 2 AND c = 3>)]"},
	{"nested or flattens",
		"UPDATE t SET a = 1 WHERE (a = 1 OR (b = 2 OR c = 3))",
		"UPDATE t set[a=1] where[(a = 1 OR b = 2 OR c = 3)]"},
	{"not group",
		"UPDATE t SET a = 1 WHERE NOT (a = 1 OR b = 2)",
		"UPDATE t set[a=1] where[?~<NOT (a = 1 OR b = 2)>]"},
	{"operators",
		"UPDATE t SET v = 1 WHERE fence IS DISTINCT FROM $1 AND g IS NOT NULL AND h <=> $2 AND x == 1 AND y != 2 AND z LIKE 'a%'",
		"UPDATE t set[v=1] where[fence IS DISTINCT FROM $1 & g IS NOT NULL & h IS NOT DISTINCT FROM $2 & x = 1 & y != 2 & z LIKE 'a%'] params[$1 $2]"},
	{"between like in",
		"UPDATE t SET a = 1 WHERE x BETWEEN 1 AND 2 AND y NOT BETWEEN 3 AND 4 AND z NOT IN (1) AND w NOT LIKE 'x' AND q ILIKE 'y'",
		"UPDATE t set[a=1] where[x BETWEEN <1 AND 2> & y NOT BETWEEN <3 AND 4> & z NOT IN 1 & w NOT LIKE 'x' & q ILIKE 'y']"},
	{"postfix null",
		"UPDATE t SET a = 1 WHERE f isnull AND g notnull AND h IS TRUE",
		"UPDATE t set[a=1] where[f IS NULL & g IS NOT NULL & ~<h IS TRUE>]"},
	{"escape strings cast coalesce",
		"UPDATE t SET v = E'it\\'s ?', w = 'a''b ?' WHERE id = CAST(? AS INT) AND fence < COALESCE(?, 0) + 1",
		"UPDATE t set[v=E'it\\'s ?', w='a''b ?'] where[id = ?1 & fence < <COALESCE(?, 0) + 1 {?2}>] params[?1 ?2] calls[coalesce]"},
	{"system variable and casts",
		"SELECT @@identity; SELECT 1::int, x::text FROM t WHERE a = :a::int",
		"SELECT cols[@@identity] ;; SELECT t cols[1::int, x] where[a = :a] params[:a]"},
	{"mysql backslash string",
		"UPDATE t SET v = 1 WHERE id = 'it\\'s ?' AND f = ?",
		"UPDATE t set[v=1] where[id = 'it\\'s ?' & f = ?1] params[?1]"},
	{"nested comment",
		"/* a /* nested ? */ comment */ UPDATE t SET v = ? WHERE id = ?",
		"UPDATE t set[v=?1] where[id = ?2] params[?1 ?2]"},
	{"arrays not brackets",
		"SELECT '{1,2}'::int[], arr[1] FROM t WHERE x = ANY(ARRAY[1,2])",
		"SELECT t cols['{1,2}'::int[], arr[1]] where[x = <ANY(ARRAY[1,2])>]"},
	{"literals and sqlite numbered",
		"UPDATE t SET v = -1, w = NULL, x = TRUE, y = 'str', z = 1.5e3 WHERE id = ?1 AND f = ?2",
		"UPDATE t set[v=-1, w=NULL, x=TRUE, y='str', z=1.5e3] where[id = $1 & f = $2] params[$1 $2]"},
	{"mysql row alias",
		"INSERT INTO t (id, v) VALUES (?, ?) AS new ON DUPLICATE KEY UPDATE v = new.v",
		"INSERT t set[id=?1, v=?2] ondupkey cset[v=new.v] params[?1 ?2]"},
	{"mysql insert set",
		"INSERT INTO t SET id = ?, v = ? ON DUPLICATE KEY UPDATE v = VALUES(v)",
		"INSERT t set[id=?1, v=?2] ondupkey cset[v=values(v)] params[?1 ?2]"},
	{"table hint",
		"UPDATE t WITH (ROWLOCK) SET v = @v WHERE id = @id",
		"UPDATE t set[v=:v] where[id = :id] params[:v :id]"},
	{"delete without from",
		"DELETE t WHERE id = @id",
		"DELETE t where[id = :id] params[:id]"},
	{"delete top output",
		"DELETE TOP (10) FROM t OUTPUT deleted.id WHERE id < @max",
		"DELETE t where[id < :max] ret[id] params[:max]"},
	{"select top",
		"SELECT TOP 1 id FROM [t] WHERE x = @x",
		"SELECT t cols[id] where[x = :x] params[:x]"},
	{"other statements",
		"CREATE TABLE t (id int primary key, fence bigint); SET search_path = public; CALL proc($1)",
		"OTHER ;; OTHER ;; OTHER params[$1] calls[proc]"},
	{"insert select on conflict",
		"INSERT INTO t (a, b) SELECT x, y FROM u JOIN w ON u.id = w.id ON CONFLICT (a) DO UPDATE SET b = excluded.b WHERE t.f < excluded.f RETURNING a",
		"INSERT t onconflict cset[b=excluded.b] cwhere[t.f < excluded.f] ret[a] partial"},
	{"union",
		"SELECT a FROM t WHERE x = ? UNION SELECT b FROM u WHERE y = ?",
		"SELECT t cols[a] where[x = ?1] params[?1 ?2] partial"},
	{"subqueries",
		"UPDATE t SET v = (SELECT max(v) FROM u WHERE u.id = $1) WHERE fence < (SELECT f FROM g WHERE id = $2)",
		"UPDATE t set[v=<(SELECT max(v) FROM u WHERE u.id = $1) {$1}>] where[?fence < <(SELECT f FROM g WHERE id = $2) {$2}>] params[$1 $2] calls[max]"},
	{"lower case",
		"select * from t where id=$1 and fence<$2::int8 for update",
		"SELECT t cols[*] where[id = $1 & fence < $2] lock[FOR UPDATE] params[$1 $2]"},
	{"sqlx names",
		"SELECT :name, :user.id, x::text, $1",
		"SELECT cols[:name, :user.id, x, $1] params[:name :user.id $1]"},
	{"returning alias",
		"INSERT INTO t (a, b) VALUES (DEFAULT, $1) RETURNING id AS new_id, a + 1",
		"INSERT t set[a=<DEFAULT>, b=$1] ret[new_id, a + 1] params[$1]"},
	{"dangling and",
		"UPDATE t SET v = 1 WHERE id = $1 AND",
		"UPDATE t set[v=1] where[id = $1] params[$1] partial"},
	{"missing set",
		"UPDATE SET v = 1",
		"UPDATE set[v=1] partial"},
	{"default values",
		"INSERT INTO t DEFAULT VALUES",
		"INSERT t"},
	{"parenthesised select",
		"(SELECT 1)",
		"UNKNOWN partial"},
	{"quote escapes in identifiers",
		"UPDATE t SET \"a\"\"b\" = 1 WHERE `x``y` = 2 AND [p]]q] = 3",
		"UPDATE t set[a\"b=1] where[x`y = 2 & p]q = 3]"},
	{"mysql hash comment",
		"UPDATE t SET a = 1 WHERE a = ? # mysql comment ?",
		"UPDATE t set[a=1] where[a = ?1] params[?1]"},
	{"sqlite concatenated placeholder",
		"SELECT id FROM t WHERE name LIKE '%'||?||'%' AND id = ?",
		"SELECT t cols[id] where[name LIKE <'%'||?||'%' {?1}> & id = ?2] params[?1 ?2]"},
	// CQL (Cassandra): the IF clause of a lightweight transaction.
	{"cql update if",
		"UPDATE executions SET shard = ?, range_id = ? WHERE shard_id = ? and type = ? IF range_id = ?",
		"UPDATE executions set[shard=?1, range_id=?2] where[shard_id = ?3 & type = ?4] if[range_id = ?5] params[?1 ?2 ?3 ?4 ?5]"},
	{"cql update using ttl if and",
		"UPDATE ks.leases USING TTL 30 SET owner = ?, fence = ? WHERE name = ? IF fence < ? AND owner != ?",
		"UPDATE ks.leases set[owner=?1, fence=?2] where[name = ?3] if[fence < ?4 & owner != ?5] params[?1 ?2 ?3 ?4 ?5]"},
	{"cql update if exists",
		"UPDATE t SET v = ? WHERE k = ? IF EXISTS",
		"UPDATE t set[v=?1] where[k = ?2] ifexists params[?1 ?2]"},
	{"cql insert if not exists using ttl",
		"INSERT INTO executions (shard_id, range_id) VALUES(?, ?) IF NOT EXISTS USING TTL 60",
		"INSERT executions set[shard_id=?1, range_id=?2] nothing ifnotexists params[?1 ?2]"},
	{"cql insert using ttl",
		"INSERT INTO t (k, v) VALUES (?, ?) USING TTL ?",
		"INSERT t set[k=?1, v=?2] params[?1 ?2 ?3]"},
	{"cql delete columns if",
		"DELETE data, meta FROM t USING TIMESTAMP ? WHERE k = ? IF fence = ?",
		"DELETE t where[k = ?2] if[fence = ?3] params[?1 ?2 ?3]"},
	{"cql delete if exists",
		"DELETE FROM t WHERE k = ? IF EXISTS",
		"DELETE t where[k = ?1] ifexists params[?1]"},
	{"cql user-defined type literal",
		"UPDATE jobs SET state = {owner: ?, step: ?}, epoch = ? WHERE job_id = ? IF epoch < ?",
		"UPDATE jobs set[state=<{owner: ?, step: ?} {?1 ?2}>, epoch=?3] where[job_id = ?4] if[epoch < ?5] params[?1 ?2 ?3 ?4 ?5]"},
	{"cql map literal in values",
		"INSERT INTO jobs (job_id, tags, epoch) VALUES (?, {'a': ?, 'b': 2}, ?) IF NOT EXISTS",
		"INSERT jobs set[job_id=?1, tags=<{'a': ?, 'b': 2} {?2}>, epoch=?3] nothing ifnotexists params[?1 ?2 ?3]"},
	{"unbalanced brace is an operator",
		"UPDATE t SET a = { WHERE k = ? IF f = ?",
		"UPDATE t set[a=<{>] where[k = ?1] if[f = ?2] params[?1 ?2]"},
	{"mysql if function is not a clause",
		"UPDATE t SET v = IF(fence < ?, ?, v) WHERE id = ?",
		"UPDATE t set[v=<IF(fence < ?, ?, v) {?1 ?2}>] where[id = ?3] params[?1 ?2 ?3] calls[if]"},
}

func TestParse(t *testing.T) {
	for _, tc := range parseCases {
		t.Run(tc.name, func(t *testing.T) {
			stmts, err := Parse(tc.sql)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tc.sql, err)
			}
			if got := describeAll(stmts); got != tc.want {
				t.Errorf("Parse(%q)\n got: %s\nwant: %s", tc.sql, got, tc.want)
			}
			checkInvariants(t, tc.sql, stmts)
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, sql := range []string{
		"",
		"   -- only a comment",
		";;;",
		"UPDATE t SET v = 'unterminated",
		"UPDATE t SET v = 1 /* unterminated",
		`UPDATE "t SET v = 1`,
		"DO $tag$ body",
		"UPDATE t SET v = (1",
		"UPDATE t SET v = 1)",
		strings.Repeat("(", MaxNesting+1) + "1" + strings.Repeat(")", MaxNesting+1),
	} {
		if stmts, err := Parse(sql); err == nil {
			t.Errorf("Parse(%q) = %s, want error", sql, describeAll(stmts))
		}
	}
}

func TestSwappedOperands(t *testing.T) {
	stmts, err := Parse("UPDATE t SET a = 1 WHERE $2 > fence_token")
	if err != nil {
		t.Fatal(err)
	}
	c := stmts[0].Where[0].Or[0]
	if len(c.Left.Params) != 1 || c.Left.Params[0].Index != 2 || !c.Left.IsParam || c.Right.Column != "fence_token" || c.Op != ">" {
		t.Errorf("got %+v", c)
	}
}

func TestOrGroup(t *testing.T) {
	sql := "UPDATE t SET v = @v, fence = @tok WHERE id = @id AND (fence IS NULL OR fence < @tok)"
	stmts, err := Parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	w := stmts[0].Where
	if len(w) != 2 || len(w[1].Or) != 2 || w[1].Unknown {
		t.Fatalf("got %+v", w)
	}
	if w[1].Text != "(fence IS NULL OR fence < @tok)" || sql[w[1].Offset] != '(' {
		t.Errorf("conjunct text %q at %d", w[1].Text, w[1].Offset)
	}
	if alt := w[1].Or[1]; alt.Right.Params[0].Name != "tok" || alt.Text != "fence < @tok" {
		t.Errorf("second alternative %+v", alt)
	}
}

func TestOffsets(t *testing.T) {
	sql := "BEGIN; UPDATE a SET x = $1 WHERE id = $2; COMMIT"
	stmts, err := Parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	up := stmts[1]
	if up.Text != "UPDATE a SET x = $1 WHERE id = $2" || up.Offset != strings.Index(sql, "UPDATE") {
		t.Errorf("statement %q at %d", up.Text, up.Offset)
	}
	if got := up.Params[1].Offset; got != strings.LastIndex(sql, "$2") {
		t.Errorf("$2 at %d", got)
	}
	if a := up.Set[0]; a.Offset != strings.Index(sql, "x =") || a.Value.Text != "$1" {
		t.Errorf("assignment %+v", a)
	}
}

func TestOrdinalsSpanStatements(t *testing.T) {
	stmts, err := Parse("UPDATE a SET x = ? WHERE id = ?; UPDATE b SET y = ? WHERE id = ?")
	if err != nil {
		t.Fatal(err)
	}
	if got := params(stmts[1].Params); got != "?3 ?4" {
		t.Errorf("second statement params %s, want ?3 ?4", got)
	}
}

func TestIsWrite(t *testing.T) {
	for v, want := range map[Verb]bool{Insert: true, Update: true, Delete: true, Merge: true, Select: false, Other: false, Unknown: false} {
		if v.IsWrite() != want {
			t.Errorf("%q.IsWrite() = %v", v, !want)
		}
	}
}
