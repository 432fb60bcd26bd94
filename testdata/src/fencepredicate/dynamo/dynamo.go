// Package dynamo exercises DynamoDB fence conditions.
package dynamo

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

type Lease struct {
	Token     int64
	ExpiresAt time.Time
}

func n(i int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(i, 10)}
}

func seedGood(ctx context.Context, db *dynamodb.Client, lease Lease, acct string, amt int64) error {
	// ok: the seed's own idiom
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET balance = balance - :amt, fence_token = :tok"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":amt": n(amt),
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	return err
}

func reversedBad(ctx context.Context, db *dynamodb.Client, lease Lease, acct string, amt int64) error {
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET balance = balance - :amt, fence_token = :tok"),
		ConditionExpression: aws.String("fence_token > :tok"), // want `fence condition of db.UpdateItem is reversed: fence_token > :tok lets a stale holder's older token through`
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":amt": n(amt),
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	return err
}

func inequalityBad(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                aws.String("accounts"),
		Key:                      map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:         aws.String("SET #f = :tok"),
		ConditionExpression:      aws.String("#f <> :tok"), // want `compares #f <> :tok: any other token passes`
		ExpressionAttributeNames: map[string]string{"#f": "fence_token"},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	return err
}

func notRecordedBad(ctx context.Context, db *dynamodb.Client, lease Lease, acct string, amt int64) error {
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET balance = balance - :amt"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"), // want `fence condition of db.UpdateItem compares fence_token with the token, but its UpdateExpression never sets fence_token`
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":amt": n(amt),
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	return err
}

func namesGood(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	// ok: #f resolves to fence_token in both expressions
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                aws.String("accounts"),
		Key:                      map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:         aws.String("SET fence_token = :tok"),
		ConditionExpression:      aws.String("#f < :tok"),
		ExpressionAttributeNames: map[string]string{"#f": "fence_token"},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	return err
}

func putNotRecordedBad(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	_, err := db.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:           aws.String("accounts"),
		Item:                map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		ConditionExpression: aws.String("fence_token < :tok"), // want `compares fence_token with the token, but its Item has no fence_token attribute`
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	return err
}

func putGood(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	// ok: the item carries the new fence
	_, err := db.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String("accounts"),
		Item: map[string]types.AttributeValue{
			"pk":          &types.AttributeValueMemberS{Value: acct},
			"fence_token": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	return err
}

func casGood(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	// ok: equality on a generation stamped at acquire
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET v = :v"),
		ConditionExpression: aws.String("lease_gen = :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":v":   n(1),
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	return err
}

func builderReversedBad(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	cond := expression.Name("fence_token").GreaterThan(expression.Value(lease.Token)) // want `fence condition of db.UpdateItem is reversed: fence_token > lease.Token lets a stale holder's older token through .*; use fence_token < lease.Token`
	upd := expression.Set(expression.Name("fence_token"), expression.Value(lease.Token))
	expr, err := expression.NewBuilder().WithCondition(cond).WithUpdate(upd).Build()
	if err != nil {
		return err
	}
	_, err = db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String("accounts"),
		Key:                       map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		ConditionExpression:       expr.Condition(),
		UpdateExpression:          expr.Update(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
	})
	return err
}

func builderGood(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	// ok: the builder compares the stored fence below the token, or a fresh item
	cond := expression.AttributeNotExists(expression.Name("fence_token")).Or(expression.Name("fence_token").LessThan(expression.Value(lease.Token)))
	upd := expression.Set(expression.Name("fence_token"), expression.Value(lease.Token))
	expr, err := expression.NewBuilder().WithCondition(cond).WithUpdate(upd).Build()
	if err != nil {
		return err
	}
	_, err = db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String("accounts"),
		Key:                       map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		ConditionExpression:       expr.Condition(),
		UpdateExpression:          expr.Update(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
	})
	return err
}

func transactReversedBad(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	_, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
		TransactItems: []types.TransactWriteItem{
			{ConditionCheck: &types.ConditionCheck{
				TableName:                 aws.String("locks"),
				Key:                       map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "acct"}},
				ConditionExpression:       aws.String("fence_token >= :tok"), // want `fence condition of db.TransactWriteItems is reversed: fence_token >= :tok .*; use fence_token <= :tok`
				ExpressionAttributeValues: map[string]types.AttributeValue{":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)}},
			}},
			{Put: &types.Put{
				TableName: aws.String("accounts"),
				Item:      map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
			}},
		},
	})
	return err
}

func transactGood(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	// ok: the ConditionCheck item fences the whole transaction in the valid direction
	_, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
		TransactItems: []types.TransactWriteItem{
			{ConditionCheck: &types.ConditionCheck{
				TableName:                 aws.String("locks"),
				Key:                       map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "acct"}},
				ConditionExpression:       aws.String("fence_token <= :tok"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)}},
			}},
			{Put: &types.Put{
				TableName: aws.String("accounts"),
				Item:      map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
			}},
		},
	})
	return err
}

func notReversedBad(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET fence_token = :tok"),
		ConditionExpression: aws.String("NOT fence_token < :tok"), // want `is reversed: fence_token >= :tok .*; use fence_token <= :tok`
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	return err
}

func notGood(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	// ok: NOT fence_token > :tok is fence_token <= :tok
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET fence_token = :tok"),
		ConditionExpression: aws.String("NOT fence_token > :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	return err
}

// The token's attribute value built by a helper given the whole lease.

func leaseAV(l Lease) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(l.Token, 10)}
}

func leaseHelperGood(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	// ok: leaseAV(lease) is the lease's token
	_, err := db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:                 aws.String("accounts"),
		Key:                       map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		ConditionExpression:       aws.String("fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":tok": leaseAV(lease)},
	})
	return err
}

func leaseHelperReversedBad(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	_, err := db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:                 aws.String("accounts"),
		Key:                       map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		ConditionExpression:       aws.String("fence_token > :tok"), // want `fence condition of db.DeleteItem is reversed: fence_token > :tok`
		ExpressionAttributeValues: map[string]types.AttributeValue{":tok": leaseAV(lease)},
	})
	return err
}

func stringAttributeBad(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	// The token as an S attribute: DynamoDB orders strings byte by byte.
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET fence_token = :tok"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"), // want `compares fence_token < :tok as decimal strings, which order by character`
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberS{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	return err
}

func paddedStringAttributeGood(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	// ok: zero-padded to a fixed width, the strings order as the numbers do
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET fence_token = :tok"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberS{Value: fmt.Sprintf("%020d", lease.Token)},
		},
	})
	return err
}
