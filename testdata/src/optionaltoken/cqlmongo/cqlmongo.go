// Package cqlmongo: optional fencing tokens of Cassandra and MongoDB write helpers.
package cqlmongo

import (
	"context"

	"github.com/gocql/gocql"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

func SaveMongoPtr(ctx context.Context, coll *mongo.Collection, id string, fence *int64) error { // want `fencing token parameter fence of SaveMongoPtr is a pointer: a caller can pass nil and skip the fence; take it by value`
	filter := bson.M{"_id": id}
	if fence != nil {
		filter = bson.M{"_id": id, "fence": bson.M{"$lt": *fence}}
	}
	_, err := coll.UpdateOne(ctx, filter, bson.M{"$set": bson.M{"state": "done"}})
	return err
}

// ok: the token is taken by value
func SaveMongo(ctx context.Context, coll *mongo.Collection, id string, fence int64) error {
	_, err := coll.UpdateOne(ctx, bson.M{"_id": id, "fence": bson.M{"$lt": fence}}, bson.M{"$set": bson.M{"fence": fence}})
	return err
}

func SaveShardVariadic(s *gocql.Session, shard int, epoch ...int64) (bool, error) { // want `fencing token parameter epoch of SaveShardVariadic is variadic: a caller can leave it out and skip the fence; make it a required parameter`
	if len(epoch) == 0 {
		return true, s.Query(`UPDATE shards SET owner = ? WHERE shard_id = ?`, "me", shard).Exec()
	}
	return s.Query(`UPDATE shards SET epoch = ? WHERE shard_id = ? IF epoch < ?`, epoch[0], shard, epoch[0]).ScanCAS()
}

// ok: the token is required
func SaveShard(s *gocql.Session, shard int, epoch int64) (bool, error) {
	return s.Query(`UPDATE shards SET epoch = ? WHERE shard_id = ? IF epoch < ?`, epoch, shard, epoch).ScanCAS()
}
