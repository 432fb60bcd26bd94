// Package params exercises token parameters taken in optional shapes.
package params

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
)

// Token is the named token type of Lease.
type Token uint64

// Lease is lease-shaped: its token has a named type.
type Lease struct {
	Resource string
	Token    Token
}

const fencedSQL = "UPDATE docs SET body = $1, fence = $3 WHERE id = $2 AND fence < $3"

func SaveDocPtr(ctx context.Context, db *sql.DB, id string, fence *int64) error { // want `fencing token parameter fence of SaveDocPtr is a pointer: a caller can pass nil and skip the fence; take it by value`
	if fence == nil {
		return nil
	}
	_, err := db.ExecContext(ctx, fencedSQL, "b", id, *fence)
	return err
}

// ok: the token is taken by value
func SaveDoc(ctx context.Context, db *sql.DB, id string, fence int64) error {
	_, err := db.ExecContext(ctx, fencedSQL, "b", id, fence)
	return err
}

func SaveTyped(ctx context.Context, db *sql.DB, id string, t *Token) error { // want `fencing token parameter t of SaveTyped is a pointer`
	_, err := db.ExecContext(ctx, fencedSQL, "b", id, *t)
	return err
}

// ok: the lease's token type by value
func SaveTypedGood(ctx context.Context, db *sql.DB, id string, t Token) error {
	_, err := db.ExecContext(ctx, fencedSQL, "b", id, t)
	return err
}

func SaveVariadic(ctx context.Context, db *sql.DB, id string, epoch ...int64) error { // want `fencing token parameter epoch of SaveVariadic is variadic: a caller can leave it out and skip the fence; make it a required parameter`
	_, err := db.ExecContext(ctx, fencedSQL, "b", id, epoch[0])
	return err
}

// ok: a required epoch, and a variadic of unrelated values
func SaveRequired(ctx context.Context, db *sql.DB, epoch int64, ids ...string) error {
	_, err := db.ExecContext(ctx, fencedSQL, "b", ids[0], epoch)
	return err
}

func SaveNullable(ctx context.Context, db *sql.DB, id string, fencingToken sql.NullInt64) error { // want `fencing token parameter fencingToken of SaveNullable is the nullable sql.NullInt64: a caller can pass it unset`
	_, err := db.ExecContext(ctx, fencedSQL, "b", id, fencingToken.Int64)
	return err
}

// ok: a nullable column value that is not the token
func SaveNote(ctx context.Context, db *sql.DB, id string, fenceToken int64, parent sql.NullInt64) error {
	_, err := db.ExecContext(ctx, fencedSQL, parent, id, fenceToken)
	return err
}

// Optional is a generic optional wrapper.
type Optional[T any] struct {
	V   T
	Set bool
}

func SaveOptional(ctx context.Context, db *sql.DB, id string, generation Optional[int64]) error { // want `fencing token parameter generation of SaveOptional is the nullable Optional\[int64\]`
	_, err := db.ExecContext(ctx, fencedSQL, "b", id, generation.V)
	return err
}

func SaveAny(ctx context.Context, db *sql.DB, id string, revision any) error { // want `fencing token parameter revision of SaveAny is any: a caller can pass nil and skip the fence; give it the token's integer type`
	_, err := db.ExecContext(ctx, fencedSQL, "b", id, revision)
	return err
}

// ok: any for a value that is not a token
func SaveValue(ctx context.Context, db *sql.DB, id string, value any, revision int64) error {
	_, err := db.ExecContext(ctx, fencedSQL, value, id, revision)
	return err
}

func WriteTok(ctx context.Context, db *sql.DB, id string, tok *int64) error { // want `fencing token parameter tok of WriteTok is a pointer`
	_, err := db.ExecContext(ctx, fencedSQL, "b", id, *tok)
	return err
}

// ok: a pointer to a count is not a token
func parseCount(count *int64) int64 {
	if count == nil {
		return -1
	}
	return *count
}

// ok: a pointer to the lease is fine, its token field is what matters
func SaveWithLease(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	_, err := db.ExecContext(ctx, fencedSQL, "b", id, lease.Token)
	return err
}

// ok: an auth token string, a limit pointer
func Fetch(ctx context.Context, db *sql.DB, token string, limit *int) error {
	_, err := db.ExecContext(ctx, "DELETE FROM sessions WHERE token = $1", token)
	return err
}

// Store is an interface whose method takes an optional token.
type Store interface {
	Put(ctx context.Context, key string, fence *uint64) error // want `fencing token parameter fence of Put is a pointer`
	// ok: by value
	Get(ctx context.Context, key string, fence uint64) ([]byte, error)
}

// ok: a pagination token, only JSON-encoded: nothing is written and no lock
// is held, so the name alone does not make it a fencing token
func serializeToken(token any) ([]byte, error) {
	return json.Marshal(token)
}

// ok: nor does it make a pointer that is only read a fencing token
func tokenOrZero(token *int64) int64 {
	if token == nil {
		return 0
	}
	return *token
}

// write's token reaches the fenced UPDATE's WHERE.
func write(ctx context.Context, db *sql.DB, token *int64) error { // want `fencing token parameter token of write is a pointer: a caller can pass nil and skip the fence`
	_, err := db.ExecContext(ctx, fencedSQL, "b", "id", *token)
	return err
}

// enqueue writes nothing here, but a caller hands it the lease's token.
func enqueue(q chan<- *Token, fence *Token) { // want `fencing token parameter fence of enqueue is a pointer`
	q <- fence
}

func enqueueLease(q chan<- *Token, l *Lease) {
	enqueue(q, &l.Token)
}

// ok: the same shape, but no caller passes it a lease's token
func enqueueCount(q chan<- *int64, fence *int64) {
	q <- fence
}

func countCaller(q chan<- *int64) {
	n := int64(3)
	enqueueCount(q, &n)
}

// DocStore is a store this package cannot see into.
type DocStore interface {
	SaveDoc(ctx context.Context, id string, fence int64) error
}

// SaveVia's token reaches a write through an interface method named like
// one.
func SaveVia(ctx context.Context, s DocStore, id string, fence *int64) error { // want `fencing token parameter fence of SaveVia is a pointer`
	return s.SaveDoc(ctx, id, *fence)
}

// ok: the same pointer handed to a method that does not write
func DescribeVia(s fmt.Stringer, fence *int64) string {
	if fence == nil {
		return s.String()
	}
	return s.String() + strconv.FormatInt(*fence, 10)
}
