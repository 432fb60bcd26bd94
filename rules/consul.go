package rules

const consul = "github.com/hashicorp/consul/api"

// Consul is hashicorp/consul/api. Its Lock hands out no token; a KVPair's
// ModifyIndex (a Raft index) and LockIndex can serve as one.
var Consul = Lib{
	Name:  "consul",
	Paths: []string{consul},
	Acquires: []Acquire{
		{Func: "(*" + consul + ".Lock).Lock", Success: ChanNonNil, Lock: "consul lock", NoToken: true, KeyArg: -1, LockIsReceiver: true},
	},
	Releases: methods("(*"+consul+".Lock)", "Unlock", "Destroy"),
	Tokens: []Token{
		{Field: consul + ".KVPair.ModifyIndex", Desc: "the key's ModifyIndex"},
		{Field: consul + ".KVPair.LockIndex", Desc: "the key's LockIndex"},
		{Field: consul + ".KVPair.CreateIndex", Desc: "the key's CreateIndex"},
	},
	Writes: []Write{
		{Func: "(*" + consul + ".KV).Put", Kind: KVBlind, Store: "consul KV", KeyArg: -1, Outcome: NoOutcome},
		{Func: "(*" + consul + ".KV).Delete", Kind: KVBlind, Store: "consul KV", KeyArg: 0, Outcome: NoOutcome},
		{Func: "(*" + consul + ".KV).DeleteTree", Kind: KVBlind, Store: "consul KV", KeyArg: 0, Outcome: NoOutcome},
		{Func: "(*" + consul + ".KV).CAS", Kind: Conditional, Store: "consul KV", KeyArg: -1, Outcome: consulOK},
		{Func: "(*" + consul + ".KV).DeleteCAS", Kind: Conditional, Store: "consul KV", KeyArg: -1, Outcome: consulOK},
		{Func: "(*" + consul + ".KV).Acquire", Kind: Conditional, Store: "consul KV", KeyArg: -1, Outcome: consulOK},
		{Func: "(*" + consul + ".KV).Txn", Kind: ConsulTxn, Store: "consul KV", InputArg: 0, KeyArg: -1, Outcome: consulOK},
		// The general transaction API: KV, node, service and check operations.
		{Func: "(*" + consul + ".Txn).Txn", Kind: ConsulTxn, Store: "consul", InputArg: 0, KeyArg: -1, Outcome: consulOK},
	},
	LockTypes: []string{consul + ".Lock"},
}

// consulOK: consul reports a failed CAS, Acquire or transaction check as
// ok == false with a nil error.
var consulOK = Outcome{Kind: RejectFlag, Name: "ok == false"}

// ConsulCheckVerbs are the transaction verbs that make a consul Txn
// conditional on state the store checks (KV, node, service and check
// operations share "cas" and "delete-cas").
var ConsulCheckVerbs = map[string]bool{
	"check-session": true, "check-index": true, "check-not-exists": true,
	"cas": true, "delete-cas": true, "lock": true, "unlock": true,
}
