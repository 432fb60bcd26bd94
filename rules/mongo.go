package rules

const (
	mongo     = "go.mongodb.org/mongo-driver/v2/mongo"
	mongoBSON = "go.mongodb.org/mongo-driver/v2/bson"
)

// MongoDB is go.mongodb.org/mongo-driver/v2's mongo package. A write is
// fenced when its filter compares a fence field with the token
// (bson.M{"_id": id, "fence": bson.M{"$lt": tok}}) and records it when
// its update sets it ({"$set": {"fence": tok}}) or its replacement
// carries it. MongoDB answers a filter that matched nothing with success:
// MatchedCount (or ModifiedCount) 0, DeletedCount 0, or
// mongo.ErrNoDocuments from a FindOneAnd* result.
var MongoDB = Lib{
	Name:  "mongo",
	Paths: []string{mongo, mongoBSON},
	Writes: []Write{
		{Func: "(*" + mongo + ".Collection).UpdateOne", Kind: MongoWrite, Store: "MongoDB", InputArg: 1, UpdateArg: 2, KeyArg: -1, Outcome: mongoMatched},
		{Func: "(*" + mongo + ".Collection).UpdateMany", Kind: MongoWrite, Store: "MongoDB", InputArg: 1, UpdateArg: 2, KeyArg: -1, Outcome: mongoMatched},
		{Func: "(*" + mongo + ".Collection).UpdateByID", Kind: MongoWrite, Store: "MongoDB", InputArg: -1, UpdateArg: 2, KeyArg: -1, Outcome: mongoMatched},
		{Func: "(*" + mongo + ".Collection).ReplaceOne", Kind: MongoWrite, Store: "MongoDB", InputArg: 1, UpdateArg: 2, KeyArg: -1, Outcome: mongoMatched},
		{Func: "(*" + mongo + ".Collection).DeleteOne", Kind: MongoWrite, Store: "MongoDB", InputArg: 1, UpdateArg: -1, KeyArg: -1, Outcome: mongoDeleted},
		{Func: "(*" + mongo + ".Collection).DeleteMany", Kind: MongoWrite, Store: "MongoDB", InputArg: 1, UpdateArg: -1, KeyArg: -1, Outcome: mongoDeleted},
		{Func: "(*" + mongo + ".Collection).FindOneAndUpdate", Kind: MongoWrite, Store: "MongoDB", InputArg: 1, UpdateArg: 2, KeyArg: -1, Outcome: mongoNoDocument},
		{Func: "(*" + mongo + ".Collection).FindOneAndReplace", Kind: MongoWrite, Store: "MongoDB", InputArg: 1, UpdateArg: 2, KeyArg: -1, Outcome: mongoNoDocument},
		{Func: "(*" + mongo + ".Collection).FindOneAndDelete", Kind: MongoWrite, Store: "MongoDB", InputArg: 1, UpdateArg: -1, KeyArg: -1, Outcome: mongoNoDocument},
		{Func: "(*" + mongo + ".Collection).BulkWrite", Kind: MongoBulk, Store: "MongoDB", InputArg: 1, KeyArg: -1, Outcome: mongoMatched},
		// An insert only creates: a duplicate _id rejects it, it cannot
		// overwrite a newer holder's document.
		{Func: "(*" + mongo + ".Collection).InsertOne", Kind: KVBlind, Store: "MongoDB", KeyArg: -1, CreateOnly: true, Outcome: NoOutcome},
		{Func: "(*" + mongo + ".Collection).InsertMany", Kind: KVBlind, Store: "MongoDB", KeyArg: -1, CreateOnly: true, Outcome: NoOutcome},
	},
	Reads: []string{"(*" + mongo + ".Collection).FindOne", "(*" + mongo + ".Collection).Find", "(*" + mongo + ".Collection).CountDocuments"},
}

var (
	mongoMatched = Outcome{Kind: RejectRowsField, Name: "MatchedCount == 0", Field: "MatchedCount", Values: []string{"ModifiedCount"}}
	mongoDeleted = Outcome{Kind: RejectRowsField, Name: "DeletedCount == 0", Field: "DeletedCount"}
	// mongoNoDocument: a FindOneAnd* whose filter matched nothing returns
	// a SingleResult whose Decode (and Err) is mongo.ErrNoDocuments.
	mongoNoDocument = Outcome{Kind: RejectNoRow, Name: "mongo.ErrNoDocuments", Method: "Decode", Values: []string{"Err", "Raw"},
		Sentinels: []string{mongo + ".ErrNoDocuments"}}
)

// The bson document types a filter or update is built from: M (a map),
// D (a slice of E{Key, Value}), A (an array, for $and and $or).
const (
	MongoBSONPkg = mongoBSON
	MongoModels  = mongo // NewUpdateOneModel().SetFilter(f).SetUpdate(u)
)

// MongoCompareOps are the query operators that compare a field with a
// value, as "field Op value"; a bare value is "=".
var MongoCompareOps = map[string]string{"$lt": "<", "$lte": "<=", "$gt": ">", "$gte": ">=", "$eq": "=", "$ne": "<>"}

// MongoRecordOps are the update operators that store the value given
// for a field: $set, and $max (the larger of the stored and given value).
var MongoRecordOps = map[string]bool{"$set": true, "$max": true}

// MongoModelSetters are the write models' builder methods, by the part
// of the write they set.
var MongoModelSetters = map[string]string{"SetFilter": "filter", "SetUpdate": "update", "SetReplacement": "update"}
