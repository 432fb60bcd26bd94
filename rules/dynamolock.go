package rules

const dynamolock = "cirello.io/dynamolock/v2"

// DynamoLock is cirello.io/dynamolock/v2, a lease-based lock table in
// DynamoDB. Its record version number is a random UUID checked only by the
// lock client's own heartbeats and releases, never by the caller's writes:
// the lock opens a scope but offers no token.
var DynamoLock = Lib{
	Name:  "dynamolock",
	Paths: []string{dynamolock},
	Acquires: []Acquire{
		{Func: "(*" + dynamolock + ".Client).AcquireLock", Success: ErrNil, Lock: "dynamolock lock", NoToken: true, KeyArg: -1, LockResult: true},
		{Func: "(*" + dynamolock + ".Client).AcquireLockWithContext", Success: ErrNil, Lock: "dynamolock lock", NoToken: true, KeyArg: -1, LockResult: true},
	},
	Releases: []string{
		"(*" + dynamolock + ".Client).ReleaseLock",
		"(*" + dynamolock + ".Client).ReleaseLockWithContext",
		"(*" + dynamolock + ".Lock).Close",
	},
	Renews: []string{
		"(*" + dynamolock + ".Client).SendHeartbeat",
		"(*" + dynamolock + ".Client).SendHeartbeatWithContext",
	},
	LockTypes: []string{dynamolock + ".Lock"},
}
