// Package unfencedwrite defines an Analyzer that reports writes to shared
// storage made inside a distributed-lock scope whose own condition does not
// compare the stored fence with the lease's fencing token.
package unfencedwrite
