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
		{Func: "(*" + consul + ".KV).Put", Kind: KVBlind, Store: "consul KV", KeyArg: -1},
		{Func: "(*" + consul + ".KV).Delete", Kind: KVBlind, Store: "consul KV", KeyArg: 0},
		{Func: "(*" + consul + ".KV).DeleteTree", Kind: KVBlind, Store: "consul KV", KeyArg: 0},
		{Func: "(*" + consul + ".KV).CAS", Kind: Conditional, Store: "consul KV", KeyArg: -1},
		{Func: "(*" + consul + ".KV).DeleteCAS", Kind: Conditional, Store: "consul KV", KeyArg: -1},
		{Func: "(*" + consul + ".KV).Acquire", Kind: Conditional, Store: "consul KV", KeyArg: -1},
		{Func: "(*" + consul + ".KV).Txn", Kind: ConsulTxn, Store: "consul KV", InputArg: 0, KeyArg: -1},
		// The general transaction API: KV, node, service and check operations.
		{Func: "(*" + consul + ".Txn).Txn", Kind: ConsulTxn, Store: "consul", InputArg: 0, KeyArg: -1},
	},
	LockTypes: []string{consul + ".Lock"},
}

// ConsulCheckVerbs are the transaction verbs that make a consul Txn
// conditional on state the store checks (KV, node, service and check
// operations share "cas" and "delete-cas").
var ConsulCheckVerbs = map[string]bool{
	"check-session": true, "check-index": true, "check-not-exists": true,
	"cas": true, "delete-cas": true, "lock": true, "unlock": true,
}
