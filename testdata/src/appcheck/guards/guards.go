// Package guards: read-then-compare of a stored fence read from DynamoDB
// (GetItem, through a type assertion on the attribute value and
// strconv.ParseInt) and from S3 object metadata (HeadObject). Comparing
// in Go and then writing unconditionally races with a newer holder.
package guards

import (
	"context"
	"errors"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

type Lease struct {
	Resource string
	Token    int64
}

var errSuperseded = errors.New("superseded")

func dynamoReadThenPutBad(ctx context.Context, c *dynamodb.Client, lease *Lease, id string) error {
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String("docs"),
		Key:       map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: id}},
	})
	if err != nil {
		return err
	}
	stored, err := strconv.ParseInt(out.Item["fence"].(*types.AttributeValueMemberN).Value, 10, 64)
	if err != nil {
		return err
	}
	if stored >= lease.Token { // want `fence check stored >= lease.Token is done in Go before the DynamoDB write via c.PutItem`
		return errSuperseded
	}
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String("docs"),
		Item: map[string]types.AttributeValue{
			"id":    &types.AttributeValueMemberS{Value: id},
			"fence": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	return err
}

func dynamoReadThenConditionalPutGood(ctx context.Context, c *dynamodb.Client, lease *Lease, id string) error {
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String("docs"),
		Key:       map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: id}},
	})
	if err != nil {
		return err
	}
	stored, err := strconv.ParseInt(out.Item["fence"].(*types.AttributeValueMemberN).Value, 10, 64)
	if err != nil {
		return err
	}
	// ok: an early exit; the write's own condition compares the fence too
	if stored >= lease.Token {
		return errSuperseded
	}
	tok := strconv.FormatInt(lease.Token, 10)
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String("docs"),
		Item: map[string]types.AttributeValue{
			"id":    &types.AttributeValueMemberS{Value: id},
			"fence": &types.AttributeValueMemberN{Value: tok},
		},
		ConditionExpression:       aws.String("attribute_not_exists(fence) OR fence < :t"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":t": &types.AttributeValueMemberN{Value: tok}},
	})
	return err
}

func s3MetadataThenPutBad(ctx context.Context, c *s3.Client, lease *Lease, key string) error {
	head, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("b"), Key: aws.String(key)})
	if err != nil {
		return err
	}
	stored, err := strconv.ParseInt(head.Metadata["fence"], 10, 64)
	if err != nil {
		return err
	}
	if lease.Token <= stored { // want `fence check lease.Token <= stored is done in Go before the S3 write via c.PutObject`
		return errSuperseded
	}
	_, err = c.PutObject(ctx, &s3.PutObjectInput{
		Bucket:   aws.String("b"),
		Key:      aws.String(key),
		Metadata: map[string]string{"fence": strconv.FormatInt(lease.Token, 10)},
	})
	return err
}

func s3MetadataThenConditionalPutGood(ctx context.Context, c *s3.Client, lease *Lease, key string) error {
	head, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("b"), Key: aws.String(key)})
	if err != nil {
		return err
	}
	stored, err := strconv.ParseInt(head.Metadata["fence"], 10, 64)
	if err != nil {
		return err
	}
	// ok: the write is conditioned on the object version read, so a newer
	// holder's write makes it fail
	if lease.Token <= stored {
		return errSuperseded
	}
	_, err = c.PutObject(ctx, &s3.PutObjectInput{
		Bucket:   aws.String("b"),
		Key:      aws.String(key),
		IfMatch:  head.ETag,
		Metadata: map[string]string{"fence": strconv.FormatInt(lease.Token, 10)},
	})
	return err
}

// The check runs only where the object exists (a first write has nothing
// to compare with): the write is still fenced by the Go check alone.
func s3MetadataIfPresentThenPutBad(ctx context.Context, c *s3.Client, lease *Lease, key string) error {
	head, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("b"), Key: aws.String(key)})
	if err == nil {
		stored, _ := strconv.ParseInt(head.Metadata["fence"], 10, 64)
		if lease.Token <= stored { // want `fence check lease.Token <= stored is done in Go before the S3 write via c.PutObject`
			return errSuperseded
		}
	}
	_, err = c.PutObject(ctx, &s3.PutObjectInput{
		Bucket:   aws.String("b"),
		Key:      aws.String(key),
		Metadata: map[string]string{"fence": strconv.FormatInt(lease.Token, 10)},
	})
	return err
}

func s3MetadataIfPresentThenConditionalPutGood(ctx context.Context, c *s3.Client, lease *Lease, key string) error {
	head, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("b"), Key: aws.String(key)})
	var etag *string
	if err == nil {
		stored, _ := strconv.ParseInt(head.Metadata["fence"], 10, 64)
		if lease.Token <= stored {
			return errSuperseded
		}
		etag = head.ETag
	}
	// ok: conditioned on the version read, or on the object's absence
	in := &s3.PutObjectInput{
		Bucket:   aws.String("b"),
		Key:      aws.String(key),
		Metadata: map[string]string{"fence": strconv.FormatInt(lease.Token, 10)},
	}
	if etag != nil {
		in.IfMatch = etag
	} else {
		in.IfNoneMatch = aws.String("*")
	}
	_, err = c.PutObject(ctx, in)
	return err
}
