package libs

import (
	"context"
	"database/sql"
	"time"

	"cloud.google.com/go/storage"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
	"github.com/hashicorp/consul/api"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// The entries of rules/' name and value tables that no other case uses:
// the prepares whose SQL a statement carries, the GCS handle methods and
// preconditions, the Azure access conditions, the consul verbs that make
// a transaction conditional.

func sqlPreparesBad(ctx context.Context, m *concurrency.Mutex, db *sql.DB, conn *sql.Conn, body, id string) error {
	const q = "UPDATE docs SET body = $1 WHERE id = $2"
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if st, err := tx.Prepare(q); err == nil {
		st.Exec(body, id) // want `SQL write via st.Exec to docs under the concurrency.Mutex m is not fenced`
	}
	if st, err := tx.PrepareContext(ctx, q); err == nil {
		st.ExecContext(ctx, body, id) // want `SQL write via st.ExecContext to docs under the concurrency.Mutex m is not fenced`
	}
	if st, err := conn.PrepareContext(ctx, q); err == nil {
		st.ExecContext(ctx, body, id) // want `SQL write via st.ExecContext to docs under the concurrency.Mutex m is not fenced`
	}
	if st, err := db.Prepare(q); err == nil {
		tx.Stmt(st).Exec(body, id) // want `SQL write via tx.Stmt\(st\).Exec to docs under the concurrency.Mutex m is not fenced`
	}
	return tx.Commit()
}

func sqlPreparesGood(ctx context.Context, m *concurrency.Mutex, db *sql.DB, body, id string) error {
	st, err := db.Prepare("UPDATE docs SET body = $1, fence = $3 WHERE id = $2 AND fence < $3")
	if err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// ok: the statement rebound to the transaction carries the fenced SQL
	if _, err := tx.Stmt(st).Exec(body, id, m.Header().Revision); err != nil {
		return err
	}
	return tx.Commit()
}

func gcsHandleMethodsBad(ctx context.Context, m *concurrency.Mutex, client *storage.Client, key []byte) error {
	obj := client.Bucket("reports").Object("daily/latest.json")
	// handle methods that change how, not whether, the object is written
	w := obj.Key(key).ReadCompressed(true).Retryer().OverrideUnlockedRetention(true).NewWriter(ctx) // want `GCS write via .*NewWriter to daily/latest.json under the concurrency.Mutex m is not fenced: it has no If\(Conditions\{...\}\) precondition`
	return w.Close()
}

func gcsHandleMethodsGood(ctx context.Context, m *concurrency.Mutex, client *storage.Client, gen, metagen int64) error {
	b := client.Bucket("reports")
	// ok: one generation: a delete of exactly it
	if err := b.Object("daily/old.json").SoftDeleted().Generation(gen).Delete(ctx); err != nil {
		return err
	}
	// ok: conditioned on the metageneration read under the lock
	if _, err := b.Object("daily/a.json").If(storage.Conditions{MetagenerationMatch: metagen}).Update(ctx, storage.ObjectAttrsToUpdate{}); err != nil {
		return err
	}
	// ok: a precondition the service evaluates
	if _, err := b.Object("daily/b.json").If(storage.Conditions{GenerationNotMatch: gen}).Update(ctx, storage.ObjectAttrsToUpdate{}); err != nil {
		return err
	}
	// ok: as above
	_, err := b.Object("daily/c.json").If(storage.Conditions{MetagenerationNotMatch: metagen}).Update(ctx, storage.ObjectAttrsToUpdate{})
	return err
}

func azureConditionsGood(ctx context.Context, m *concurrency.Mutex, client *azblob.Client, data []byte, tags string, since time.Time) error {
	// ok: the service checks the blob's tags
	if _, err := client.UploadBuffer(ctx, "reports", "daily.json", data, &azblob.UploadBufferOptions{
		AccessConditions: &blob.AccessConditions{ModifiedAccessConditions: &blob.ModifiedAccessConditions{IfTags: &tags}},
	}); err != nil {
		return err
	}
	// ok: the service rejects the write if the blob changed since
	_, err := client.UploadBuffer(ctx, "reports", "daily.json", data, &azblob.UploadBufferOptions{
		AccessConditions: &blob.AccessConditions{ModifiedAccessConditions: &blob.ModifiedAccessConditions{IfUnmodifiedSince: &since}},
	})
	return err
}

// The consul transaction verbs that have the store check a condition,
// under the consul lock (a blind transaction is in coord.go).
func consulVerbsGood(kv *api.KV, lock *api.Lock, session string, idx uint64) error {
	// ok: a CAS on the index read under the lock
	if _, _, _, err := kv.Txn(api.KVTxnOps{&api.KVTxnOp{Verb: api.KVCAS, Key: "service/config", Value: []byte("x"), Index: idx}}, nil); err != nil {
		return err
	}
	// ok: a delete conditioned on the index
	if _, _, _, err := kv.Txn(api.KVTxnOps{&api.KVTxnOp{Verb: api.KVDeleteCAS, Key: "service/config", Index: idx}}, nil); err != nil {
		return err
	}
	// ok: the store checks the index
	if _, _, _, err := kv.Txn(api.KVTxnOps{&api.KVTxnOp{Verb: api.KVCheckIndex, Key: "service/leader", Index: idx}, &api.KVTxnOp{Verb: api.KVSet, Key: "service/config", Value: []byte("x")}}, nil); err != nil {
		return err
	}
	// ok: the store checks that the key does not exist
	if _, _, _, err := kv.Txn(api.KVTxnOps{&api.KVTxnOp{Verb: api.KVCheckNotExists, Key: "service/claimed"}, &api.KVTxnOp{Verb: api.KVSet, Key: "service/claimed", Value: []byte("me")}}, nil); err != nil {
		return err
	}
	// ok: a lock operation is conditioned on the session
	if _, _, _, err := kv.Txn(api.KVTxnOps{&api.KVTxnOp{Verb: api.KVLock, Key: "service/owner", Session: session}}, nil); err != nil {
		return err
	}
	// ok: as above
	_, _, _, err := kv.Txn(api.KVTxnOps{&api.KVTxnOp{Verb: api.KVUnlock, Key: "service/owner", Session: session}}, nil)
	return err
}
