package rules

const (
	etcdConc = "go.etcd.io/etcd/client/v3/concurrency"
	etcdV3   = "go.etcd.io/etcd/client/v3"
	etcdPB   = "go.etcd.io/etcd/api/v3/etcdserverpb"
	etcdMVCC = "go.etcd.io/etcd/api/v3/mvccpb"
)

// EtcdConcurrency is etcd's lock and election recipe package. Its tokens are
// Raft revisions: the mutex's Header().Revision, the election's Rev(), and
// IsOwner(), a Cmp on the lock key's CreateRevision for etcd's own Txn.
var EtcdConcurrency = Lib{
	Name:  "etcd concurrency",
	Paths: []string{etcdConc},
	Acquires: []Acquire{
		{Func: "(*" + etcdConc + ".Mutex).Lock", Success: ErrNil, Lock: "etcd mutex", KeyArg: -1, LockIsReceiver: true, Token: ".Header().Revision"},
		{Func: "(*" + etcdConc + ".Mutex).TryLock", Success: ErrNil, Lock: "etcd mutex", KeyArg: -1, LockIsReceiver: true, Token: ".Header().Revision"},
		{Func: "(*" + etcdConc + ".Election).Campaign", Success: ErrNil, Lock: "etcd election", KeyArg: -1, LockIsReceiver: true, Token: ".Rev()"},
		// NewLocker returns a sync.Locker: its Lock panics on error and
		// the interface exposes no revision, so there is no token.
		{Func: etcdConc + ".NewLocker", Success: Returns, Lock: "etcd Locker", NoToken: true, KeyArg: -1, LockResult: true},
	},
	Releases: []string{
		"(*" + etcdConc + ".Mutex).Unlock",
		"(*" + etcdConc + ".Election).Resign",
		"(*" + etcdConc + ".Session).Close",
	},
	Renews: []string{"(*" + etcdConc + ".Election).Proclaim"},
	Tokens: []Token{
		{Func: "(*" + etcdConc + ".Mutex).Header", Desc: "the mutex's Header().Revision"},
		{Func: "(*" + etcdConc + ".Mutex).IsOwner", Desc: "the mutex's IsOwner()"},
		{Func: "(*" + etcdConc + ".Election).Rev", Desc: "the election's Rev()"},
		{Func: "(*" + etcdConc + ".Election).Header", Desc: "the election's Header().Revision"},
		{Func: "(*" + etcdConc + ".Session).Lease", Desc: "the session's LeaseID", Weak: WeakLeaseID, Issuer: "etcd",
			Why: "an etcd LeaseID is the member id plus a counter, not ordered across servers or restarts"},
	},
	LockTypes:  []string{etcdConc + ".Mutex", etcdConc + ".Election"},
	LockTokens: map[string]string{etcdConc + ".Mutex": ".Header().Revision", etcdConc + ".Election": ".Rev()"},
}

// EtcdKV is the etcd v3 client: unconditional Put/Delete, and Txn, whose If
// compares are evaluated by etcd itself.
var EtcdKV = Lib{
	Name:  "etcd client",
	Paths: []string{etcdV3},
	Writes: []Write{
		{Func: "(" + etcdV3 + ".KV).Put", Kind: KVBlind, Store: "etcd", KeyArg: 1, Outcome: NoOutcome},
		{Func: "(" + etcdV3 + ".KV).Delete", Kind: KVBlind, Store: "etcd", KeyArg: 1, Outcome: NoOutcome},
		{Func: "(" + etcdV3 + ".Txn).Commit", Kind: EtcdTxnCommit, Store: "etcd", KeyArg: -1,
			Outcome: Outcome{Kind: RejectFlagField, Name: "Succeeded == false", Field: "Succeeded", Result: "TxnResponse"}},
	},
	Tokens: []Token{
		{Field: etcdPB + ".ResponseHeader.Revision", Desc: "the response header's Revision"},
		{Field: etcdMVCC + ".KeyValue.CreateRevision", Desc: "the key's CreateRevision"},
		{Field: etcdMVCC + ".KeyValue.ModRevision", Desc: "the key's ModRevision"},
		{Field: etcdV3 + ".LeaseGrantResponse.ID", Desc: "the lease's ID", Weak: WeakLeaseID, Issuer: "etcd",
			Why: "an etcd LeaseID is the member id plus a counter, not ordered across servers or restarts"},
	},
	Reads: []string{"(" + etcdV3 + ".KV).Get"},
}
