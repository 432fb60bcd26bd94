package rules

const s3Manager = "github.com/aws/aws-sdk-go-v2/feature/s3/manager"

// S3Manager is aws-sdk-go-v2's feature/s3/manager Uploader. Upload takes
// an *s3.PutObjectInput and copies its fields, IfMatch and IfNoneMatch
// included, into the PutObject of a small body or the
// CompleteMultipartUpload of a large one: it is judged as PutObject is.
var S3Manager = Lib{
	Name:  "S3 manager",
	Paths: []string{s3Manager},
	Writes: []Write{
		{Func: "(" + s3Manager + ".Uploader).Upload", Kind: S3Write, Store: "S3", InputArg: 1, KeyArg: -1, Outcome: s3Outcome},
	},
}
