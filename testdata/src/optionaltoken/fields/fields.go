// Package fields exercises lease and request fields that can lose the token.
package fields

import (
	"context"
	"database/sql"
	"time"
)

// DocLease is lease-shaped, its token a pointer.
type DocLease struct {
	Resource string
	Token    *int64 // want `fencing token field Token of lease DocLease is a pointer: it can be nil and the write goes unfenced; make it a value`
}

// ok: the token by value, no omitempty
type GoodLease struct {
	Resource string `json:"resource,omitempty"`
	Token    int64  `json:"token"`
}

// WireLease drops a zero token when encoded.
type WireLease struct {
	Resource  string
	Fence     int64 `json:"fence,omitempty"` // want `fencing token field Fence of lease WireLease is tagged json omitempty: a zero or missing token vanishes on the wire and the write goes unfenced; drop omitempty`
	ExpiresAt time.Time
}

// WriteRequest is a request by name.
type WriteRequest struct {
	Key          string `json:"key"`
	FencingToken uint64 `yaml:"fencing_token,omitempty"` // want `field FencingToken of request WriteRequest is tagged yaml omitempty`
	Epoch        int64  `db:"epoch,omitempty"`           // want `field Epoch of request WriteRequest is tagged db omitempty`
}

// ok: request with the token always encoded; an auth token string may be omitted
type PutRequest struct {
	Key   string `json:"key"`
	Fence int64  `json:"fence"`
	Token string `json:"token,omitempty"`
}

// ok: not a lease or request, and not passed to a write helper
type Stats struct {
	Epoch *int64 `json:"epoch,omitempty"`
}

// job is passed to a write helper, so it is a request.
type job struct {
	id    string
	fence *int64 // want `fencing token field fence of request job is a pointer`
}

func runJob(ctx context.Context, db *sql.DB, j job) error {
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2", j.id, *j.fence)
	return err
}

// ok: the same shape with the token by value
type goodJob struct {
	id    string
	fence int64
}

func runGoodJob(ctx context.Context, db *sql.DB, j goodJob) error {
	_, err := db.ExecContext(ctx, "UPDATE jobs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2", j.id, j.fence)
	return err
}
