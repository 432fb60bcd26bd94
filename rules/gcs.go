package rules

const gcs = "cloud.google.com/go/storage"

// GCS is cloud.google.com/go/storage. Generations are per-object version
// numbers GCS chooses, so, as with S3, the usable fences are a
// precondition on the object handle (If(Conditions{GenerationMatch: g}) or
// DoesNotExist) or the token in the object name. A zero GenerationMatch
// is no condition at all. A write's precondition failure surfaces from
// Writer.Close.
var GCS = Lib{
	Name:  "GCS",
	Paths: []string{gcs},
	Writes: []Write{
		{Func: "(*" + gcs + ".ObjectHandle).NewWriter", Kind: GCSWrite, Store: "GCS", KeyArg: -1, Outcome: gcsCloseOutcome},
		{Func: "(*" + gcs + ".ObjectHandle).Update", Kind: GCSWrite, Store: "GCS", KeyArg: -1, Outcome: gcsOutcome},
		{Func: "(*" + gcs + ".ObjectHandle).Delete", Kind: GCSWrite, Store: "GCS", KeyArg: -1, Outcome: gcsOutcome},
		{Func: "(*" + gcs + ".Copier).Run", Kind: GCSWrite, Store: "GCS", KeyArg: -1, Outcome: gcsOutcome},
		{Func: "(*" + gcs + ".Composer).Run", Kind: GCSWrite, Store: "GCS", KeyArg: -1, Outcome: gcsOutcome},
	},
	Reads: methods("(*"+gcs+".ObjectHandle)", "NewReader", "NewRangeReader", "Attrs"),
}

// gcsOutcome: a failed precondition is an HTTP 412 error; an upload
// reports it from the Writer's Close.
var (
	gcsOutcome      = Outcome{Kind: RejectError, Name: "a 412 precondition failure"}
	gcsCloseOutcome = Outcome{Kind: RejectCloseError, Name: "a 412 precondition failure", Method: "Close"}
)

// GCSPreconditions are the Conditions fields that make a GCS write
// conditional when set to a value other than zero (false).
var GCSPreconditions = []string{"GenerationMatch", "MetagenerationMatch", "DoesNotExist", "GenerationNotMatch", "MetagenerationNotMatch"}

// GCSHandleMethods are ObjectHandle methods that return a handle for the
// same object (If adds the conditions, Generation pins one generation).
var GCSHandleMethods = map[string]bool{
	"If": true, "Generation": true, "Key": true, "ReadCompressed": true, "Retryer": true,
	"OverrideUnlockedRetention": true, "SoftDeleted": true, "CopierFrom": true, "ComposerFrom": true,
}

// GCSCreateIfAbsent is the Conditions field with which a write only
// creates the object: the shape of a lock file (terraform's gcs backend).
const GCSCreateIfAbsent = "DoesNotExist"
