package basic

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/google/uuid"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// A random value in an object's name makes every write a new object:
// it cannot overwrite a newer holder's data, and is no weak fence. A
// clock reading in a name stays weak (readers trust the order of names),
// and a random value compared as a fence stays weak.

func putObject(ctx context.Context, client *s3.Client, key string, body []byte) error {
	_, err := client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("b"), Key: aws.String(key)})
	return err
}

func saveFenced(ctx context.Context, db *sql.DB, id string, fence string) error {
	_, err := db.ExecContext(ctx, "UPDATE docs SET body = 'x', owner = $2 WHERE id = $1 AND owner < $2", id, fence)
	return err
}

func uniqueTempNameGood(ctx context.Context, m *concurrency.Mutex, client *s3.Client, body []byte) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: a temporary object named by a UUID, renamed later under a condition
	if _, err := client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("b"), Key: aws.String(".tmp/" + uuid.NewString())}); err != nil {
		return err
	}
	// ok: the same through a helper whose key is its parameter
	return putObject(ctx, client, fmt.Sprintf(".tmp/%s.json", uuid.New().String()), body)
}

func clockNameBad(ctx context.Context, m *concurrency.Mutex, client *s3.Client, body []byte) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return putObject(ctx, client, fmt.Sprintf("reports/%d.json", time.Now().UnixNano()), body) // want `time.Now\(\).UnixNano\(\) is not a monotonic fencing token`
}

func randomComparedThroughHelperBad(ctx context.Context, m *concurrency.Mutex, db *sql.DB, id string) error {
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	return saveFenced(ctx, db, id, uuid.NewString()) // want `uuid.NewString\(\) is not a monotonic fencing token`
}
