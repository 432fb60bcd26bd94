package createlock

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// A test of the application's own create-if-absent lock tampers with the
// lock's storage on purpose (terraform's S3 backend test deletes the lock
// item out of band): no scope there.
func TestLockLost(t *testing.T) {
	ctx := context.Background()
	var c *S3State
	var db *dynamodb.Client
	if _, err := c.Lock(ctx, &LockInfo{ID: "a"}); err != nil {
		t.Fatal(err)
	}
	// ok: the test deletes the lock item itself
	if _, err := db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("locks")}); err != nil {
		t.Fatal(err)
	}
}
