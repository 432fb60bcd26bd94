// Package cqlmongo: Cassandra and MongoDB writes whose condition fencelint
// cannot read are blind spots of the fence map, not silence.
package cqlmongo

import (
	"context"
	"fmt"
	"time"

	"github.com/gocql/gocql"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

type Lease struct {
	Token     int64
	ExpiresAt time.Time
}

// A query made by the caller: its statement is not here.
func runQuery(q *gocql.Query, lease Lease) error {
	return q.Exec()
}

// A statement with a value formatted into it.
func formatted(s *gocql.Session, lease Lease, shard int) error {
	return s.Query(fmt.Sprintf("UPDATE shards SET owner = 'me' WHERE shard_id = %d", shard)).Exec()
}

// A filter from the caller.
func filtered(ctx context.Context, coll *mongo.Collection, lease Lease, filter bson.M) error {
	_, err := coll.DeleteMany(ctx, filter)
	return err
}

// A keyspace formatted into the statement is read: not a blind spot.
func keyspace(s *gocql.Session, lease Lease, ks string, shard int) (bool, error) {
	return s.Query(fmt.Sprintf("UPDATE %s.shards SET fence = ? WHERE shard_id = ? IF fence < ?", ks), lease.Token, shard, lease.Token).ScanCAS()
}
