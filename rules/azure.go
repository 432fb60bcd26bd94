package rules

const (
	azblob    = "github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	blockblob = azblob + "/blockblob"
	azureBlob = azblob + "/blob"
)

// AzureBlob is the Azure SDK's azblob. ETags are not ordered, so, as with
// S3, the fences are a precondition in the options' AccessConditions
// (IfMatch, IfNoneMatch, IfTags, IfUnmodifiedSince) or the token in the
// blob name. A blob lease's LeaseID is an equality the service enforces on
// writes to that one blob: it fences them too.
var AzureBlob = Lib{
	Name:  "Azure Blob",
	Paths: []string{azblob, blockblob, azureBlob},
	Writes: []Write{
		{Func: "(*" + blockblob + ".Client).Upload", Kind: AzureWrite, Store: "Azure Blob", InputArg: 2, KeyArg: -1, Outcome: azureOutcome},
		{Func: "(*" + blockblob + ".Client).UploadBuffer", Kind: AzureWrite, Store: "Azure Blob", InputArg: 2, KeyArg: -1, Outcome: azureOutcome},
		{Func: "(*" + blockblob + ".Client).UploadStream", Kind: AzureWrite, Store: "Azure Blob", InputArg: 2, KeyArg: -1, Outcome: azureOutcome},
		{Func: "(*" + blockblob + ".Client).CommitBlockList", Kind: AzureWrite, Store: "Azure Blob", InputArg: 2, KeyArg: -1, Outcome: azureOutcome},
		{Func: "(*" + azureBlob + ".Client).Delete", Kind: AzureWrite, Store: "Azure Blob", InputArg: 1, KeyArg: -1, Outcome: azureOutcome},
		{Func: "(*" + azblob + ".Client).UploadBuffer", Kind: AzureWrite, Store: "Azure Blob", InputArg: 4, KeyArg: 2, Outcome: azureOutcome},
		{Func: "(*" + azblob + ".Client).UploadStream", Kind: AzureWrite, Store: "Azure Blob", InputArg: 4, KeyArg: 2, Outcome: azureOutcome},
		{Func: "(*" + azblob + ".Client).DeleteBlob", Kind: AzureWrite, Store: "Azure Blob", InputArg: 3, KeyArg: 2, Outcome: azureOutcome},
	},
}

// azureOutcome: a failed AccessConditions precondition is an HTTP 412
// error, ConditionNotMet.
var azureOutcome = Outcome{Kind: RejectError, Name: "a 412 ConditionNotMet"}

// AzureConditions are the AccessConditions fields that make a write
// conditional, by the struct that holds them.
var AzureConditions = map[string][]string{
	"ModifiedAccessConditions": {"IfMatch", "IfNoneMatch", "IfTags", "IfUnmodifiedSince"},
	"LeaseAccessConditions":    {"LeaseID"},
}

// AzureClientCtors make a blob client for one blob name (their argument).
var AzureClientCtors = map[string]bool{
	"NewBlockBlobClient": true, "NewBlobClient": true, "NewAppendBlobClient": true, "NewPageBlobClient": true,
}
