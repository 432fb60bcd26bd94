// Package stores exercises the outcome of fenced DynamoDB, S3 and etcd writes.
package stores

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strconv"
	"time"

	"cloud.google.com/go/storage"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
	"github.com/go-zookeeper/zk"
	"github.com/hashicorp/consul/api"
	szk "github.com/samuel/go-zookeeper/zk"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

type Lease struct {
	Token     int64
	ExpiresAt time.Time
}

var ErrStale = errors.New("superseded")

func dynamoDiscardedBad(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) {
	db.UpdateItem(ctx, &dynamodb.UpdateItemInput{ // want `the error of fenced write via db.UpdateItem is discarded: a failed condition \(ConditionalCheckFailedException\)`
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET fence_token = :tok"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
}

func dynamoLoggedBad(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{ // want `the error of fenced write via db.UpdateItem is only logged: ConditionalCheckFailedException means a newer holder has written`
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET fence_token = :tok"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	if err != nil {
		log.Printf("update failed: %v", err)
	}
	return nil
}

func dynamoAsGood(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	// ok: the rejection is told apart and aborts
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET fence_token = :tok"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return ErrStale
	}
	return err
}

func dynamoReturnGood(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	// ok: returned to the caller
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET fence_token = :tok"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	if err != nil {
		log.Printf("update failed: %v", err)
		return fmt.Errorf("debit %s: %w", acct, err)
	}
	return nil
}

func s3DiscardedBad(ctx context.Context, client *s3.Client, lease Lease, id string) {
	_, _ = client.PutObject(ctx, &s3.PutObjectInput{ // want `the error of fenced write via client.PutObject is discarded: a failed condition \(PreconditionFailed\)`
		Bucket:      aws.String("b"),
		Key:         aws.String(fmt.Sprintf("reports/%s/%020d", id, lease.Token)),
		IfNoneMatch: aws.String("*"),
	})
}

func s3Good(ctx context.Context, client *s3.Client, lease Lease, id string) error {
	// ok: the error is returned
	_, err := client.PutObject(ctx, &s3.PutObjectInput{
		Bucket:      aws.String("b"),
		Key:         aws.String(fmt.Sprintf("reports/%s/%020d", id, lease.Token)),
		IfNoneMatch: aws.String("*"),
	})
	return err
}

func etcdDiscardedBad(ctx context.Context, m *concurrency.Mutex, cli *clientv3.Client) error {
	_, err := cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut("cfg", "v")).Commit() // want `the TxnResponse of fenced write via cli.Txn\(ctx\).If\(m.IsOwner\(\)\).Then\(clientv3.OpPut\("cfg", "v"\)\).Commit is discarded`
	return err
}

func etcdUncheckedBad(ctx context.Context, m *concurrency.Mutex, cli *clientv3.Client) (int64, error) {
	resp, err := cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut("cfg", "v")).Commit() // want `never reads TxnResponse.Succeeded`
	if err != nil {
		return 0, err
	}
	return resp.Header.Revision, nil
}

func etcdGood(ctx context.Context, m *concurrency.Mutex, cli *clientv3.Client) error {
	// ok: Succeeded is checked
	resp, err := cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut("cfg", "v")).Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return concurrency.ErrLocked
	}
	return nil
}

func dynamoRetryBad(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	for attempt := 0; attempt < 3; attempt++ {
		_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{ // want `fenced write via db.UpdateItem is re-issued after the fence rejected it \(ConditionalCheckFailedException\): a newer holder has written; abort, do not retry`
			TableName:           aws.String("accounts"),
			Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
			UpdateExpression:    aws.String("SET fence_token = :tok"),
			ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
			},
		})
		var ccf *types.ConditionalCheckFailedException
		if errors.As(err, &ccf) {
			time.Sleep(time.Second)
			continue
		}
		return err
	}
	return nil
}

func dynamoSwallowBad(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{ // want `fenced write via db.UpdateItem treats ConditionalCheckFailedException as success: the fence rejected a stale holder; abort, do not carry on`
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET fence_token = :tok"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return nil
	}
	return err
}

