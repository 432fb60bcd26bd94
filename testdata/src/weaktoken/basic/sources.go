package basic

import (
	"context"
	crand "crypto/rand"
	"database/sql"
	"math/big"
	"math/rand"
	randv2 "math/rand/v2"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// Every weak token source rules/ lists, as the fence of a SQL write in a
// function that holds a lease.

const fenceSQL = "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2"

func clockSourcesBad(ctx context.Context, db *sql.DB, lease *Lease, id string) {
	db.ExecContext(ctx, fenceSQL, id, time.Now().Unix())      // want `time.Now\(\).Unix\(\) is not a monotonic fencing token: wall-clock time is not monotonic across hosts and can step backwards; it is used as the fence of SQL write via db.ExecContext`
	db.ExecContext(ctx, fenceSQL, id, time.Now().UnixMilli()) // want `time.Now\(\).UnixMilli\(\) is not a monotonic fencing token: wall-clock time`
	db.ExecContext(ctx, fenceSQL, id, time.Now().UnixMicro()) // want `time.Now\(\).UnixMicro\(\) is not a monotonic fencing token: wall-clock time`
}

func randomSourcesBad(ctx context.Context, db *sql.DB, lease *Lease, id string) {
	db.ExecContext(ctx, fenceSQL, id, rand.Int())      // want `rand.Int\(\) is not a monotonic fencing token: a random number is not ordered across grants; it is used as the fence of SQL write via db.ExecContext`
	db.ExecContext(ctx, fenceSQL, id, rand.Uint64())   // want `rand.Uint64\(\) is not a monotonic fencing token: a random number`
	db.ExecContext(ctx, fenceSQL, id, randv2.Int())    // want `randv2.Int\(\) is not a monotonic fencing token: a random number`
	db.ExecContext(ctx, fenceSQL, id, randv2.Int64())  // want `randv2.Int64\(\) is not a monotonic fencing token: a random number`
	db.ExecContext(ctx, fenceSQL, id, randv2.Uint64()) // want `randv2.Uint64\(\) is not a monotonic fencing token: a random number`
}

func cryptoSourcesBad(ctx context.Context, db *sql.DB, lease *Lease, id string) {
	n, _ := crand.Int(crand.Reader, big.NewInt(1<<62)) // want `crand.Int\(crand.Reader, big.NewInt\(1 << 62\)\) is not a monotonic fencing token: a random number is not ordered across grants`
	db.ExecContext(ctx, fenceSQL, id, n.Int64())
	db.ExecContext(ctx, fenceSQL, id, crand.Text()) // want `crand.Text\(\) is not a monotonic fencing token: random text is not ordered across grants`
}

func uuidSourcesBad(ctx context.Context, db *sql.DB, lease *Lease, id string) {
	db.ExecContext(ctx, fenceSQL, id, uuid.New().String()) // want `uuid.New\(\) is not a monotonic fencing token: a UUID is random, not ordered across grants`
	u, _ := uuid.NewRandom()                               // want `uuid.NewRandom\(\) is not a monotonic fencing token: a UUID is random`
	db.ExecContext(ctx, fenceSQL, id, u.String())
}

func incrSourcesBad(ctx context.Context, rdb *redis.Client, db *sql.DB, lease *Lease, id string) {
	tok, _ := rdb.Incr(ctx, "fence:"+id).Result() // want `rdb.Incr\(ctx, "fence:" \+ id\) is not a monotonic fencing token: INCR is monotonic on one shard but can regress after an asynchronous failover; it is used as the fence of SQL write via db.ExecContext`
	db.ExecContext(ctx, fenceSQL, id, tok)
	tok2, _ := rdb.IncrBy(ctx, "fence:"+id, 1).Result() // want `rdb.IncrBy\(ctx, "fence:" \+ id, 1\) is not a monotonic fencing token: INCR is monotonic`
	db.ExecContext(ctx, fenceSQL, id, tok2)
}
