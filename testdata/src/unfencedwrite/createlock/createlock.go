// Package createlock exercises locks taken by a create-if-absent write in
// a function named like an acquire (issue 13 item 4): an S3 lock object
// (IfNoneMatch "*"), a DynamoDB lock item (attribute_not_exists), a GCS
// lock object (DoesNotExist), the shape of terraform's S3 and GCS
// remote-state clients, whose Lock() returns the lock's ID and whose Put()
// writes the state with no fence.
package createlock

import (
	"bytes"
	"context"
	"errors"
	"strconv"

	"cloud.google.com/go/storage"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// S3State keeps the state in S3 and locks it with a lock object.
type S3State struct {
	S3     *s3.Client
	Bucket string
	Path   string
}

// LockInfo describes who holds the lock.
type LockInfo struct {
	ID string
}

func (c *S3State) Lock(ctx context.Context, info *LockInfo) (string, error) {
	if err := c.lockWithFile(ctx, info.ID); err != nil {
		return "", err
	}
	return info.ID, nil
}

func (c *S3State) lockWithFile(ctx context.Context, id string) error {
	_, err := c.S3.PutObject(ctx, &s3.PutObjectInput{
		Bucket:      aws.String(c.Bucket),
		Key:         aws.String(c.Path + ".lock"),
		Body:        bytes.NewReader([]byte(id)),
		IfNoneMatch: aws.String("*"),
	})
	return err
}

func (c *S3State) Unlock(ctx context.Context, id string) error {
	_, err := c.S3.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(c.Bucket), Key: aws.String(c.Path + ".lock")})
	return err
}

func (c *S3State) Put(ctx context.Context, data []byte) error {
	_, err := c.S3.PutObject(ctx, &s3.PutObjectInput{ // want `S3 write via c.S3.PutObject under the S3 lock object created by lockWithFile held in the S3State by Lock is not fenced: it has no IfMatch/IfNoneMatch precondition`
		Bucket: aws.String(c.Bucket),
		Key:    aws.String(c.Path),
		Body:   bytes.NewReader(data),
	})
	return err
}

// PutIfMatch writes only over the version it read: ok.
func (c *S3State) PutIfMatch(ctx context.Context, data []byte, etag string) error {
	_, err := c.S3.PutObject(ctx, &s3.PutObjectInput{
		Bucket:  aws.String(c.Bucket),
		Key:     aws.String(c.Path),
		Body:    bytes.NewReader(data),
		IfMatch: aws.String(etag),
	})
	return err
}

// saveReportOnce creates a report that must not exist yet and then writes
// an index: a create-only write in a function not named like an acquire
// takes no lock, so the index write is in no scope.
func saveReportOnce(ctx context.Context, c *s3.Client, name string, body []byte) error {
	if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("reports"), Key: aws.String(name), Body: bytes.NewReader(body), IfNoneMatch: aws.String("*")}); err != nil {
		return err
	}
	// ok: no lock is held here
	_, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("reports"), Key: aws.String("index"), Body: bytes.NewReader([]byte(name))})
	return err
}

// acquireItemLock takes a DynamoDB lock item.
func acquireItemLock(ctx context.Context, db *dynamodb.Client, name string) error {
	_, err := db.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:           aws.String("locks"),
		Item:                map[string]types.AttributeValue{"LockID": &types.AttributeValueMemberS{Value: name}},
		ConditionExpression: aws.String("attribute_not_exists(LockID)"),
	})
	return err
}

func runUnderItemLock(ctx context.Context, db *dynamodb.Client, job string) error {
	if err := acquireItemLock(ctx, db, job); err != nil {
		return err
	}
	_, err := db.PutItem(ctx, &dynamodb.PutItemInput{ // want `DynamoDB write via db.PutItem to jobs under the DynamoDB lock object created by acquireItemLock is not fenced: it has no ConditionExpression`
		TableName: aws.String("jobs"),
		Item:      map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: job}},
	})
	return err
}

// createUser creates an item that must not exist yet, then writes an
// audit item: not a lock (its name says no acquire), so no scope.
func createUser(ctx context.Context, db *dynamodb.Client, id string) error {
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:           aws.String("users"),
		Item:                map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: id}},
		ConditionExpression: aws.String("attribute_not_exists(id)"),
	}); err != nil {
		return err
	}
	// ok: no lock is held here
	_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("audit"), Item: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: id}}})
	return err
}

// GCSState locks with a lock object created only if absent; Lock returns
// its generation as the lock ID.
type GCSState struct {
	Bkt *storage.BucketHandle
}

func (c *GCSState) Lock(ctx context.Context) (string, error) {
	w := c.Bkt.Object("state.lock").If(storage.Conditions{DoesNotExist: true}).NewWriter(ctx)
	if _, err := w.Write([]byte("me")); err != nil {
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	return strconv.FormatInt(w.Attrs().Generation, 10), nil
}

func (c *GCSState) Unlock(ctx context.Context, id string) error {
	gen, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return errors.New("bad lock id")
	}
	return c.Bkt.Object("state.lock").If(storage.Conditions{GenerationMatch: gen}).Delete(ctx)
}

