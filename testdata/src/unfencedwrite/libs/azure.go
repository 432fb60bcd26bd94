package libs

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blockblob"
	"go.etcd.io/etcd/client/v3/concurrency"
)

type nopCloser struct{ io.ReadSeeker }

func (nopCloser) Close() error { return nil }

func azureBlindBad(ctx context.Context, s *concurrency.Session, client *azblob.Client, data []byte) error {
	m := concurrency.NewMutex(s, "/locks/report")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := client.UploadBuffer(ctx, "reports", "daily.json", data, nil) // want `Azure Blob write via client.UploadBuffer to daily.json under the etcd mutex is not fenced: it has no AccessConditions precondition \(IfMatch, IfNoneMatch, IfTags, a lease ID\) and its blob name does not carry the token`
	return err
}

func azureETagGood(ctx context.Context, s *concurrency.Session, client *azblob.Client, data []byte, etag azcore.ETag) error {
	m := concurrency.NewMutex(s, "/locks/report")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: a compare-and-set on the ETag read under the lock
	_, err := client.UploadBuffer(ctx, "reports", "daily.json", data, &azblob.UploadBufferOptions{
		AccessConditions: &blob.AccessConditions{ModifiedAccessConditions: &blob.ModifiedAccessConditions{IfMatch: &etag}},
	})
	return err
}

func azureTokenNameGood(ctx context.Context, s *concurrency.Session, client *azblob.Client, data []byte) error {
	m := concurrency.NewMutex(s, "/locks/report")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: one blob per token, created only if absent
	any := azcore.ETagAny
	name := fmt.Sprintf("daily/%020d.json", m.Header().Revision)
	_, err := client.UploadBuffer(ctx, "reports", name, data, &azblob.UploadBufferOptions{
		AccessConditions: &blob.AccessConditions{ModifiedAccessConditions: &blob.ModifiedAccessConditions{IfNoneMatch: &any}},
	})
	return err
}

func azureBlobLeaseGood(ctx context.Context, s *concurrency.Session, bb *blockblob.Client, data []byte, leaseID string) error {
	m := concurrency.NewMutex(s, "/locks/report")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: the service rejects writes without the blob lease's ID
	_, err := bb.Upload(ctx, nopCloser{bytes.NewReader(data)}, &blockblob.UploadOptions{
		AccessConditions: &blob.AccessConditions{LeaseAccessConditions: &blob.LeaseAccessConditions{LeaseID: &leaseID}},
	})
	return err
}

func azureClientFromElsewhereGood(ctx context.Context, s *concurrency.Session, bb *blockblob.Client, data []byte) error {
	m := concurrency.NewMutex(s, "/locks/report")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: a client made elsewhere, for a blob name we cannot see (unknown)
	_, err := bb.Upload(ctx, nopCloser{bytes.NewReader(data)}, nil)
	return err
}
