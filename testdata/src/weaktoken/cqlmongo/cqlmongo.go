// Package cqlmongo: clocks used as the fence of Cassandra and MongoDB writes.
package cqlmongo

import (
	"context"
	"time"

	"github.com/gocql/gocql"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

type Lease struct {
	Resource  string
	Token     int64
	ExpiresAt time.Time
}

func cqlClockBad(s *gocql.Session, lease *Lease, shard int) (bool, error) {
	now := time.Now().UnixNano() // want `time.Now\(\).UnixNano\(\) is not a monotonic fencing token: wall-clock time is not monotonic across hosts and can step backwards; it is used as the fence of Cassandra write via s.Query\(.*\).ScanCAS`
	return s.Query(`UPDATE shards SET fence = ? WHERE shard_id = ? IF fence < ?`, now, shard, now).ScanCAS()
}

func cqlLeaseGood(s *gocql.Session, lease *Lease, shard int) (bool, error) {
	// ok: the lease's token
	return s.Query(`UPDATE shards SET fence = ? WHERE shard_id = ? IF fence < ?`, lease.Token, shard, lease.Token).ScanCAS()
}

func mongoClockBad(ctx context.Context, coll *mongo.Collection, lease *Lease, id string) (*mongo.UpdateResult, error) {
	stamp := time.Now().UnixMilli() // want `time.Now\(\).UnixMilli\(\) is not a monotonic fencing token: .*; it is used as the fence of MongoDB write via coll.UpdateOne`
	return coll.UpdateOne(ctx, bson.M{"_id": id, "fence": bson.M{"$lt": stamp}}, bson.M{"$set": bson.M{"fence": stamp}})
}

func mongoLeaseGood(ctx context.Context, coll *mongo.Collection, lease *Lease, id string) (*mongo.UpdateResult, error) {
	// ok: the lease's token
	return coll.UpdateOne(ctx, bson.M{"_id": id, "fence": bson.M{"$lt": lease.Token}}, bson.M{"$set": bson.M{"fence": lease.Token}})
}
