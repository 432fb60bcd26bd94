package libs

import (
	"context"

	"go.mongodb.org/mongo-driver/bson"
	mongov1 "go.mongodb.org/mongo-driver/mongo"
)

// mongo-driver v1: the same collection API under go.mongodb.org/mongo-driver.

func mongoV1Bad(ctx context.Context, coll *mongov1.Collection, lease Lease, id string) error {
	if _, err := coll.UpdateOne(ctx, bson.M{"_id": id}, bson.M{"$set": bson.M{"state": "done"}}); err != nil { // want `MongoDB write via coll.UpdateOne under the Lease held in parameter lease is not fenced: its filter does not compare a fence field with the token`
		return err
	}
	if _, err := coll.UpdateMany(ctx, bson.D{{"owner", "me"}}, bson.D{{"$inc", bson.D{{"n", 1}}}}); err != nil { // want `MongoDB write via coll.UpdateMany under the Lease held in parameter lease is not fenced`
		return err
	}
	if _, err := coll.UpdateByID(ctx, id, bson.M{"$set": bson.M{"state": "done"}}); err != nil { // want `UpdateByID's filter is the _id alone`
		return err
	}
	if _, err := coll.ReplaceOne(ctx, bson.M{"_id": id}, bson.M{"_id": id}); err != nil { // want `MongoDB write via coll.ReplaceOne under the Lease held in parameter lease is not fenced`
		return err
	}
	if _, err := coll.DeleteMany(ctx, bson.M{"state": "stale"}); err != nil { // want `MongoDB write via coll.DeleteMany under the Lease held in parameter lease is not fenced`
		return err
	}
	if _, err := coll.InsertOne(ctx, bson.M{"_id": id}); err != nil { // want `a plain InsertOne is not conditioned on the lock`
		return err
	}
	if _, err := coll.InsertMany(ctx, []interface{}{bson.M{"_id": id}}); err != nil { // want `a plain InsertMany is not conditioned on the lock`
		return err
	}
	_, err := coll.BulkWrite(ctx, []mongov1.WriteModel{mongov1.NewDeleteOneModel().SetFilter(bson.M{"_id": id})}) // want `a model of the bulk write is not fenced`
	return err
}

func mongoV1Good(ctx context.Context, coll *mongov1.Collection, lease Lease, id string) (bool, error) {
	// ok: every write's filter compares the fence with the lease's token
	fenced := bson.M{"_id": id, "fence": bson.M{"$lt": lease.Token}}
	res, err := coll.UpdateOne(ctx, fenced, bson.M{"$set": bson.M{"fence": lease.Token}})
	if err != nil || res.MatchedCount == 0 {
		return false, err
	}
	del, err := coll.DeleteOne(ctx, bson.M{"_id": id, "fence": bson.M{"$lte": lease.Token}})
	if err != nil || del.DeletedCount == 0 {
		return false, err
	}
	var doc bson.M
	if err := coll.FindOneAndUpdate(ctx, bson.M{"_id": id, "fence": bson.M{"$lt": lease.Token}}, bson.M{"$set": bson.M{"fence": lease.Token}}).Decode(&doc); err != nil {
		return false, err
	}
	if err := coll.FindOneAndReplace(ctx, bson.M{"_id": id, "fence": bson.M{"$lt": lease.Token}}, bson.M{"_id": id, "fence": lease.Token}).Err(); err != nil {
		return false, err
	}
	if err := coll.FindOneAndDelete(ctx, bson.M{"_id": id, "fence": bson.M{"$lte": lease.Token}}).Err(); err != nil {
		return false, err
	}
	bulk, err := coll.BulkWrite(ctx, []mongov1.WriteModel{
		mongov1.NewUpdateOneModel().SetFilter(bson.M{"_id": id, "fence": bson.M{"$lt": lease.Token}}).SetUpdate(bson.M{"$set": bson.M{"fence": lease.Token}}),
	})
	if err != nil {
		return false, err
	}
	return bulk.MatchedCount == 1, nil
}