func (c *GCSState) Put(ctx context.Context, data []byte) error {
	w := c.Bkt.Object("state").NewWriter(ctx) // want `GCS write via c.Bkt.Object\("state"\).NewWriter to state under the GCS lock object created by Lock held in the GCSState by Lock is not fenced`
	if _, err := w.Write(data); err != nil {
		return err
	}
	return w.Close()
}

// Get reads the state: ok.
func (c *GCSState) Get(ctx context.Context) string {
	return c.Bkt.Object("state").ObjectName()
}

// KeyedStore locks whatever key it is given: its other methods are not
// under one lock (a caller that locks a key and then writes is a scope of
// its own).
type KeyedStore struct {
	S3     *s3.Client
	Bucket string
}

func (k *KeyedStore) Lock(ctx context.Context, key string) error {
	_, err := k.S3.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(k.Bucket), Key: aws.String(key + ".lock"), IfNoneMatch: aws.String("*")})
	return err
}

func (k *KeyedStore) Unlock(ctx context.Context, key string) error {
	_, err := k.S3.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(k.Bucket), Key: aws.String(key + ".lock")})
	return err
}

func (k *KeyedStore) Set(ctx context.Context, key string, data []byte) error {
	// ok: Set is not called under a lock of the store's own
	_, err := k.S3.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(k.Bucket), Key: aws.String(key), Body: bytes.NewReader(data)})
	return err
}

func updateUnderKeyLock(ctx context.Context, k *KeyedStore, c *s3.Client, data []byte) error {
	if err := k.Lock(ctx, "report"); err != nil {
		return err
	}
	defer k.Unlock(ctx, "report")
	_, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("b"), Key: aws.String("report"), Body: bytes.NewReader(data)}) // want `S3 write via c.PutObject to report under the S3 lock object created by Lock is not fenced`
	return err
}

// Truncate empties the state; resetWorkspace calls it on a client it
// never locked, so Truncate is not only what the lock's holder calls.
func (c *GCSState) Truncate(ctx context.Context) error {
	// ok: the package calls Truncate without the lock
	w := c.Bkt.Object("state").NewWriter(ctx)
	return w.Close()
}

func resetWorkspace(ctx context.Context, c *GCSState) error {
	return c.Truncate(ctx)
}

// Delete removes the state outright: callers do that instead of a locked
// update, not between Lock and Unlock.
func (c *GCSState) Delete(ctx context.Context) error {
	// ok: a destroy-named method is not judged under the holder's lock
	return c.Bkt.Object("state").Delete(ctx)
}

// purgeJobs writes under the lock it takes through S3State.Lock: outside
// a test that is a write under the lock.
func purgeJobs(ctx context.Context, c *S3State, db *dynamodb.Client) error {
	if _, err := c.Lock(ctx, &LockInfo{ID: "a"}); err != nil {
		return err
	}
	_, err := db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("jobs")}) // want `DynamoDB write via db.DeleteItem to jobs under the S3 lock object created by lockWithFile is not fenced`
	return err
}

// GCSHelperState reaches its objects through helpers, as terraform's gcs
// client does (c.stateFile(), c.lockFile()).
type GCSHelperState struct {
	Bkt       *storage.BucketHandle
	StatePath string
	LockPath  string
	Key       []byte
}

func (c *GCSHelperState) stateObj() *storage.ObjectHandle {
	h := c.Bkt.Object(c.StatePath)
	if len(c.Key) > 0 {
		return h.Key(c.Key)
	}
	return h
}

func (c *GCSHelperState) lockObj() *storage.ObjectHandle {
	return c.Bkt.Object(c.LockPath)
}

func (c *GCSHelperState) Lock(ctx context.Context) (string, error) {
	w := c.lockObj().If(storage.Conditions{DoesNotExist: true}).NewWriter(ctx)
	err := func() error {
		if _, err := w.Write([]byte("me")); err != nil {
			return err
		}
		return w.Close() // commits the lock object: no release
	}()
	if err != nil {
		return "", err
	}
	return strconv.FormatInt(w.Attrs().Generation, 10), nil
}

func (c *GCSHelperState) Unlock(ctx context.Context, id string) error {
	gen, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return err
	}
	return c.lockObj().If(storage.Conditions{GenerationMatch: gen}).Delete(ctx)
}

func (c *GCSHelperState) Put(ctx context.Context, data []byte) error {
	w := c.stateObj().NewWriter(ctx) // want `GCS write via c.stateObj\(\).NewWriter under the GCS lock object created by Lock held in the GCSHelperState by Lock is not fenced`
	if _, err := w.Write(data); err != nil {
		return err
	}
	return w.Close()
}

// PutOver writes only over the generation it read: ok.
func (c *GCSHelperState) PutOver(ctx context.Context, data []byte, gen int64) error {
	w := c.stateObj().If(storage.Conditions{GenerationMatch: gen}).NewWriter(ctx)
	if _, err := w.Write(data); err != nil {
		return err
	}
	return w.Close()
}
