// Package silentreject defines an Analyzer that reports fenced writes whose
// rejection is never observed: a discarded result, a row count never
// compared, sql.ErrNoRows treated as success, a swallowed DynamoDB
// ConditionalCheckFailedException, an etcd Txn whose Succeeded is never
// read, and loops that re-issue a write the fence rejected.
package silentreject