func dynamoRetryOtherErrorsGood(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	// ok: throttling is retried, the fence's rejection aborts
	for attempt := 0; attempt < 3; attempt++ {
		_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:           aws.String("accounts"),
			Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
			UpdateExpression:    aws.String("SET fence_token = :tok"),
			ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
			},
		})
		var ccf *types.ConditionalCheckFailedException
		if errors.As(err, &ccf) {
			return ErrStale
		}
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func zkRetryBad(conn *zk.Conn, lease Lease, data []byte) error {
	for {
		_, stat, err := conn.Get("/config/data")
		if err != nil {
			return err
		}
		_, err = conn.Set("/config/data", data, stat.Version) // want `fenced write via conn.Set is re-issued after the fence rejected it \(zk.ErrBadVersion\): a newer holder has written; abort, do not retry`
		if err == zk.ErrBadVersion {
			continue
		}
		return err
	}
}

func zkSwallowBad(conn *zk.Conn, lease Lease, version int32) error {
	err := conn.Delete("/jobs/current", version) // want `fenced write via conn.Delete treats zk.ErrBadVersion as success: the fence rejected a stale holder; abort, do not carry on`
	if errors.Is(err, zk.ErrBadVersion) {
		return nil
	}
	return err
}

func samuelZKSwallowBad(conn *szk.Conn, lease Lease, version int32) error {
	err := conn.Delete("/jobs/current", version) // want `fenced write via conn.Delete treats zk.ErrBadVersion as success`
	if err == szk.ErrBadVersion {
		return nil
	}
	return err
}

func samuelZKAbortGood(conn *szk.Conn, lease Lease, version int32) error {
	// ok: the rejection aborts
	if err := conn.Delete("/jobs/current", version); err != nil {
		if err == szk.ErrBadVersion {
			return ErrStale
		}
		return err
	}
	return nil
}

func zkDiscardedBad(conn *zk.Conn, lease Lease, data []byte, version int32) {
	conn.Set("/config/data", data, version) // want `the error of fenced write via conn.Set is discarded: a failed condition \(zk.ErrBadVersion\)`
}

func zkAbortGood(conn *zk.Conn, lease Lease, data []byte, version int32) error {
	// ok: the rejection aborts
	if _, err := conn.Set("/config/data", data, version); err != nil {
		if err == zk.ErrBadVersion {
			return ErrStale
		}
		return err
	}
	return nil
}

func gcsCloseDroppedBad(ctx context.Context, client *storage.Client, lease Lease, data []byte) {
	name := fmt.Sprintf("reports/%020d.json", lease.Token)
	w := client.Bucket("b").Object(name).If(storage.Conditions{DoesNotExist: true}).NewWriter(ctx) // want `the error of fenced write via .*NewWriter is discarded: a 412 precondition failure is how the fence rejects a stale holder`
	_, _ = w.Write(data)
	w.Close()
}

func gcsDeferredCloseBad(ctx context.Context, client *storage.Client, lease Lease, data []byte) error {
	name := fmt.Sprintf("reports/%020d.json", lease.Token)
	w := client.Bucket("b").Object(name).If(storage.Conditions{DoesNotExist: true}).NewWriter(ctx) // want `the error of fenced write via .*NewWriter is discarded: a deferred Close drops a 412 precondition failure`
	defer w.Close()
	_, err := w.Write(data)
	return err
}

func gcsCloseReturnedGood(ctx context.Context, client *storage.Client, lease Lease, data []byte) error {
	// ok: Close's error (the precondition's outcome) is returned
	name := fmt.Sprintf("reports/%020d.json", lease.Token)
	w := client.Bucket("b").Object(name).If(storage.Conditions{DoesNotExist: true}).NewWriter(ctx)
	if _, err := w.Write(data); err != nil {
		return err
	}
	return w.Close()
}

func consulCASDroppedBad(client *api.Client, lease Lease, p *api.KVPair) error {
	_, _, err := client.KV().CAS(p, nil) // want `the ok result of fenced write via client.KV\(\).CAS is discarded: consul reports a write its check rejected as ok == false with a nil error`
	return err
}

func consulCASGood(client *api.Client, lease Lease, p *api.KVPair) error {
	// ok: a false ok aborts
	ok, _, err := client.KV().CAS(p, nil)
	if err != nil {
		return err
	}
	if !ok {
		return ErrStale
	}
	return nil
}

