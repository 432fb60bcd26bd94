package libs

import (
	"bytes"
	"context"
	"fmt"

	"cloud.google.com/go/storage"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blockblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// The object store and DynamoDB writes rules/ lists that no other case
// uses, each without a precondition under a lock, with fenced twins.

func s3WritesBad(ctx context.Context, client *s3.Client, lease Lease) error {
	if _, err := client.CopyObject(ctx, &s3.CopyObjectInput{Bucket: aws.String("b"), Key: aws.String("reports/latest"), CopySource: aws.String("b/reports/draft")}); err != nil { // want `S3 write via client.CopyObject to reports/latest under the Lease held in parameter lease is not fenced: it has no IfMatch/IfNoneMatch precondition`
		return err
	}
	if _, err := client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String("b"), Key: aws.String("reports/draft")}); err != nil { // want `S3 write via client.DeleteObject to reports/draft under the Lease held in parameter lease is not fenced: it has no IfMatch/IfNoneMatch precondition`
		return err
	}
	_, err := client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{Bucket: aws.String("b"), Key: aws.String("reports/big"), UploadId: aws.String("u")}) // want `S3 write via client.CompleteMultipartUpload to reports/big under the Lease held in parameter lease is not fenced: it has no IfMatch/IfNoneMatch precondition`
	return err
}

func s3WritesGood(ctx context.Context, client *s3.Client, lease Lease, etag string) error {
	// ok: a compare-and-set on the ETag read under the lease
	if _, err := client.CopyObject(ctx, &s3.CopyObjectInput{Bucket: aws.String("b"), Key: aws.String("reports/latest"), CopySource: aws.String("b/reports/draft"), IfMatch: aws.String(etag)}); err != nil {
		return err
	}
	// ok: as above
	if _, err := client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String("b"), Key: aws.String("reports/draft"), IfMatch: aws.String(etag)}); err != nil {
		return err
	}
	// ok: the token is in the key and the object must not exist
	_, err := client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{Bucket: aws.String("b"), Key: aws.String(fmt.Sprintf("reports/%020d", lease.Token)), UploadId: aws.String("u"), IfNoneMatch: aws.String("*")})
	return err
}

func dynamoBatchBad(ctx context.Context, db *dynamodb.Client, lease Lease) error {
	_, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{ // want `DynamoDB write via db.BatchWriteItem under the Lease held in parameter lease is not fenced: BatchWriteItem has no condition at all`
		RequestItems: map[string][]types.WriteRequest{
			"inventory": {{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{"sku": &types.AttributeValueMemberS{Value: "a"}}}}},
		},
	})
	return err
}

func gcsWritesBad(ctx context.Context, s *concurrency.Session, client *storage.Client) error {
	m := concurrency.NewMutex(s, "/locks/report")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	b := client.Bucket("reports")
	if _, err := b.Object("daily/latest.json").Update(ctx, storage.ObjectAttrsToUpdate{}); err != nil { // want `GCS write via b.Object\("daily/latest.json"\).Update to daily/latest.json under the etcd mutex is not fenced: it has no If\(Conditions\{...\}\) precondition`
		return err
	}
	if _, err := b.Object("daily/copy.json").CopierFrom(b.Object("daily/latest.json")).Run(ctx); err != nil { // want `GCS write via .*Run to daily/copy.json under the etcd mutex is not fenced: it has no If\(Conditions\{...\}\) precondition`
		return err
	}
	_, err := b.Object("daily/all.json").ComposerFrom(b.Object("a"), b.Object("b")).Run(ctx) // want `GCS write via .*Run to daily/all.json under the etcd mutex is not fenced: it has no If\(Conditions\{...\}\) precondition`
	return err
}

