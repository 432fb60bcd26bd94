// Package more exercises the outcomes of fenced ZooKeeper Multi, Azure
// Blob, Redis script and sqlx writes.
package more

import (
	"context"
	"errors"
	"log"
	"strconv"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
	"github.com/go-zookeeper/zk"
	"github.com/redis/go-redis/v9"
)

type Lease struct {
	Token     int64
	ExpiresAt time.Time
}

var ErrStale = errors.New("superseded")

// ---- ZooKeeper Multi: a failed CheckVersionRequest is zk.ErrBadVersion ----

func multiDiscardedBad(conn *zk.Conn, lease Lease, lockVersion int32, data []byte) {
	conn.Multi( // want `the error of fenced write via conn.Multi is discarded: a failed condition \(zk.ErrBadVersion\)`
		&zk.CheckVersionRequest{Path: "/locks/job", Version: lockVersion},
		&zk.SetDataRequest{Path: "/jobs/state", Data: data, Version: -1},
	)
}

func multiSwallowBad(conn *zk.Conn, lease Lease, lockVersion int32, data []byte) error {
	_, err := conn.Multi( // want `fenced write via conn.Multi treats zk.ErrBadVersion as success: the fence rejected a stale holder; abort, do not carry on`
		&zk.CheckVersionRequest{Path: "/locks/job", Version: lockVersion},
		&zk.SetDataRequest{Path: "/jobs/state", Data: data, Version: -1},
	)
	if errors.Is(err, zk.ErrBadVersion) {
		return nil
	}
	return err
}

func multiGood(conn *zk.Conn, lease Lease, lockVersion int32, data []byte) error {
	// ok: the error, a failed check among it, goes back to the caller
	_, err := conn.Multi(
		&zk.CheckVersionRequest{Path: "/locks/job", Version: lockVersion},
		&zk.SetDataRequest{Path: "/jobs/state", Data: data, Version: -1},
	)
	return err
}

// ---- Azure Blob: a failed AccessConditions precondition is a 412 ----

func azureDiscardedBad(ctx context.Context, client *azblob.Client, lease Lease, data []byte, etag azcore.ETag) {
	client.UploadBuffer(ctx, "reports", "daily.json", data, &azblob.UploadBufferOptions{ // want `the error of fenced write via client.UploadBuffer is discarded: a failed condition \(a 412 ConditionNotMet\)`
		AccessConditions: &blob.AccessConditions{ModifiedAccessConditions: &blob.ModifiedAccessConditions{IfMatch: &etag}},
	})
}

func azureLoggedBad(ctx context.Context, client *azblob.Client, lease Lease, data []byte, etag azcore.ETag) error {
	_, err := client.UploadBuffer(ctx, "reports", "daily.json", data, &azblob.UploadBufferOptions{ // want `the error of fenced write via client.UploadBuffer is only logged: a 412 ConditionNotMet means a newer holder has written`
		AccessConditions: &blob.AccessConditions{ModifiedAccessConditions: &blob.ModifiedAccessConditions{IfMatch: &etag}},
	})
	if err != nil {
		log.Printf("upload: %v", err)
	}
	return nil
}

func azureGood(ctx context.Context, client *azblob.Client, lease Lease, data []byte, etag azcore.ETag) error {
	// ok: the error goes back to the caller
	_, err := client.UploadBuffer(ctx, "reports", "daily.json", data, &azblob.UploadBufferOptions{
		AccessConditions: &blob.AccessConditions{ModifiedAccessConditions: &blob.ModifiedAccessConditions{IfMatch: &etag}},
	})
	return err
}

// ---- Redis scripts: the reply says whether the token was stale ----

// fencedSet answers a stale token with 0 and a write with 1: neither is
// an error.
var fencedSet = redis.NewScript(`
local cur = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[2]) <= cur then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SET', KEYS[1], ARGV[1])
return 1`)

// fencedSetErr answers a stale token with an error reply.
var fencedSetErr = redis.NewScript(`
local cur = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[2]) <= cur then return redis.error_reply('STALE') end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SET', KEYS[1], ARGV[1])
return 1`)