func s3PreconditionSwallowedBad(ctx context.Context, client *s3.Client, lease Lease, id string) error {
	_, err := client.PutObject(ctx, &s3.PutObjectInput{ // want `fenced write via client.PutObject treats PreconditionFailed as success: the fence rejected a stale holder; abort, do not carry on`
		Bucket:      aws.String("b"),
		Key:         aws.String(fmt.Sprintf("reports/%s/%020d", id, lease.Token)),
		IfNoneMatch: aws.String("*"),
	})
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) && apiErr.ErrorCode() == "PreconditionFailed" {
		return nil // "someone already wrote it"
	}
	return err
}

func s3PreconditionAbortGood(ctx context.Context, client *s3.Client, lease Lease, id string) error {
	// ok: the rejection aborts
	_, err := client.PutObject(ctx, &s3.PutObjectInput{
		Bucket:      aws.String("b"),
		Key:         aws.String(fmt.Sprintf("reports/%s/%020d", id, lease.Token)),
		IfNoneMatch: aws.String("*"),
	})
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) && apiErr.ErrorCode() == "PreconditionFailed" {
		return ErrStale
	}
	return err
}

func etcdSucceededLoggedBad(ctx context.Context, m *concurrency.Mutex, cli *clientv3.Client) error {
	resp, err := cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut("cfg", "v")).Commit() // want `only logs TxnResponse.Succeeded`
	if err != nil {
		return err
	}
	log.Printf("txn succeeded=%v", resp.Succeeded)
	return nil
}

func etcdRetriedBad(ctx context.Context, m *concurrency.Mutex, cli *clientv3.Client) error {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut("cfg", "v")).Commit() // want `is re-issued after the fence rejected it \(Succeeded == false\)`
		if err != nil {
			return err
		}
		if resp.Succeeded {
			return nil
		}
	}
	return ErrStale
}

func etcdAsSuccessUnderDeferBad(ctx context.Context, m *concurrency.Mutex, cli *clientv3.Client) error {
	// The deferred Unlock makes the result go through its slot: the
	// rejection branch's "return nil" is still a success.
	defer m.Unlock(ctx)
	resp, err := cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut("cfg", "v")).Commit() // want `treats Succeeded == false as success`
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		log.Printf("lost the lock, skipping")
		return nil
	}
	return nil
}

func etcdAbortUnderDeferGood(ctx context.Context, m *concurrency.Mutex, cli *clientv3.Client) error {
	// ok: the twin aborts with an error
	defer m.Unlock(ctx)
	resp, err := cli.Txn(ctx).If(m.IsOwner()).Then(clientv3.OpPut("cfg", "v")).Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return concurrency.ErrLocked
	}
	return nil
}

func dynamoAsSuccessUnderDeferBad(ctx context.Context, mu *concurrency.Mutex, db *dynamodb.Client, lease Lease, acct string) error {
	defer mu.Unlock(ctx)
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{ // want `treats ConditionalCheckFailedException as success`
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET fence_token = :tok"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return nil
	}
	return err
}

func dynamoTypeAssertAsSuccessBad(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{ // want `treats ConditionalCheckFailedException as success`
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET fence_token = :tok"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	if _, ok := err.(*types.ConditionalCheckFailedException); ok {
		return nil
	}
	return err
}

func dynamoTypeAssertGood(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	// ok: the rejection told apart by a type assertion aborts
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET fence_token = :tok"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	if _, ok := err.(*types.ConditionalCheckFailedException); ok {
		return ErrStale
	}
	return err
}

func dynamoTypeSwitchAsSuccessBad(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{ // want `treats ConditionalCheckFailedException as success`
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET fence_token = :tok"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	switch err.(type) {
	case nil:
		return nil
	case *types.ConditionalCheckFailedException:
		return nil
	default:
		return err
	}
}

func isConditionFailed(err error) bool {
	var ccf *types.ConditionalCheckFailedException
	return errors.As(err, &ccf)
}

func dynamoPredicateHelperAsSuccessBad(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{ // want `treats ConditionalCheckFailedException as success`
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET fence_token = :tok"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	if isConditionFailed(err) {
		return nil
	}
	return err
}

func dynamoPredicateHelperGood(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	// ok: the helper tells the rejection apart and the caller aborts
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET fence_token = :tok"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	if isConditionFailed(err) {
		return ErrStale
	}
	return err
}
