package libs

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// MongoDB: the filter is the write's condition; its update records the token.

func mongoByIDBad(ctx context.Context, coll *mongo.Collection, lease Lease, id string, n int) error {
	_, err := coll.UpdateOne(ctx, bson.M{"_id": id}, bson.M{"$set": bson.M{"qty": n}}) // want `MongoDB write via coll.UpdateOne under the Lease held in parameter lease is not fenced: its filter does not compare a fence field with the token`
	return err
}

func mongoFencedGood(ctx context.Context, coll *mongo.Collection, lease Lease, id string, n int) (bool, error) {
	// ok: the filter compares the fence with the token, the $set records it
	res, err := coll.UpdateOne(ctx,
		bson.M{"_id": id, "fence": bson.M{"$lt": lease.Token}},
		bson.M{"$set": bson.M{"qty": n, "fence": lease.Token}})
	if err != nil {
		return false, err
	}
	return res.MatchedCount == 1, nil
}

func mongoDocGood(ctx context.Context, coll *mongo.Collection, lease Lease, id string, n int) (bool, error) {
	// ok: the same with bson.D
	res, err := coll.UpdateOne(ctx,
		bson.D{{Key: "_id", Value: id}, {Key: "fence", Value: bson.D{{Key: "$lte", Value: lease.Token}}}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "qty", Value: n}, {Key: "fence", Value: lease.Token}}}})
	if err != nil {
		return false, err
	}
	return res.ModifiedCount > 0, nil
}

func mongoUpdateByIDBad(ctx context.Context, coll *mongo.Collection, lease Lease, id string) error {
	_, err := coll.UpdateByID(ctx, id, bson.M{"$set": bson.M{"fence": lease.Token}}) // want `it records lease.Token in fence but its filter never compares it`
	return err
}

func mongoReplaceBad(ctx context.Context, coll *mongo.Collection, lease Lease, id string, n int) error {
	_, err := coll.ReplaceOne(ctx, bson.M{"_id": id}, bson.M{"_id": id, "qty": n}) // want `MongoDB write via coll.ReplaceOne under the Lease held in parameter lease is not fenced`
	return err
}

type stateDoc struct {
	ID    string `bson:"_id"`
	Qty   int    `bson:"qty"`
	Fence int64  `bson:"fence"`
}

func mongoReplaceGood(ctx context.Context, coll *mongo.Collection, lease Lease, id string, n int) (bool, error) {
	// ok: the replacement carries the token in fence, the filter compares it
	res, err := coll.ReplaceOne(ctx, bson.M{"_id": id, "fence": bson.M{"$lt": lease.Token}}, &stateDoc{ID: id, Qty: n, Fence: lease.Token})
	if err != nil {
		return false, err
	}
	return res.MatchedCount != 0, nil
}

func mongoDeleteBad(ctx context.Context, coll *mongo.Collection, lease Lease, id string) error {
	_, err := coll.DeleteMany(ctx, bson.M{}) // want `MongoDB write via coll.DeleteMany under the Lease held in parameter lease is not fenced: its filter is empty`
	return err
}

func mongoDeleteGood(ctx context.Context, coll *mongo.Collection, lease Lease, id string) (bool, error) {
	// ok: deleted only while the stored fence is at most the token
	res, err := coll.DeleteOne(ctx, bson.M{"_id": id, "fence": bson.M{"$lte": lease.Token}})
	if err != nil {
		return false, err
	}
	return res.DeletedCount == 1, nil
}

func mongoFindOneAndUpdateGood(ctx context.Context, coll *mongo.Collection, lease Lease, id string) error {
	// ok: an and-ed filter; ErrNoDocuments is returned
	var doc stateDoc
	return coll.FindOneAndUpdate(ctx,
		bson.M{"$and": bson.A{bson.M{"_id": id}, bson.M{"fence": bson.M{"$lt": lease.Token}}}},
		bson.M{"$max": bson.M{"fence": lease.Token}}).Decode(&doc)
}

func mongoOrBad(ctx context.Context, coll *mongo.Collection, lease Lease, id string) error {
	// An $or with another alternative lets a document through whatever its fence.
	err := coll.FindOneAndReplace(ctx, // want `MongoDB write via coll.FindOneAndReplace under the Lease held in parameter lease is not fenced`
		bson.M{"$or": bson.A{bson.M{"_id": id}, bson.M{"fence": bson.M{"$lt": lease.Token}}}},
		bson.M{"_id": id, "fence": lease.Token}).Err()
	return err
}

func mongoFilterElsewhereGood(ctx context.Context, coll *mongo.Collection, lease Lease, filter bson.M) error {
	// ok: a filter built by the caller is not guessed at
	_, err := coll.DeleteOne(ctx, filter)
	return err
}

