package rules

// The packages and types below are API knowledge the engine's readers
// need beyond the Lib tables: the builder functions of a library whose
// calls make up a condition (an etcd Txn's Compare and Op*, a DynamoDB
// expression builder's Name/Value/GreaterThan, gorm's clause types), and a
// few standard types. The engine compares packages and types only with
// these names, never with a literal of its own (issue 12).
const (
	// EtcdClientPkg is where Txn conditions and operations are built:
	// Compare, CreateRevision/ModRevision/Version/Value/LeaseValue,
	// OpPut/OpDelete, WithLease.
	EtcdClientPkg = etcdV3
	// EtcdConcurrencyPkg holds the lock recipes (NewMutex, NewElection,
	// NewSession) whose sessions, keys and leases the engine follows.
	EtcdConcurrencyPkg = etcdConc
	// EtcdSession is the session type whose lease keeps the recipes'
	// locks; EtcdSessionCtx is its Ctx, whose Err() is the session's own
	// view of its liveness (a client-side check, not a fence).
	EtcdSession    = etcdConc + ".Session"
	EtcdSessionCtx = "(*" + etcdConc + ".Session).Ctx"

	// DynamoExpressionPkg is the DynamoDB expression builder.
	DynamoExpressionPkg = expression

	// GCSPkg is Cloud Storage: the chain of handle methods in front of a
	// write is read within it.
	GCSPkg = gcs

	// AWSValueHelpersPkg holds aws.String, aws.Int64, ...: a call with one
	// argument returns a pointer to that argument's value.
	AWSValueHelpersPkg = "github.com/aws/aws-sdk-go-v2/aws"

	// GormLocking and GormReturning are gorm's clause types for a locking
	// read (clause.Locking{Strength: "UPDATE"}) and RETURNING.
	GormLocking   = gormPkg + "/clause.Locking"
	GormReturning = gormPkg + "/clause.Returning"

	// ContextType is context.Context: an argument of that type carries no
	// data to a write.
	ContextType = "context.Context"
)

// LogPackages are packages whose every function only records its
// arguments (log, log/slog, zap, logrus); PrintPackages are those whose
// Print*/Fprint* functions do (fmt). Logging a write's outcome does not
// act on it.
var (
	LogPackages   = map[string]bool{"log": true, "log/slog": true, "go.uber.org/zap": true, "github.com/sirupsen/logrus": true}
	PrintPackages = map[string]bool{"fmt": true}
)

// Sprintf builds a key from a format: its constant prefix is the key's
// (a key pattern for the fence map).
const Sprintf = "fmt.Sprintf"

// ClockPkg is the wall clock; ClockChecks are its functions and methods
// that compare a reading with a deadline (time.Now().Before(expiry),
// time.Until(exp)): a client-side expiry check, not a fence.
const ClockPkg = "time"

var ClockChecks = map[string]bool{"Before": true, "After": true, "Until": true, "Since": true, "Compare": true}

// Digests are the functions whose result is a cryptographic digest of
// their argument: a key that carries one of the value written under it
// names that content (content-addressed storage).
var Digests = map[string]bool{
	"crypto/md5.Sum": true, "crypto/sha1.Sum": true, "crypto/sha256.Sum256": true,
	"crypto/sha256.Sum224": true, "crypto/sha512.Sum512": true, "crypto/sha512.Sum384": true,
}
