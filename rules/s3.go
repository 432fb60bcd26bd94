package rules

const s3 = "github.com/aws/aws-sdk-go-v2/service/s3"

// S3 is aws-sdk-go-v2's S3 client. ETags are not ordered, so the usable
// fences are a precondition (IfMatch / IfNoneMatch) or a token in the key.
var S3 = Lib{
	Name:  "S3",
	Paths: []string{s3},
	Writes: []Write{
		{Func: "(*" + s3 + ".Client).PutObject", Kind: S3Write, Store: "S3", InputArg: 1, KeyArg: -1, Outcome: s3Outcome},
		{Func: "(*" + s3 + ".Client).CopyObject", Kind: S3Write, Store: "S3", InputArg: 1, KeyArg: -1, Outcome: s3Outcome},
		{Func: "(*" + s3 + ".Client).DeleteObject", Kind: S3Write, Store: "S3", InputArg: 1, KeyArg: -1, Outcome: s3Outcome},
		{Func: "(*" + s3 + ".Client).CompleteMultipartUpload", Kind: S3Write, Store: "S3", InputArg: 1, KeyArg: -1, Outcome: s3Outcome},
	},
}

// s3Outcome: a failed IfMatch or IfNoneMatch is an error whose code is
// PreconditionFailed.
var s3Outcome = Outcome{Kind: RejectError, Name: "PreconditionFailed",
	ErrCode: &ErrCode{Type: smithyAPIError, Method: "ErrorCode", Codes: []string{"PreconditionFailed"}}}

// S3Preconditions are the input fields that make an S3 write conditional.
var S3Preconditions = []string{"IfMatch", "IfNoneMatch"}

// S3CreateIfAbsent is the precondition field and value with which a
// PutObject only creates the object (If-None-Match: *): the shape of a
// lock file (terraform's S3 native locking).
const S3CreateIfAbsent, S3CreateIfAbsentValue = "IfNoneMatch", "*"
