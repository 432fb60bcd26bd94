// Package cqlmongo exercises the outcomes of Cassandra lightweight
// transactions and MongoDB fenced writes.
package cqlmongo

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/gocql/gocql"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

type Lease struct {
	Token     int64
	ExpiresAt time.Time
}

var ErrStale = errors.New("stale holder")

const fencedCQL = `UPDATE shards SET data = ?, fence = ? WHERE shard_id = ? IF fence < ?`

func cqlExecBad(s *gocql.Session, lease Lease, shard int, data []byte) error {
	return s.Query(fencedCQL, data, lease.Token, shard, lease.Token).Exec() // want `fenced write via s.Query\(.*\).Exec throws its outcome away: Cassandra answers a write its condition rejected with \[applied\] = false and no error, which this call drops; run it with ScanCAS or MapScanCAS`
}

func cqlScanCASGood(s *gocql.Session, lease Lease, shard int, data []byte) error {
	// ok: applied is tested
	applied, err := s.Query(fencedCQL, data, lease.Token, shard, lease.Token).ScanCAS()
	if err != nil {
		return err
	}
	if !applied {
		return ErrStale
	}
	return nil
}

func cqlAppliedIgnoredBad(s *gocql.Session, lease Lease, shard int, data []byte) error {
	_, err := s.Query(fencedCQL, data, lease.Token, shard, lease.Token).MapScanCAS(map[string]interface{}{}) // want `the ok result of fenced write via s.Query\(.*\).MapScanCAS is discarded: Cassandra reports a write its check rejected as applied == false with a nil error`
	return err
}

func cqlAppliedLoggedBad(s *gocql.Session, lease Lease, shard int, data []byte) error {
	applied, err := s.Query(fencedCQL, data, lease.Token, shard, lease.Token).ScanCAS() // want `never tests its ok result`
	log.Println("applied", applied)
	return err
}

func cqlExecUnconditionalGood(s *gocql.Session, lease Lease, shard int) error {
	// ok for silentreject: nothing rejects an UPDATE without IF (unfencedwrite's finding)
	return s.Query(`UPDATE shards SET data = ? WHERE shard_id = ?`, nil, shard).Exec()
}

func cqlBatchBad(s *gocql.Session, lease Lease, shard int) error {
	b := s.NewBatch(gocql.LoggedBatch)
	b.Query(`UPDATE shards SET fence = ? WHERE shard_id = ? IF fence < ?`, lease.Token, shard, lease.Token)
	b.Query(`INSERT INTO shard_log (shard_id, at) VALUES (?, ?)`, shard, time.Now())
	return s.ExecuteBatch(b) // want `fenced write via s.ExecuteBatch throws its outcome away`
}

func cqlBatchGood(s *gocql.Session, lease Lease, shard int) error {
	b := s.NewBatch(gocql.LoggedBatch)
	b.Query(`UPDATE shards SET fence = ? WHERE shard_id = ? IF fence < ?`, lease.Token, shard, lease.Token)
	// ok: applied is returned to the caller's test
	applied, _, err := s.ExecuteBatchCAS(b)
	if err == nil && !applied {
		return ErrStale
	}
	return err
}

func mongoMatchedIgnoredBad(ctx context.Context, coll *mongo.Collection, lease Lease, id string) error {
	_, err := coll.UpdateOne(ctx, bson.M{"_id": id, "fence": bson.M{"$lt": lease.Token}}, bson.M{"$set": bson.M{"fence": lease.Token}}) // want `the result of fenced write via coll.UpdateOne is discarded: MongoDB reports a write the fence rejected as MatchedCount == 0, not as an error`
	return err
}

func mongoMatchedNeverComparedBad(ctx context.Context, coll *mongo.Collection, lease Lease, id string) error {
	res, err := coll.UpdateOne(ctx, bson.M{"_id": id, "fence": bson.M{"$lt": lease.Token}}, bson.M{"$set": bson.M{"fence": lease.Token}}) // want `fenced write via coll.UpdateOne never compares MatchedCount`
	if err != nil {
		return err
	}
	log.Println(res.UpsertedID)
	return nil
}

func mongoMatchedGood(ctx context.Context, coll *mongo.Collection, lease Lease, id string) error {
	res, err := coll.UpdateOne(ctx, bson.M{"_id": id, "fence": bson.M{"$lt": lease.Token}}, bson.M{"$set": bson.M{"fence": lease.Token}})
	if err != nil {
		return err
	}
	// ok: MatchedCount == 0 is the rejection
	if res.MatchedCount == 0 {
		return ErrStale
	}
	return nil
}

func mongoDeletedBad(ctx context.Context, coll *mongo.Collection, lease Lease, id string) {
	coll.DeleteOne(ctx, bson.M{"_id": id, "fence": bson.M{"$lte": lease.Token}}) // want `the result of fenced write via coll.DeleteOne is discarded`
}

func mongoNoDocumentAsSuccessBad(ctx context.Context, coll *mongo.Collection, lease Lease, id string) error {
	err := coll.FindOneAndDelete(ctx, bson.M{"_id": id, "fence": bson.M{"$lte": lease.Token}}).Err() // want `fenced write via coll.FindOneAndDelete treats mongo.ErrNoDocuments as success: no document returned means a newer holder has already written`
	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil
	}
	return err
}

func mongoNoDocumentGood(ctx context.Context, coll *mongo.Collection, lease Lease, id string) error {
	var doc bson.M
	err := coll.FindOneAndUpdate(ctx, bson.M{"_id": id, "fence": bson.M{"$lt": lease.Token}}, bson.M{"$set": bson.M{"fence": lease.Token}}).Decode(&doc)
	// ok: ErrNoDocuments aborts
	if errors.Is(err, mongo.ErrNoDocuments) {
		return ErrStale
	}
	return err
}

func mongoDroppedBad(ctx context.Context, coll *mongo.Collection, lease Lease, id string) {
	coll.FindOneAndUpdate(ctx, bson.M{"_id": id, "fence": bson.M{"$lt": lease.Token}}, bson.M{"$set": bson.M{"fence": lease.Token}}) // want `the error of fenced write via coll.FindOneAndUpdate is discarded: mongo.ErrNoDocuments is how the fence rejects a stale holder`
}
