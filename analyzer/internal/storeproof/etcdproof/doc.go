// Package etcdproof proves fencelint's etcd verdicts against a real etcd.
//
// TestEtcdProof starts etcd in-process (go.etcd.io/etcd/server/v3/embed,
// v3.7.3 like the client) on loopback ports chosen at run time, with its
// data in a temporary directory, and for every etcd write the engine
// judges in testdata (a Txn's Commit with If compares on CreateRevision,
// ModRevision, Version or Value, m.IsOwner(), a plain Put or Delete under a
// Mutex or an Election) replays the frozen-worker scenario with real
// sessions: A takes the Mutex (or wins the Election) and is paused (its
// session stops refreshing its lease: Session.Orphan); A's lease expires
// (TTL 1s, the key of its lock is deleted by etcd); B takes the lock and
// writes; then A writes with what its grant gave it (its m.IsOwner(),
// m.Key(), e.Rev(), Header().Revision). A write the engine calls fenced
// must fail (the Txn does not succeed); one it calls unfenced or
// recorded-only must land.
//
// Only what the lock hands out differs between A and B: every other value
// the write compares is the same for both (as in pgproof, where only the
// token differs), chosen so that B's write succeeds; the data they write
// differs, so that the proof can see whose write etcd kept. Why the proof
// lives in a module of its own: see package storeproof.
package etcdproof
