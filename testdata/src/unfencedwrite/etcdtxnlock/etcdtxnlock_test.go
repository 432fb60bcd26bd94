package etcdtxnlock

import (
	"context"
	"database/sql"
	"testing"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// A test that holds the key itself, to see the code under test back off,
// takes no lock of the application's: nothing it writes is reported.
func TestContendedLock(t *testing.T) {
	ctx := context.Background()
	var cli *clientv3.Client
	var db *sql.DB
	grant, _ := cli.Grant(ctx, 5)
	resp, err := cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision("/locks/report"), "=", 0)).
		Then(clientv3.OpPut("/locks/report", "test", clientv3.WithLease(grant.ID))).
		Commit()
	if err != nil || !resp.Succeeded {
		t.Fatal(err)
	}
	_, _ = db.ExecContext(ctx, `DELETE FROM reports`) // ok: a fixture, in a test
}
