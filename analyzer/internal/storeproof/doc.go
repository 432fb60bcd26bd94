// Package storeproof holds what the etcd and Redis proofs share: it runs
// fencelint's engine over the repository's testdata (with pgproof's
// loader) and returns the writes of one store with their positions, and it
// reports the per-directory and total counts as pgproof does.
//
// The proofs live in a module of their own
// (github.com/fencelint/fencelint/analyzer/internal/storeproof, replaced
// to the root module at ../../..) because they need real servers and real
// client libraries that fencelint itself does not: etcd's server
// (go.etcd.io/etcd/server/v3/embed, with gRPC, bbolt and Raft), go-redis
// v9, redsync and redislock. In the root go.mod they would be downloaded
// by everyone who builds or imports fencelint; here only the proofs pay
// for them. `go test ./...` at the root does not enter this module:
// .ci/test.sh runs it explicitly (cd analyzer/internal/storeproof &&
// go test ./...).
//
//   - etcdproof: an embedded etcd (v3.7.3, the client's version) on
//     loopback; the frozen-worker scenario with real sessions, mutexes and
//     elections.
//   - redisproof: a redis-server process on loopback (Debian's 7.0 in CI);
//     the same scenario with SET NX, redsync and redislock locks and the
//     token minted as the runbook's acquire_with_fence.lua does, plus the
//     asynchronous-failover demonstration of weaktoken's INCR finding.
//
// Both skip without a server unless FENCELINT_INTEGRATION=require (as
// .ci/test.sh sets it), which makes a missing server a failure.
package storeproof
