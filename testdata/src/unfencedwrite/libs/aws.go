package libs

import (
	"context"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

func dynamoBad(ctx context.Context, db *dynamodb.Client, lease Lease, sku string, n int) error {
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{ // want `DynamoDB write via db.UpdateItem to inventory under the Lease held in parameter lease is not fenced: it has no ConditionExpression`
		TableName:        aws.String("inventory"),
		Key:              map[string]types.AttributeValue{"sku": &types.AttributeValueMemberS{Value: sku}},
		UpdateExpression: aws.String("SET qty = :n"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":n": &types.AttributeValueMemberN{Value: strconv.Itoa(n)},
		},
	})
	return err
}

func dynamoGood(ctx context.Context, db *dynamodb.Client, lease Lease, sku string, n int) error {
	// ok: the seed's idiom, with the token in :tok
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("inventory"),
		Key:                 map[string]types.AttributeValue{"sku": &types.AttributeValueMemberS{Value: sku}},
		UpdateExpression:    aws.String("SET qty = :n, fence_token = :tok"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":n":   &types.AttributeValueMemberN{Value: strconv.Itoa(n)},
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	return err
}

func dynamoOwnerBypassBad(ctx context.Context, db *dynamodb.Client, lease Lease, sku, me string) error {
	// "OR owner = :me" lets this process through with any token: a paused
	// owner whose lock passed to another holder and back still writes.
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{ // want `compares the token inside an OR, "attribute_not_exists\(fence_token\) OR fence_token < :tok OR owner = :me"`
		TableName:           aws.String("inventory"),
		Key:                 map[string]types.AttributeValue{"sku": &types.AttributeValueMemberS{Value: sku}},
		UpdateExpression:    aws.String("SET qty = :n, fence_token = :tok, owner = :me"),
		ConditionExpression: aws.String("attribute_not_exists(fence_token) OR fence_token < :tok OR owner = :me"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":n":   &types.AttributeValueMemberN{Value: "1"},
			":me":  &types.AttributeValueMemberS{Value: me},
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	return err
}

func dynamoOwnerAndFenceGood(ctx context.Context, db *dynamodb.Client, lease Lease, sku, me string) error {
	// ok: the owner check is ANDed with the fence, not an alternative to it
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("inventory"),
		Key:                 map[string]types.AttributeValue{"sku": &types.AttributeValueMemberS{Value: sku}},
		UpdateExpression:    aws.String("SET qty = :n, fence_token = :tok, owner = :me"),
		ConditionExpression: aws.String("(attribute_not_exists(fence_token) OR fence_token < :tok) AND owner = :me"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":n":   &types.AttributeValueMemberN{Value: "1"},
			":me":  &types.AttributeValueMemberS{Value: me},
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	return err
}

func dynamoOtherConditionBad(ctx context.Context, db *dynamodb.Client, lease Lease, sku string) error {
	_, err := db.DeleteItem(ctx, &dynamodb.DeleteItemInput{ // want `its ConditionExpression does not compare the fence attribute with the token`
		TableName:           aws.String("inventory"),
		Key:                 map[string]types.AttributeValue{"sku": &types.AttributeValueMemberS{Value: sku}},
		ConditionExpression: aws.String("attribute_exists(sku)"),
	})
	return err
}

func dynamoBuilderGood(ctx context.Context, db *dynamodb.Client, lease Lease, sku string) error {
	cond := expression.Name("fence_token").LessThan(expression.Value(lease.Token))
	upd := expression.Set(expression.Name("fence_token"), expression.Value(lease.Token))
	expr, err := expression.NewBuilder().WithCondition(cond).WithUpdate(upd).Build()
	if err != nil {
		return err
	}
	// ok: the builder's condition is derived from the token
	_, err = db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String("inventory"),
		Key:                       map[string]types.AttributeValue{"sku": &types.AttributeValueMemberS{Value: sku}},
		ConditionExpression:       expr.Condition(),
		UpdateExpression:          expr.Update(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
	})
	return err
}

func transactGood(ctx context.Context, db *dynamodb.Client, lease Lease, sku string) error {
	// ok: the ConditionCheck item fences the whole transaction
	_, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
		TransactItems: []types.TransactWriteItem{
			{ConditionCheck: &types.ConditionCheck{
				TableName:                 aws.String("locks"),
				Key:                       map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "inv"}},
				ConditionExpression:       aws.String("fence_token = :tok"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)}},
			}},
			{Put: &types.Put{
				TableName: aws.String("inventory"),
				Item:      map[string]types.AttributeValue{"sku": &types.AttributeValueMemberS{Value: sku}},
			}},
		},
	})
	return err
}

func s3Bad(ctx context.Context, client *s3.Client, lease Lease, id string) error {
	_, err := client.PutObject(ctx, &s3.PutObjectInput{ // want `S3 write via client.PutObject to reports/latest under the Lease held in parameter lease is not fenced: it has no IfMatch/IfNoneMatch precondition`
		Bucket: aws.String("b"),
		Key:    aws.String("reports/latest"),
	})
	return err
}

func s3Good(ctx context.Context, client *s3.Client, lease Lease, id string) error {
	// ok: the token is in the key and the object must not exist
	_, err := client.PutObject(ctx, &s3.PutObjectInput{
		Bucket:      aws.String("b"),
		Key:         aws.String(fmt.Sprintf("reports/%s/%020d", id, lease.Token)),
		IfNoneMatch: aws.String("*"),
	})
	return err
}

func dynamoValuesNoTokenBad(ctx context.Context, db *dynamodb.Client, lease Lease, sku string, v int) error {
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{ // want `its ConditionExpression does not compare the fence attribute with the token`
		TableName:           aws.String("inventory"),
		Key:                 map[string]types.AttributeValue{"sku": &types.AttributeValueMemberS{Value: sku}},
		UpdateExpression:    aws.String("SET qty = :v"),
		ConditionExpression: aws.String("version < :v"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":v": &types.AttributeValueMemberN{Value: strconv.Itoa(v)},
		},
	})
	return err
}

func dynamoValuesElsewhereGood(ctx context.Context, db *dynamodb.Client, lease Lease, sku string, vals map[string]types.AttributeValue) error {
	// ok: the values are built by the caller, where :tok may be the token; not judged
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String("inventory"),
		Key:                       map[string]types.AttributeValue{"sku": &types.AttributeValueMemberS{Value: sku}},
		UpdateExpression:          aws.String("SET qty = :v, fence_token = :tok"),
		ConditionExpression:       aws.String("fence_token < :tok"),
		ExpressionAttributeValues: vals,
	})
	return err
}
