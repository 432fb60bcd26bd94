// Package redisproof proves fencelint's Redis verdicts against a real
// redis-server, and shows the weakness weaktoken reports for Redis INCR
// tokens.
//
// TestRedisProof starts redis-server (Debian's 7.0 in CI) on a free
// loopback port, without persistence, in a temporary directory, killed
// when the test ends. For every Redis write the engine judges in testdata
// (go-redis v9 and v8 commands, Eval, EvalSha and Script.Run scripts,
// under SET NX, redsync, redislock or a token-issuing lock) it replays the
// frozen-worker scenario: A acquires with a short TTL and is paused until
// the lock expires; B acquires and writes; then A writes. Locks that hand
// out a token mint it as the runbook's acquire_with_fence.lua does: SET
// lock NX PX ttl, then INCR of a fence counter, in one script. A write the
// engine calls fenced must leave Redis as B left it; one it calls
// unfenced must change it. A's refusal of an unfenced write counts as
// agreement only when B's same write, replayed in the same state, is
// refused too (SET NX of a key B holds: not the lock's doing).
//
// Only what the lock hands out (the token) and the data written differ
// between A and B; keys and compared values are the same for both. go-redis
// v8 writes are replayed with the v9 client (the same commands).
//
// TestRedisTokenRegressesAfterFailover runs a primary and a replica, the
// replica's link through a loopback relay that the test can stall: the
// primary grants token N to B while the relay holds the replication
// stream, the primary dies, the replica is promoted, and the next grant
// gets token N again: the used token is reissued.
//
// Without redis-server the tests skip, or fail under
// FENCELINT_INTEGRATION=require. Why the proof lives in a module of its
// own: see package storeproof.
package redisproof