func gcsWritesGood(ctx context.Context, s *concurrency.Session, client *storage.Client, gen int64) error {
	m := concurrency.NewMutex(s, "/locks/report")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	b := client.Bucket("reports")
	// ok: conditioned on the generation read under the lock
	if _, err := b.Object("daily/latest.json").If(storage.Conditions{GenerationMatch: gen}).Update(ctx, storage.ObjectAttrsToUpdate{}); err != nil {
		return err
	}
	// ok: the destination must not exist
	if _, err := b.Object("daily/copy.json").If(storage.Conditions{DoesNotExist: true}).CopierFrom(b.Object("daily/latest.json")).Run(ctx); err != nil {
		return err
	}
	// ok: as above
	_, err := b.Object("daily/all.json").If(storage.Conditions{DoesNotExist: true}).ComposerFrom(b.Object("a"), b.Object("b")).Run(ctx)
	return err
}

func azureBlockBlobBad(ctx context.Context, s *concurrency.Session, cc *container.Client, client *azblob.Client, data []byte) error {
	m := concurrency.NewMutex(s, "/locks/report")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	bb := cc.NewBlockBlobClient("daily.json")
	if _, err := bb.UploadBuffer(ctx, data, nil); err != nil { // want `Azure Blob write via bb.UploadBuffer to daily.json under the etcd mutex is not fenced: it has no AccessConditions precondition`
		return err
	}
	if _, err := bb.UploadStream(ctx, bytes.NewReader(data), nil); err != nil { // want `Azure Blob write via bb.UploadStream to daily.json under the etcd mutex is not fenced`
		return err
	}
	if _, err := bb.CommitBlockList(ctx, []string{"AAAA"}, nil); err != nil { // want `Azure Blob write via bb.CommitBlockList to daily.json under the etcd mutex is not fenced`
		return err
	}
	if _, err := cc.NewBlobClient("draft.json").Delete(ctx, nil); err != nil { // want `Azure Blob write via .*Delete to draft.json under the etcd mutex is not fenced`
		return err
	}
	if _, err := client.UploadStream(ctx, "reports", "weekly.json", bytes.NewReader(data), nil); err != nil { // want `Azure Blob write via client.UploadStream to weekly.json under the etcd mutex is not fenced`
		return err
	}
	_, err := client.DeleteBlob(ctx, "reports", "old.json", nil) // want `Azure Blob write via client.DeleteBlob to old.json under the etcd mutex is not fenced`
	return err
}

func azureBlockBlobGood(ctx context.Context, s *concurrency.Session, cc *container.Client, client *azblob.Client, data []byte, etag azcore.ETag) error {
	m := concurrency.NewMutex(s, "/locks/report")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	ac := &blob.AccessConditions{ModifiedAccessConditions: &blob.ModifiedAccessConditions{IfMatch: &etag}}
	bb := cc.NewBlockBlobClient("daily.json")
	// ok: a compare-and-set on the ETag read under the lock
	if _, err := bb.UploadBuffer(ctx, data, &blockblob.UploadBufferOptions{AccessConditions: ac}); err != nil {
		return err
	}
	// ok: as above
	if _, err := bb.UploadStream(ctx, bytes.NewReader(data), &blockblob.UploadStreamOptions{AccessConditions: ac}); err != nil {
		return err
	}
	// ok: as above
	if _, err := bb.CommitBlockList(ctx, []string{"AAAA"}, &blockblob.CommitBlockListOptions{AccessConditions: ac}); err != nil {
		return err
	}
	// ok: as above
	if _, err := cc.NewBlobClient("draft.json").Delete(ctx, &blob.DeleteOptions{AccessConditions: ac}); err != nil {
		return err
	}
	// ok: as above
	if _, err := client.UploadStream(ctx, "reports", "weekly.json", bytes.NewReader(data), &azblob.UploadStreamOptions{AccessConditions: ac}); err != nil {
		return err
	}
	// ok: as above
	_, err := client.DeleteBlob(ctx, "reports", "old.json", &azblob.DeleteBlobOptions{AccessConditions: ac})
	return err
}
