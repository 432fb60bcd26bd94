// Package artifacts uploads build reports to S3 from the worker that holds
// the report's lease.
package artifacts

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"example.com/fencelint-example/fence"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

const bucket = "build-reports"

// PublishLatest overwrites a fixed key: a stale holder's upload replaces
// the newer holder's report.
func PublishLatest(ctx context.Context, client *s3.Client, lease fence.Lease, id string, report []byte) error {
	_, err := client.PutObject(ctx, &s3.PutObjectInput{ // expect: unfencedwrite
		Bucket: aws.String(bucket),
		Key:    aws.String("reports/" + id + "/latest.json"),
		Body:   bytes.NewReader(report),
	})
	return err
}

// Publish writes each holder's report under a key built from its token,
// never overwriting: readers take the key with the largest token.
func Publish(ctx context.Context, client *s3.Client, lease fence.Lease, id string, report []byte) error {
	// ok: token-built key plus IfNoneMatch "*" (create only).
	_, err := client.PutObject(ctx, &s3.PutObjectInput{
		Bucket:      aws.String(bucket),
		Key:         aws.String(fmt.Sprintf("reports/%s/%020d", id, lease.Token)),
		Body:        bytes.NewReader(report),
		IfNoneMatch: aws.String("*"),
	})
	return err
}

// Fetch reads the latest report.
func Fetch(ctx context.Context, client *s3.Client, lease fence.Lease, id string) ([]byte, error) {
	// ok: GetObject is a read.
	out, err := client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String("reports/" + id + "/latest.json")})
	if err != nil {
		return nil, err
	}
	defer out.Body.Close()
	return io.ReadAll(out.Body)
}
