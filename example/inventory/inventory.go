// Package inventory keeps stock levels in DynamoDB; a worker holding the
// lease for a warehouse is the only one meant to adjust its items.
package inventory

import (
	"context"
	"errors"
	"strconv"

	"example.com/fencelint-example/fence"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const table = "inventory"

// ErrStaleLease is returned when DynamoDB rejected the write's condition.
var ErrStaleLease = errors.New("inventory: lease superseded by a newer holder")

func key(sku string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"sku": &types.AttributeValueMemberS{Value: sku}}
}

// SetStock overwrites the stock level without any condition.
func SetStock(ctx context.Context, db *dynamodb.Client, lease fence.Lease, sku string, n int) error {
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{ // expect: unfencedwrite
		TableName:        aws.String(table),
		Key:              key(sku),
		UpdateExpression: aws.String("SET stock = :n"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":n": &types.AttributeValueMemberN{Value: strconv.Itoa(n)},
		},
	})
	return err
}

// SetStockFenced writes only if the item's fence is older than the lease.
func SetStockFenced(ctx context.Context, db *dynamodb.Client, lease fence.Lease, sku string, n int) error {
	// ok: ConditionExpression compares fence_token with :tok = lease.Token.
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String(table),
		Key:                 key(sku),
		UpdateExpression:    aws.String("SET stock = :n, fence_token = :tok"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":n":   &types.AttributeValueMemberN{Value: strconv.Itoa(n)},
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return ErrStaleLease
	}
	return err
}

// Reserve is SetStockFenced written with the expression builder.
func Reserve(ctx context.Context, db *dynamodb.Client, lease fence.Lease, sku string, qty int) error {
	cond := expression.AttributeNotExists(expression.Name("fence_token")).
		Or(expression.Name("fence_token").LessThan(expression.Value(lease.Token)))
	upd := expression.Set(expression.Name("reserved"), expression.Value(qty)).
		Set(expression.Name("fence_token"), expression.Value(lease.Token))
	expr, err := expression.NewBuilder().WithCondition(cond).WithUpdate(upd).Build()
	if err != nil {
		return err
	}
	// ok: the builder's condition compares fence_token with lease.Token.
	_, err = db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(table),
		Key:                       key(sku),
		ConditionExpression:       expr.Condition(),
		UpdateExpression:          expr.Update(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
	})
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return ErrStaleLease
	}
	return err
}

// Replace puts a whole new item, unconditionally.
func Replace(ctx context.Context, db *dynamodb.Client, lease fence.Lease, sku string, n int) error {
	_, err := db.PutItem(ctx, &dynamodb.PutItemInput{ // expect: unfencedwrite
		TableName: aws.String(table),
		Item: map[string]types.AttributeValue{
			"sku":   &types.AttributeValueMemberS{Value: sku},
			"stock": &types.AttributeValueMemberN{Value: strconv.Itoa(n)},
		},
	})
	return err
}

// Stock reads an item's stock level under the lease.
func Stock(ctx context.Context, db *dynamodb.Client, lease fence.Lease, sku string) (int, error) {
	// ok: GetItem is a read.
	out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key(sku), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return 0, err
	}
	v, ok := out.Item["stock"].(*types.AttributeValueMemberN)
	if !ok {
		return 0, nil
	}
	return strconv.Atoi(v.Value)
}
