// Package leasedynamo is the shape that made two analyzers race on the
// engine's memo (issue 12): a lease type whose token field is filled from
// several values, and fenced DynamoDB writes whose attribute values
// fencepredicate and weaktoken both trace. TestParallelDriver runs it.
package leasedynamo

import (
	"context"
	"math/rand"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

type Lease struct {
	Token     int64
	ExpiresAt time.Time
}

func grantClock() *Lease  { return &Lease{Token: time.Now().UnixNano()} }
func grantRandom() *Lease { return &Lease{Token: rand.Int63()} }

func grantShifted(base int64) *Lease {
	l := &Lease{}
	l.Token = base<<8 | int64(rand.Intn(255))
	return l
}

func tok(l *Lease) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(l.Token, 10)}
}

func debit(ctx context.Context, db *dynamodb.Client, l *Lease, acct string) error {
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String("accounts"),
		Key:                       map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:          aws.String("SET balance = balance - :one, fence_token = :tok"),
		ConditionExpression:       aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}, ":tok": tok(l)},
	})
	return err
}

func credit(ctx context.Context, db *dynamodb.Client, l *Lease, acct string) error {
	_, err := db.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                 aws.String("accounts"),
		Item:                      map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}, "fence_token": tok(l)},
		ConditionExpression:       aws.String("fence_token > :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(l.Token, 10)}},
	})
	return err
}

func remove(ctx context.Context, db *dynamodb.Client, l *Lease, acct string) error {
	_, err := db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:                 aws.String("accounts"),
		Key:                       map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		ConditionExpression:       aws.String("fence_token <> :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":tok": tok(l)},
	})
	return err
}
