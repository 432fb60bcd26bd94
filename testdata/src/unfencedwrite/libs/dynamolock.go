package libs

import (
	"context"

	"cirello.io/dynamolock/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func dynamolockBad(ctx context.Context, lc *dynamolock.Client, db *dynamodb.Client, item map[string]types.AttributeValue) error {
	l, err := lc.AcquireLock("table-commit")
	if err != nil {
		return err
	}
	defer lc.ReleaseLock(l)
	_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("state"), Item: item}) // want `DynamoDB write via db.PutItem to state under the dynamolock lock is not fenced: it has no ConditionExpression; the dynamolock lock gives no token to fence with: mint a counter in the same atomic step as the grant \(a Lua script that takes the lock and INCRs a counter, or a lock service with a revision or zxid: etcd, ZooKeeper\) and compare it in the write; see https://github.com/fencelint/fencelint/blob/main/docs/unfencedwrite.md#no-token$`
	return err
}

func dynamolockReleasedGood(ctx context.Context, lc *dynamolock.Client, db *dynamodb.Client, item map[string]types.AttributeValue) error {
	l, err := lc.AcquireLockWithContext(ctx, "table-commit")
	if err != nil {
		// ok: not acquired, outside the scope
		_, _ = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("lock_failures"), Item: item})
		return err
	}
	if err := l.Close(); err != nil {
		return err
	}
	// ok: after the release
	_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("state"), Item: item})
	return err
}
