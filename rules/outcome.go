package rules

// Rejection says how a store tells its caller that a write's own condition
// rejected it. A fence rejects a stale holder without an error in most
// stores, so every Write declares its Outcome: the engine has one reader
// per Rejection (analyzer/internal/fence/outcome.go) and chooses it from
// the declaration, never from the store's or the method's name.
type Rejection int

const (
	// RejectUndeclared is the zero value: a Write must say how it is
	// rejected, and the contract test fails on one that does not.
	RejectUndeclared Rejection = iota
	// RejectNever: nothing rejects the write; it is blind by construction
	// (etcd Put, a Redis command, gorm Save or Create, ZooKeeper Create).
	RejectNever
	// RejectUnmodelled: the write can be conditional, but its rejection
	// is not followed: Query's rows, a statement queued on a batch.
	RejectUnmodelled
	// RejectRowsAffected: result 0 has a method (Method) that returns the
	// number of rows written; 0 means rejected (sql.Result, pgconn's
	// CommandTag).
	RejectRowsAffected
	// RejectRowsField: result 0 is a handle whose integer field (Field)
	// is the number of rows written; 0 means rejected, and the write is
	// not an error (gorm's *DB.RowsAffected).
	RejectRowsField
	// RejectNoRow: result 0 is a row whose Method (Scan) returns one of
	// Sentinels when the statement returned nothing; judged only when the
	// statement is a write with RETURNING.
	RejectNoRow
	// RejectFlagField: result 0 has a bool field (Field) that is false
	// when the condition failed (etcd's TxnResponse.Succeeded).
	RejectFlagField
	// RejectFlag: result 0 is a bool that is false, with a nil error,
	// when the condition failed (consul's CAS, Acquire and Txn).
	RejectFlag
	// RejectError: the call's error result is the condition failure; the
	// code tells it apart with Sentinels, ErrTypes or ErrCode.
	RejectError
	// RejectCloseError: the condition failure comes from Method (Close)
	// of the writer result 0 (a GCS conditional upload).
	RejectCloseError
	// RejectReply: a script's reply is its verdict. Method (Err) reads
	// only the error; Values are the methods that read the reply as a
	// number, which a script that answers a stale token with a number
	// must have compared.
	RejectReply
	// RejectDropped: the store reports the rejection in a result this
	// call throws away, so no code after it can see it: gocql's Exec of a
	// lightweight transaction discards the [applied] column Cassandra
	// answers with. A conditional write run through it is a finding
	// whatever the code does next; Method names the calls that keep the
	// rejection, for messages.
	RejectDropped
)

// Rejections is every Rejection a Write can declare, for the contract
// tests: each must have a reader in the engine.
var Rejections = []Rejection{
	RejectNever, RejectUnmodelled, RejectRowsAffected, RejectRowsField, RejectNoRow,
	RejectFlagField, RejectFlag, RejectError, RejectCloseError, RejectReply, RejectDropped,
}

func (r Rejection) String() string {
	switch r {
	case RejectNever:
		return "never"
	case RejectUnmodelled:
		return "unmodelled"
	case RejectRowsAffected:
		return "rows-affected"
	case RejectRowsField:
		return "rows-field"
	case RejectNoRow:
		return "no-row"
	case RejectFlagField:
		return "flag-field"
	case RejectFlag:
		return "flag"
	case RejectError:
		return "error"
	case RejectCloseError:
		return "close-error"
	case RejectReply:
		return "reply"
	case RejectDropped:
		return "dropped"
	}
	return "undeclared"
}

// Outcome is one write's declared rejection: how the store reports that
// the write's condition failed, and the names the code tells it apart by.
type Outcome struct {
	Kind Rejection
	// Name is the store's name for a rejection, as messages say it:
	// "0 rows", "sql.ErrNoRows", "ConditionalCheckFailedException".
	Name string
	// Method and Field name the accessor Kind reads (see Rejection).
	Method string
	Field  string
	// Values are, for RejectReply, the methods that read the reply; for
	// RejectRowsField, other count fields that read the rejection too
	// (MongoDB's ModifiedCount beside MatchedCount); for RejectNoRow,
	// other methods of the row that return its error (SingleResult.Err
	// beside Decode).
	Values []string
	// Result names, for RejectFlagField, the response type whose Field
	// says it ("TxnResponse"), for messages.
	Result string
	// Sentinels are "pkgpath.Var" keys of the error variables the store
	// answers a failed condition with (err == X, errors.Is(err, X)).
	Sentinels []string
	// ErrTypes are "pkgpath.Type" keys of the error types it answers with
	// (errors.As(err, &x) with x of that type or a pointer to it).
	ErrTypes []string
	// ErrCode is an error interface whose code method says the condition
	// failed (smithy-go's APIError.ErrorCode() == "PreconditionFailed").
	ErrCode *ErrCode
	// Predicates are "pkgpath.Func" keys of functions of the error that
	// report the rejection (client-go's apierrors.IsConflict(err)).
	Predicates []string
	// Retriers are "pkgpath.Func" keys of functions that call their func
	// argument (at the index given, counting all parameters) again while
	// it returns an error such as the rejection (client-go's
	// retry.RetryOnConflict): a write whose error is returned from such a
	// func is retried on its rejection.
	Retriers map[string]int
}

// ErrCode is an error interface type (Type, "pkgpath.Type") whose Method
// returns a string code; Codes are the codes of a failed condition.
type ErrCode struct {
	Type   string
	Method string
	Codes  []string
}

// NoOutcome is the Outcome of a write nothing rejects.
var NoOutcome = Outcome{Kind: RejectNever}

// ErrorMatchers are the functions that tell an error apart, by the role
// of their second argument: "is" compares with a sentinel, "as" assigns
// to a target of an error type.
var ErrorMatchers = map[string]string{
	"errors.Is": "is",
	"errors.As": "as",
}

// Outcome declarations shared by several libraries.
var (
	rowsAffected = Outcome{Kind: RejectRowsAffected, Name: "0 rows", Method: "RowsAffected"}
	noRow        = Outcome{Kind: RejectNoRow, Name: "sql.ErrNoRows", Method: "Scan",
		Sentinels: []string{dbsql + ".ErrNoRows", pgx + ".ErrNoRows", "github.com/jackc/pgx/v4.ErrNoRows"}}
	unmodelled = Outcome{Kind: RejectUnmodelled}
	// smithyAPIError is how aws-sdk-go-v2 exposes a service's error code.
	smithyAPIError = "github.com/aws/smithy-go.APIError"
)

// SQLRowsOutcome is the outcome of a SQL Exec (0 rows on a rejection), for
// a write helper whose fact says which of its results carries the count.
func SQLRowsOutcome() Outcome { return rowsAffected }

// SQLNoRowOutcome is the outcome of a SQL QueryRow with RETURNING (no row
// on a rejection), for a write helper whose fact says which of its results
// carries the error.
func SQLNoRowOutcome() Outcome { return noRow }
