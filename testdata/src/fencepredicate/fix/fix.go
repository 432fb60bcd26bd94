// Package fix exercises fencepredicate's suggested fixes.
package fix

import (
	"context"
	"database/sql"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"strconv"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

type Lease struct {
	Token     int64
	ExpiresAt time.Time
}

func flip(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	_, err := db.ExecContext(ctx, "UPDATE acct SET fence = $2 WHERE id = $1 AND fence > $2", id, lease.Token) // want `is reversed`
	return err
}

func flipEq(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	_, err := db.ExecContext(ctx, "UPDATE acct SET fence = $2 WHERE id = $1 AND fence >= $2", id, lease.Token) // want `is reversed`
	return err
}

func flipSwapped(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	_, err := db.ExecContext(ctx, "UPDATE acct SET fence = $2 WHERE id = $1 AND $2 < fence", id, lease.Token) // want `is reversed`
	return err
}

func inequality(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	_, err := db.ExecContext(ctx, "UPDATE acct SET fence = $2 WHERE id = $1 AND fence <> $2", id, lease.Token) // want `any other token passes`
	return err
}

func record(ctx context.Context, db *sql.DB, lease *Lease, id string, amt int64) error {
	// want +1 `never records it`
	_, err := db.ExecContext(ctx, `UPDATE acct
   SET bal = bal - $1
 WHERE id = $2 AND fence < $3`, amt, id, lease.Token)
	return err
}

func recordNamed(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	_, err := db.ExecContext(ctx, "UPDATE acct SET bal = 0 WHERE id = :id AND fence < :tok", sql.Named("id", id), sql.Named("tok", lease.Token)) // want `add SET fence = :tok`
	return err
}

// recordIncrement bumps the stored fence instead of recording the token:
// the fix replaces the value, since a second "fence = $3" would assign
// the column twice, which PostgreSQL rejects.
func recordIncrement(ctx context.Context, db *sql.DB, lease *Lease, id string, v int64) error {
	_, err := db.ExecContext(ctx, "UPDATE acct SET bal = $1, fence = fence + 1 WHERE id = $2 AND fence < $3", v, id, lease.Token) // want `records fence \+ 1, not the token: .*; set fence = \$3`
	return err
}

func recordIncrementUpsert(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	_, err := db.ExecContext(ctx, "INSERT INTO acct (id, fence) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET fence = acct.fence + 1 WHERE acct.fence < $2", id, lease.Token) // want `records acct.fence \+ 1, not the token`
	return err
}

// recordsToken is the good twin: the token itself is recorded.
func recordsToken(ctx context.Context, db *sql.DB, lease *Lease, id string, v int64) error {
	_, err := db.ExecContext(ctx, "UPDATE acct SET bal = $1, fence = $3 WHERE id = $2 AND fence < $3", v, id, lease.Token)
	return err
}

func recordIncrementOrdinalNoFix(ctx context.Context, db *sql.DB, lease *Lease, id string, v int64) error {
	_, err := db.ExecContext(ctx, "UPDATE acct SET bal = ?, fence = fence + 1 WHERE id = ? AND fence < ?", v, id, lease.Token) // want `records fence \+ 1, not the token: .*; set fence = \?`
	return err
}

func recordOrdinalNoFix(ctx context.Context, db *sql.DB, lease *Lease, id string) error {
	// no fix: one more ? would shift the other placeholders
	_, err := db.ExecContext(ctx, "UPDATE acct SET bal = 0 WHERE id = ? AND fence < ?", id, lease.Token) // want `add SET fence = \?`
	return err
}

func dynamoFlip(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String("accounts"),
		Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		UpdateExpression:    aws.String("SET fence_token = :tok"),
		ConditionExpression: aws.String("fence_token >= :tok"), // want `is reversed`
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tok": &types.AttributeValueMemberN{Value: strconv.FormatInt(lease.Token, 10)},
		},
	})
	return err
}

func builderFlip(ctx context.Context, db *dynamodb.Client, lease Lease, acct string) error {
	cond := expression.Name("fence_token").GreaterThanEqual(expression.Value(lease.Token)) // want `is reversed`
	expr, err := expression.NewBuilder().WithCondition(cond).Build()
	if err != nil {
		return err
	}
	_, err = db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String("accounts"),
		Key:                       map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: acct}},
		ConditionExpression:       expr.Condition(),
		ExpressionAttributeValues: expr.Values(),
	})
	return err
}

func etcdFlip(ctx context.Context, m *concurrency.Mutex, cli *clientv3.Client) error {
	_, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision("/data"), ">", m.Header().Revision)).Then(clientv3.OpPut("/data", "v")).Commit() // want `is reversed`
	return err
}
