// Package fence holds the in-house lease type the other packages receive
// from the lock service: a resource name, the fencing token the lock
// service issued with it, and when the lease runs out.
package fence

import "time"

// Lease is a granted lock. Token increases with every grant of Resource, so
// storage can reject a write carrying a smaller token than the last one it
// accepted (a fencing token).
type Lease struct {
	Resource  string
	Token     int64
	ExpiresAt time.Time
}

// Valid reports whether the lease has not yet expired at now. It is a
// client-side check only: a paused process can pass it with a stale lease.
func (l Lease) Valid(now time.Time) bool { return now.Before(l.ExpiresAt) }