func scriptDiscardedBad(ctx context.Context, rdb *redis.Client, lease Lease, v string) {
	fencedSet.Run(ctx, rdb, []string{"data", "data:fence"}, v, lease.Token) // want `the reply of fenced write via fencedSet.Run is discarded: the script's reply is how the fence rejects a stale holder`
}

func scriptErrOnlyBad(ctx context.Context, rdb *redis.Client, lease Lease, v string) error {
	return fencedSet.Run(ctx, rdb, []string{"data", "data:fence"}, v, lease.Token).Err() // want `fenced write via fencedSet.Run never compares the script's reply: the script answers a stale token with a number, not an error`
}

func scriptIntLoggedBad(ctx context.Context, rdb *redis.Client, lease Lease, v string) error {
	applied, err := fencedSet.Run(ctx, rdb, []string{"data", "data:fence"}, v, lease.Token).Int64() // want `fenced write via fencedSet.Run never compares the script's reply`
	if err != nil {
		return err
	}
	log.Printf("applied=%d", applied)
	return nil
}

func scriptIntErrOnlyBad(ctx context.Context, rdb *redis.Client, lease Lease, v string) error {
	_, err := fencedSet.Run(ctx, rdb, []string{"data", "data:fence"}, v, lease.Token).Int64() // want `fenced write via fencedSet.Run never compares the script's reply`
	return err
}

func scriptResultGood(ctx context.Context, rdb *redis.Client, lease Lease, v string) (any, error) {
	// ok: the reply is handed to the caller
	return fencedSet.Run(ctx, rdb, []string{"data", "data:fence"}, v, lease.Token).Result()
}

func scriptReplyGood(ctx context.Context, rdb *redis.Client, lease Lease, v string) error {
	// ok: the reply is read and a stale token aborts
	n, err := fencedSet.Run(ctx, rdb, []string{"data", "data:fence"}, v, lease.Token).Int64()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrStale
	}
	return nil
}

func scriptErrorReplyGood(ctx context.Context, rdb *redis.Client, lease Lease, v string) error {
	// ok: this script answers a stale token with an error, which Err() returns
	return fencedSetErr.Run(ctx, rdb, []string{"data", "data:fence"}, v, lease.Token).Err()
}

func evalErrOnlyBad(ctx context.Context, rdb *redis.Client, lease Lease, v string) error {
	return rdb.Eval(ctx, "if tonumber(ARGV[2]) <= tonumber(redis.call('GET', KEYS[2]) or '0') then return 0 end redis.call('SET', KEYS[1], ARGV[1]) redis.call('SET', KEYS[2], ARGV[2]) return 1", []string{"data", "data:fence"}, v, lease.Token).Err() // want `fenced write via rdb.Eval never compares the script's reply`
}

// ---- DynamoDB's rejection told apart by its smithy error code ----

func dynamoCodeSwallowBad(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{ // want `fenced write via db.UpdateItem treats ConditionalCheckFailedException as success: the fence rejected a stale holder; abort, do not carry on`
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET fence_token = :tok"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) && apiErr.ErrorCode() == "ConditionalCheckFailedException" {
		return nil // "already up to date"
	}
	return err
}

func dynamoCodeRetryBad(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	for range 3 {
		_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{ // want `fenced write via db.UpdateItem is re-issued after the fence rejected it \(ConditionalCheckFailedException\)`
			TableName:           aws.String("accounts"),
			Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
			UpdateExpression:    aws.String("SET fence_token = :tok"),
			ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
			},
		})
		var apiErr smithy.APIError
		if errors.As(err, &apiErr) && apiErr.ErrorCode() == "ConditionalCheckFailedException" {
			time.Sleep(time.Second)
			continue
		}
		return err
	}
	return ErrStale
}

func dynamoCodeAbortGood(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	// ok: the rejection, told apart by its code, aborts
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET fence_token = :tok"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) && apiErr.ErrorCode() == "ConditionalCheckFailedException" {
		return ErrStale
	}
	return err
}
