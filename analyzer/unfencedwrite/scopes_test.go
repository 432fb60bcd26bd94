package unfencedwrite_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzer/unfencedwrite"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestForwardingHelpers: helpers whose SQL, script or arguments are
// parameters are judged at each call site with the caller's statement and
// arguments, through two levels and across packages (issue 13 item 3).
func TestForwardingHelpers(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/forward", "unfencedwrite/forward/app")
}

// TestScopes: scopes reached through closures defined before the lock,
// two levels of with-lock helpers, a lease kept in a field, and a lock
// held in the receiver (issue 13 item 4).
func TestScopes(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/scopes")
}

// TestReceiverLock: a type whose method takes a lock and keeps it in the
// receiver runs its other exported methods under it, up to their first
// release (issue 13 item 4, terraform's remote-state clients).
func TestReceiverLock(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/recvlock")
}

// TestVendoredLibraries: vendored copies of a modelled library (vendor/,
// Godeps/_workspace/src/) are the library (issue 13 item 4).
func TestVendoredLibraries(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/vendored", "unfencedwrite/godeps")
}

// TestSprintfSQL: SQL built by fmt.Sprintf from a constant format that
// fills in names is read like constant SQL; a formatted value is not.
func TestSprintfSQL(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/sprintfsql")
}

// TestCreateIfAbsentLocks: a create-if-absent write in a function named
// like an acquire takes a lock (S3 lock object, DynamoDB lock item, GCS
// lock object); a Lock/Unlock pair makes the type its holder.
func TestCreateIfAbsentLocks(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/createlock")
}

// TestEtcdTxnLocks: an etcd Txn that puts a key with a lease if it is
// absent takes a lock (token: the response's Header.Revision), until a
// Delete of the key or a Revoke of the lease; without a lease, or with
// another compare, it is a conditional write.
func TestEtcdTxnLocks(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/etcdtxnlock")
}
