// Package cqlmongo exercises the fence conditions of Cassandra
// lightweight transactions and MongoDB filters.
package cqlmongo

import (
	"context"
	"time"

	"github.com/gocql/gocql"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

type Lease struct {
	Token     int64
	ExpiresAt time.Time
}

func cqlReversedBad(s *gocql.Session, lease Lease, shard int) (bool, error) {
	return s.Query(`UPDATE shards SET fence = ? WHERE shard_id = ? IF fence > ?`, lease.Token, shard, lease.Token).ScanCAS() // want `fence condition of s.Query\(.*\).ScanCAS is reversed: fence > \? lets a stale holder's older token through and rejects the current holder; use fence < \?`
}

func cqlGood(s *gocql.Session, lease Lease, shard int) (bool, error) {
	// ok: the stored fence below the token, and recorded
	return s.Query(`UPDATE shards SET fence = ? WHERE shard_id = ? IF fence < ?`, lease.Token, shard, lease.Token).ScanCAS()
}

func cqlNotRecordedBad(s *gocql.Session, lease Lease, shard int, data []byte) (bool, error) {
	return s.Query(`UPDATE shards SET data = ? WHERE shard_id = ? IF fence < ?`, data, shard, lease.Token).ScanCAS() // want `fence condition of s.Query\(.*\).ScanCAS compares fence with the token but never records it`
}

func cqlEqualityGood(s *gocql.Session, lease Lease, shard int, data []byte) (bool, error) {
	// ok: IF range_id = ? is a compare-and-set on the value the holder
	// was granted; nothing more to record
	return s.Query(`UPDATE shards SET data = ? WHERE shard_id = ? IF range_id = ?`, data, shard, lease.Token).ScanCAS()
}

func cqlInequalityBad(s *gocql.Session, lease Lease, shard int) (bool, error) {
	return s.Query(`UPDATE shards SET fence = ? WHERE shard_id = ? IF fence != ?`, lease.Token, shard, lease.Token).ScanCAS() // want `compares fence != \?: any other token passes`
}

func cqlBatchReversedBad(s *gocql.Session, lease Lease, shard int) (bool, error) {
	b := s.NewBatch(gocql.LoggedBatch)
	b.Query(`UPDATE shards SET fence = ? WHERE shard_id = ? IF fence >= ?`, lease.Token, shard, lease.Token) // want `fence condition of s.MapExecuteBatchCAS is reversed: fence >= \?`
	b.Query(`INSERT INTO shard_log (shard_id) VALUES (?)`, shard)
	applied, _, err := s.MapExecuteBatchCAS(b, map[string]interface{}{})
	return applied, err
}

func mongoReversedBad(ctx context.Context, coll *mongo.Collection, lease Lease, id string) (*mongo.UpdateResult, error) {
	return coll.UpdateOne(ctx,
		bson.M{"_id": id, "fence": bson.M{"$gt": lease.Token}}, // want `fence condition of coll.UpdateOne is reversed: fence > lease.Token lets a stale holder's older token through`
		bson.M{"$set": bson.M{"fence": lease.Token}})
}

func mongoGood(ctx context.Context, coll *mongo.Collection, lease Lease, id string) (*mongo.UpdateResult, error) {
	// ok
	return coll.UpdateOne(ctx,
		bson.M{"_id": id, "fence": bson.M{"$lt": lease.Token}},
		bson.M{"$set": bson.M{"fence": lease.Token}})
}

func mongoNotRecordedBad(ctx context.Context, coll *mongo.Collection, lease Lease, id string, n int) (*mongo.UpdateResult, error) {
	return coll.UpdateOne(ctx,
		bson.D{{Key: "_id", Value: id}, {Key: "fence", Value: bson.D{{Key: "$lt", Value: lease.Token}}}}, // want `fence condition of coll.UpdateOne compares fence with the token, but its update never sets fence to the token`
		bson.D{{Key: "$set", Value: bson.D{{Key: "qty", Value: n}}}})
}

func mongoInequalityBad(ctx context.Context, coll *mongo.Collection, lease Lease, id string) (*mongo.UpdateResult, error) {
	return coll.ReplaceOne(ctx,
		bson.M{"_id": id, "fence": bson.M{"$ne": lease.Token}}, // want `fence condition of coll.ReplaceOne compares fence <> lease.Token: any other token passes`
		bson.M{"_id": id, "fence": lease.Token})
}

func mongoDeleteGood(ctx context.Context, coll *mongo.Collection, lease Lease, id string) (*mongo.DeleteResult, error) {
	// ok: a delete has nothing to record
	return coll.DeleteOne(ctx, bson.M{"_id": id, "fence": bson.M{"$lte": lease.Token}})
}
