package rules

const (
	mongo     = "go.mongodb.org/mongo-driver/v2/mongo"
	mongoBSON = "go.mongodb.org/mongo-driver/v2/bson"
)

// MongoDB is go.mongodb.org/mongo-driver's mongo package, v2 and v1 (the
// same collection API under go.mongodb.org/mongo-driver/mongo). A write is
// fenced when its filter compares a fence field with the token
// (bson.M{"_id": id, "fence": bson.M{"$lt": tok}}) and records it when
// its update sets it ({"$set": {"fence": tok}}) or its replacement
// carries it. MongoDB answers a filter that matched nothing with success:
// MatchedCount (or ModifiedCount) 0, DeletedCount 0, or
// mongo.ErrNoDocuments from a FindOneAnd* result.
var MongoDB = Lib{
	Name:   "mongo",
	Paths:  []string{mongo, mongoBSON, mongoV1, mongoV1BSON},
	Writes: append(mongoWrites(mongo), mongoWrites(mongoV1)...),
	Reads: []string{"(*" + mongo + ".Collection).FindOne", "(*" + mongo + ".Collection).Find", "(*" + mongo + ".Collection).CountDocuments",
		"(*" + mongoV1 + ".Collection).FindOne", "(*" + mongoV1 + ".Collection).Find"},
}

const (
	mongoV1     = "go.mongodb.org/mongo-driver/mongo"
	mongoV1BSON = "go.mongodb.org/mongo-driver/bson"
)

// mongoWrites are the collection writes of the mongo package at pkg.
func mongoWrites(pkg string) []Write {
	coll := "(*" + pkg + ".Collection)."
	w := func(method string, kind WriteKind, filter, update int, out Outcome) Write {
		return Write{Func: coll + method, Kind: kind, Store: "MongoDB", InputArg: filter, UpdateArg: update, KeyArg: -1, Outcome: out}
	}
	matched, deleted, noDoc := mongoMatched, mongoDeleted, mongoNoDocument
	return []Write{
		w("UpdateOne", MongoWrite, 1, 2, matched),
		w("UpdateMany", MongoWrite, 1, 2, matched),
		w("UpdateByID", MongoWrite, -1, 2, matched),
		w("ReplaceOne", MongoWrite, 1, 2, matched),
		w("DeleteOne", MongoWrite, 1, -1, deleted),
		w("DeleteMany", MongoWrite, 1, -1, deleted),
		w("FindOneAndUpdate", MongoWrite, 1, 2, noDoc),
		w("FindOneAndReplace", MongoWrite, 1, 2, noDoc),
		w("FindOneAndDelete", MongoWrite, 1, -1, noDoc),
		{Func: coll + "BulkWrite", Kind: MongoBulk, Store: "MongoDB", InputArg: 1, KeyArg: -1, Outcome: matched},
		// An insert only creates: a duplicate _id rejects it, it cannot
		// overwrite a newer holder's document.
		{Func: coll + "InsertOne", Kind: KVBlind, Store: "MongoDB", KeyArg: -1, CreateOnly: true, Outcome: NoOutcome},
		{Func: coll + "InsertMany", Kind: KVBlind, Store: "MongoDB", KeyArg: -1, CreateOnly: true, Outcome: NoOutcome},
	}
}

var (
	mongoMatched = Outcome{Kind: RejectRowsField, Name: "MatchedCount == 0", Field: "MatchedCount", Values: []string{"ModifiedCount"}}
	mongoDeleted = Outcome{Kind: RejectRowsField, Name: "DeletedCount == 0", Field: "DeletedCount"}
	// mongoNoDocument: a FindOneAnd* whose filter matched nothing returns
	// a SingleResult whose Decode (and Err) is mongo.ErrNoDocuments.
	mongoNoDocument = Outcome{Kind: RejectNoRow, Name: "mongo.ErrNoDocuments", Method: "Decode", Values: []string{"Err", "Raw"},
		Sentinels: []string{mongo + ".ErrNoDocuments", mongoV1 + ".ErrNoDocuments"}}
)

// The bson document types a filter or update is built from: M (a map),
// D (a slice of E{Key, Value}), A (an array, for $and and $or).
const MongoBSONPkg = mongoBSON

// MongoModelPkgs are the packages of the write models that BulkWrite
// takes (NewUpdateOneModel().SetFilter(f).SetUpdate(u)), v2 and v1.
var MongoModelPkgs = map[string]bool{mongo: true, mongoV1: true}

// MongoModels is the v2 package of the write models.
const MongoModels = mongo

// MongoCompareOps are the query operators that compare a field with a
// value, as "field Op value"; a bare value is "=".
var MongoCompareOps = map[string]string{"$lt": "<", "$lte": "<=", "$gt": ">", "$gte": ">=", "$eq": "=", "$ne": "<>"}

// MongoRecordOps are the update operators that store the value given
// for a field: $set, and $max (the larger of the stored and given value).
var MongoRecordOps = map[string]bool{"$set": true, "$max": true}

// MongoModelSetters are the write models' builder methods, by the part
// of the write they set.
var MongoModelSetters = map[string]string{"SetFilter": "filter", "SetUpdate": "update", "SetReplacement": "update"}