func mongoInsertBad(ctx context.Context, coll *mongo.Collection, lease Lease, id string) error {
	_, err := coll.InsertOne(ctx, bson.M{"_id": id}) // want `a plain InsertOne is not conditioned on the lock`
	return err
}

func mongoManyBad(ctx context.Context, coll *mongo.Collection, lease Lease, ids []string) error {
	_, err := coll.InsertMany(ctx, []any{bson.M{"_id": ids[0]}}) // want `MongoDB write via coll.InsertMany under the Lease held in parameter lease is not fenced`
	if err != nil {
		return err
	}
	_, err = coll.UpdateMany(ctx, bson.M{"owner": "me"}, bson.M{"$inc": bson.M{"n": 1}}) // want `its filter does not compare a fence field with the token`
	return err
}

func mongoBulkBad(ctx context.Context, coll *mongo.Collection, lease Lease, id string) error {
	models := []mongo.WriteModel{
		mongo.NewUpdateOneModel().SetFilter(bson.M{"_id": id, "fence": bson.M{"$lt": lease.Token}}).SetUpdate(bson.M{"$set": bson.M{"fence": lease.Token}}),
		mongo.NewReplaceOneModel().SetFilter(bson.M{"_id": "other"}).SetReplacement(bson.M{"_id": "other"}),
		mongo.NewDeleteOneModel().SetFilter(bson.M{"_id": "gone"}),
		mongo.NewInsertOneModel().SetDocument(bson.M{"_id": "new"}),
	}
	_, err := coll.BulkWrite(ctx, models) // want `a model of the bulk write is not fenced`
	return err
}

func mongoBulkGood(ctx context.Context, coll *mongo.Collection, lease Lease, id string) (bool, error) {
	// ok: every model is fenced
	res, err := coll.BulkWrite(ctx, []mongo.WriteModel{
		mongo.NewUpdateOneModel().SetFilter(bson.M{"_id": id, "fence": bson.M{"$lt": lease.Token}}).SetUpdate(bson.M{"$set": bson.M{"fence": lease.Token}}),
	})
	if err != nil {
		return false, err
	}
	return res.MatchedCount == 1, nil
}

func mongoReadGood(ctx context.Context, coll *mongo.Collection, lease Lease, id string) error {
	// ok: reads
	var doc stateDoc
	if err := coll.FindOne(ctx, bson.M{"_id": id}).Decode(&doc); err != nil {
		return err
	}
	_, err := coll.CountDocuments(ctx, bson.M{})
	return err
}

func mongoUnkeyedDocGood(ctx context.Context, coll *mongo.Collection, lease Lease, id string) (*mongo.UpdateResult, error) {
	// ok: bson.D with unkeyed elements, the common spelling
	return coll.UpdateOne(ctx,
		bson.D{{"_id", id}, {"fence", bson.D{{"$lt", lease.Token}}}},
		bson.D{{"$set", bson.D{{"fence", lease.Token}}}})
}

func mongoUnkeyedDocBad(ctx context.Context, coll *mongo.Collection, lease Lease, id string) (*mongo.UpdateResult, error) {
	return coll.UpdateOne(ctx, bson.D{{"_id", id}}, bson.D{{"$set", bson.D{{"state", "done"}}}}) // want `MongoDB write via coll.UpdateOne under the Lease held in parameter lease is not fenced`
}

func mongoFilterVarGood(ctx context.Context, coll *mongo.Collection, lease Lease, id string) (*mongo.UpdateResult, error) {
	// ok: the filter built in a variable, its fence added by index
	filter := bson.M{"_id": id}
	filter["fence"] = bson.M{"$lt": lease.Token}
	return coll.UpdateOne(ctx, filter, bson.M{"$set": bson.M{"fence": lease.Token}})
}

func mongoMissingFenceGood(ctx context.Context, coll *mongo.Collection, lease Lease, id string) (*mongo.UpdateResult, error) {
	// ok: the first grant's document has no fence yet, as DynamoDB's attribute_not_exists(fence) OR fence < :tok
	return coll.UpdateOne(ctx,
		bson.M{"_id": id, "$or": bson.A{bson.M{"fence": bson.M{"$exists": false}}, bson.M{"fence": bson.M{"$lt": lease.Token}}}},
		bson.M{"$set": bson.M{"fence": lease.Token}})
}

func mongoOrOtherFieldBad(ctx context.Context, coll *mongo.Collection, lease Lease, id string) (*mongo.UpdateResult, error) {
	return coll.UpdateOne(ctx, // want `MongoDB write via coll.UpdateOne under the Lease held in parameter lease is not fenced: it records lease.Token in fence but its filter compares it only in an \$or whose other branches let a document through whatever its fence`
		bson.M{"_id": id, "$or": bson.A{bson.M{"owner": nil}, bson.M{"fence": bson.M{"$lt": lease.Token}}}},
		bson.M{"$set": bson.M{"fence": lease.Token}})
}
