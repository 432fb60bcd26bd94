package libs

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/s3/manager"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// feature/s3/manager's Uploader.Upload takes a PutObjectInput and keeps
// its IfMatch/IfNoneMatch on the single PutObject or the multipart
// upload's completion: judged as PutObject is.

func s3UploaderBad(ctx context.Context, client *s3.Client, lease Lease, body string) error {
	up := manager.NewUploader(client)
	_, err := up.Upload(ctx, &s3.PutObjectInput{ // want `S3 write via up.Upload to state/current under the Lease held in parameter lease is not fenced: it has no IfMatch/IfNoneMatch precondition`
		Bucket: aws.String("b"),
		Key:    aws.String("state/current"),
		Body:   strings.NewReader(body),
	})
	return err
}

func s3UploaderGood(ctx context.Context, client *s3.Client, lease Lease, body string) error {
	up := manager.NewUploader(client)
	// ok: the token is in the key and the object must not exist
	_, err := up.Upload(ctx, &s3.PutObjectInput{
		Bucket:      aws.String("b"),
		Key:         aws.String(fmt.Sprintf("state/%020d", lease.Token)),
		IfNoneMatch: aws.String("*"),
		Body:        strings.NewReader(body),
	})
	return err
}

func s3UploaderValueGood(ctx context.Context, up manager.Uploader, lease Lease, etag, body string) error {
	// ok: a compare-and-set on the ETag that was read
	_, err := up.Upload(ctx, &s3.PutObjectInput{
		Bucket:  aws.String("b"),
		Key:     aws.String("state/current"),
		IfMatch: aws.String(etag),
		Body:    strings.NewReader(body),
	})
	return err
}
