package rules

import "github.com/fencelint/fencelint/internal/lazyregexp"

const (
	dynamodb   = "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddbTypes   = dynamodb + "/types"
	expression = "github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
)

// DynamoStringAttr is the type key of a DynamoDB string attribute value.
// DynamoDB orders S values byte by byte and N values as numbers, so a
// token compared with < as an S attribute is compared as text.
const DynamoStringAttr = ddbTypes + ".AttributeValueMemberS"

// DynamoDB is aws-sdk-go-v2's DynamoDB client. The fence is the input's
// ConditionExpression with its ExpressionAttributeValues. BatchWriteItem
// has no condition at all.
var DynamoDB = Lib{
	Name:  "DynamoDB",
	Paths: []string{dynamodb, expression},
	Writes: []Write{
		{Func: "(*" + dynamodb + ".Client).PutItem", Kind: DynamoWrite, Store: "DynamoDB", InputArg: 1, KeyArg: -1, Outcome: dynamoOutcome},
		{Func: "(*" + dynamodb + ".Client).UpdateItem", Kind: DynamoWrite, Store: "DynamoDB", InputArg: 1, KeyArg: -1, Outcome: dynamoOutcome},
		{Func: "(*" + dynamodb + ".Client).DeleteItem", Kind: DynamoWrite, Store: "DynamoDB", InputArg: 1, KeyArg: -1, Outcome: dynamoOutcome},
		{Func: "(*" + dynamodb + ".Client).TransactWriteItems", Kind: DynamoTransact, Store: "DynamoDB", InputArg: 1, KeyArg: -1, Outcome: dynamoOutcome},
		{Func: "(*" + dynamodb + ".Client).BatchWriteItem", Kind: DynamoTransact, Store: "DynamoDB", InputArg: 1, KeyArg: -1, Outcome: dynamoOutcome},
	},
}

// dynamoOutcome: a failed ConditionExpression is an error,
// ConditionalCheckFailedException (TransactionCanceledException for a
// transaction one of whose conditions failed).
var dynamoOutcome = Outcome{Kind: RejectError, Name: "ConditionalCheckFailedException",
	ErrTypes: []string{ddbTypes + ".ConditionalCheckFailedException", ddbTypes + ".TransactionCanceledException"},
	ErrCode:  &ErrCode{Type: smithyAPIError, Method: "ErrorCode", Codes: []string{"ConditionalCheckFailedException", "TransactionCanceledException"}}}

// DynamoInputs are the input struct types whose fields hold a condition.
var DynamoInputs = map[string]bool{
	dynamodb + ".PutItemInput":    true,
	dynamodb + ".UpdateItemInput": true,
	dynamodb + ".DeleteItemInput": true,
	ddbTypes + ".Put":             true,
	ddbTypes + ".Update":          true,
	ddbTypes + ".Delete":          true,
	ddbTypes + ".ConditionCheck":  true,
}

// dynamoCreateIfAbsentRe matches a ConditionExpression that only lets a
// PutItem create an item that does not exist yet.
var dynamoCreateIfAbsentRe = lazyregexp.New(`^\s*attribute_not_exists\s*\(\s*[#\w.]+\s*\)\s*$`)

// IsDynamoCreateIfAbsent reports whether a constant ConditionExpression
// is attribute_not_exists(key) alone: the shape of a lock item
// (terraform's DynamoDB state lock).
func IsDynamoCreateIfAbsent(cond string) bool { return dynamoCreateIfAbsentRe.MatchString(cond) }
