// Package cqlmongo: fences compared in Go before a Cassandra or MongoDB write.
package cqlmongo

import (
	"context"
	"errors"
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

type doc struct {
	ID    string `bson:"_id"`
	Fence int64  `bson:"fence"`
}

func mongoReadThenWriteBad(ctx context.Context, coll *mongo.Collection, lease *Lease, id string, n int) error {
	var d doc
	if err := coll.FindOne(ctx, bson.M{"_id": id}).Decode(&d); err != nil {
		return err
	}
	if d.Fence >= lease.Token { // want `fence check d.Fence >= lease.Token is done in Go before the MongoDB write via coll.UpdateOne: a newer holder can write between this check and the write`
		return errors.New("superseded")
	}
	_, err := coll.UpdateOne(ctx, bson.M{"_id": id}, bson.M{"$set": bson.M{"qty": n, "fence": lease.Token}})
	return err
}

func mongoReadThenFencedWriteGood(ctx context.Context, coll *mongo.Collection, lease *Lease, id string, n int) error {
	var d doc
	if err := coll.FindOne(ctx, bson.M{"_id": id}).Decode(&d); err != nil {
		return err
	}
	// ok: an early exit, but the filter compares the fence too
	if d.Fence >= lease.Token {
		return errors.New("superseded")
	}
	_, err := coll.UpdateOne(ctx, bson.M{"_id": id, "fence": bson.M{"$lt": lease.Token}}, bson.M{"$set": bson.M{"qty": n, "fence": lease.Token}})
	return err
}

func cqlReadThenWriteBad(s *gocql.Session, lease *Lease, shard int, data []byte) error {
	var fence int64
	if err := s.Query(`SELECT fence FROM shards WHERE shard_id = ?`, shard).Scan(&fence); err != nil {
		return err
	}
	if fence >= lease.Token { // want `fence check fence >= lease.Token is done in Go before the Cassandra write via s.Query\(.*\).Exec to shards`
		return errors.New("superseded")
	}
	return s.Query(`UPDATE shards SET data = ?, fence = ? WHERE shard_id = ?`, data, lease.Token, shard).Exec()
}

func cqlReadThenLWTGood(s *gocql.Session, lease *Lease, shard int, data []byte) (bool, error) {
	var fence int64
	if err := s.Query(`SELECT fence FROM shards WHERE shard_id = ?`, shard).Scan(&fence); err != nil {
		return false, err
	}
	// ok: the lightweight transaction compares it again
	if fence >= lease.Token {
		return false, errors.New("superseded")
	}
	return s.Query(`UPDATE shards SET data = ?, fence = ? WHERE shard_id = ? IF fence < ?`, data, lease.Token, shard, lease.Token).ScanCAS()
}
