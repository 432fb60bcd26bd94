package lease

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// A parameter named fence is a fencing token by its name alone; epoch,
// generation, revision, token and tok name data too, and make a token only
// when a write of the function compares them.

func fenceParamUnusedBad(ctx context.Context, db *sql.DB, id string, fence int64) error {
	_, err := db.ExecContext(ctx, "UPDATE devices SET state = 'on' WHERE id = $1", id) // want `under the token parameter fence is not fenced`
	return err
}

func epochAsDataGood(ctx context.Context, db *sql.DB, id string, epoch int64) error {
	// ok: a unix time stored as data; nothing compares it
	_, err := db.ExecContext(ctx, "UPDATE devices SET last_seen_epoch = $2 WHERE id = $1", id, epoch)
	return err
}

func generationAsDataGood(ctx context.Context, db *sql.DB, name string, generation int) error {
	// ok: a model's generation number, stored
	_, err := db.ExecContext(ctx, "UPDATE models SET generation = $2 WHERE name = $1", name, generation)
	return err
}

func tokAsDataGood(ctx context.Context, db *sql.DB, docID string, tok int64) error {
	// ok: a count of lexer tokens
	_, err := db.ExecContext(ctx, "UPDATE docs SET token_count = $2 WHERE id = $1", docID, tok)
	return err
}

func epochComparedBad(ctx context.Context, db *sql.DB, id string, epoch int64) error {
	res, err := db.ExecContext(ctx, "UPDATE shards SET owner = 'me', epoch = $2 WHERE id = $1 AND epoch < $2", id, epoch)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return sql.ErrNoRows
	}
	// The first write compares epoch: it is this function's token, and
	// this write does not compare it.
	_, err = db.ExecContext(ctx, "UPDATE shard_stats SET moves = moves + 1 WHERE id = $1", id) // want `under the token parameter epoch is not fenced`
	return err
}

func retentionByEpochGood(ctx context.Context, db *sql.DB, epoch int64) error {
	// ok: created_epoch is a moment; comparing it with epoch is a cut-off
	// in time, not a fence, so epoch is no token and this no lock scope.
	if _, err := db.ExecContext(ctx, "DELETE FROM events WHERE created_epoch < $1", epoch); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE stats SET pruned = pruned + 1 WHERE id = 1")
	return err
}

func retentionThenFencedBad(ctx context.Context, db *sql.DB, epoch int64) error {
	// The twin: the same epoch also compared with the shard's epoch
	// column is a token; the retention delete is then under it, unfenced.
	res, err := db.ExecContext(ctx, "UPDATE shards SET epoch = $1 WHERE id = 1 AND epoch < $1", epoch)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return sql.ErrNoRows
	}
	_, err = db.ExecContext(ctx, "UPDATE stats SET pruned = pruned + 1 WHERE id = 1") // want `under the token parameter epoch is not fenced`
	return err
}

// tok compared in an etcd Txn's If (as a fixed-width string: etcd orders
// Values byte by byte, so an unpadded decimal would be fencepredicate's
// string-order defect) makes
// the helper a token-parameter scope, fenced by tok: a caller that passes
// its mutex's revision is fenced.
func publishFenced(ctx context.Context, kv clientv3.KV, tok int64, key, val string) error {
	ts := fmt.Sprintf("%020d", tok)
	resp, err := kv.Txn(ctx).
		If(clientv3.Compare(clientv3.Value(key+"/fence"), "<", ts)).
		Then(clientv3.OpPut(key, val), clientv3.OpPut(key+"/fence", ts)).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return errStale
	}
	return nil
}

var errStale = errors.New("superseded")

func publishUnderMutexGood(ctx context.Context, m *concurrency.Mutex, kv clientv3.KV, key, val string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the revision reaches publishFenced's tok
	return publishFenced(ctx, kv, m.Header().Revision, key, val)
}

func publishUnderMutexBad(ctx context.Context, m *concurrency.Mutex, kv clientv3.KV, key, val string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return publishFenced(ctx, kv, 7, key, val) // want `storage write via publishFenced under the etcd mutex is not fenced`
}

// token handed to a helper of the package whose parameter is named like a
// token as well: a token here too.
func saveWithTok(ctx context.Context, db *sql.DB, id string, tok int64) error {
	res, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', fence = $2 WHERE id = $1 AND fence < $2", id, tok)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errStale
	}
	return nil
}

func saveSwitchBad(ctx context.Context, db *sql.DB, id string, token int64) error {
	switch {
	case token == 0:
		_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x' WHERE id = $1", id) // want `under the token parameter token is not fenced`
		return err
	default:
		return saveWithTok(ctx, db, id, token)
	}
}
