package rules

const hazelcast = "github.com/hazelcast/hazelcast-go-client"

// hzMap is the receiver of the map methods.
const hzMap = "(*" + hazelcast + ".Map)"

// Hazelcast is the Hazelcast Go client (v1.4-v1.6; none of them has a
// FencedLock). Map.Lock and its variants lock one key of a map for the
// lock context in ctx (NewLockContext); the grant carries no token, and
// with a lease it expires while the holder may still run, so a write in
// the scope has nothing to fence with. Writing the locked key is the
// data the lock protects, not its bookkeeping: the lock lives beside the
// entry, so no key is marked as the lock's own. Map writes are blind,
// except ReplaceIfSame and RemoveIfSame, a compare-and-set on the value
// read (false when another writer changed it), and PutIfAbsent, which
// only creates. A CP AtomicLong is linearizable, but it is incremented
// after the grant, not with it: a holder that pauses between its grant
// and its increment draws a larger number than the holder after it.
var Hazelcast = Lib{
	Name:  "hazelcast",
	Paths: []string{hazelcast},
	Acquires: []Acquire{
		{Func: hzMap + ".Lock", Success: ErrNil, Lock: "Hazelcast map lock", NoToken: true, KeyArg: -1, LockIsReceiver: true},
		{Func: hzMap + ".LockWithLease", Success: ErrNil, Lock: "Hazelcast map lock", NoToken: true, KeyArg: -1, LockIsReceiver: true},
		// TryLock*: (bool, error), acquired when the bool is true.
		{Func: hzMap + ".TryLock", Success: ErrNil, Lock: "Hazelcast map lock", NoToken: true, KeyArg: -1, LockIsReceiver: true},
		{Func: hzMap + ".TryLockWithLease", Success: ErrNil, Lock: "Hazelcast map lock", NoToken: true, KeyArg: -1, LockIsReceiver: true},
		{Func: hzMap + ".TryLockWithTimeout", Success: ErrNil, Lock: "Hazelcast map lock", NoToken: true, KeyArg: -1, LockIsReceiver: true},
		{Func: hzMap + ".TryLockWithLeaseAndTimeout", Success: ErrNil, Lock: "Hazelcast map lock", NoToken: true, KeyArg: -1, LockIsReceiver: true},
	},
	Releases: methods(hzMap, "Unlock", "ForceUnlock"),
	Tokens: []Token{
		{Func: "(*" + hazelcast + "/internal/cp.AtomicLong).IncrementAndGet", Desc: "a Hazelcast AtomicLong", Weak: WeakCounter, Issuer: "Hazelcast",
			Why: hzCounterWhy},
		{Func: "(*" + hazelcast + "/internal/cp.AtomicLong).AddAndGet", Desc: "a Hazelcast AtomicLong", Weak: WeakCounter, Issuer: "Hazelcast",
			Why: hzCounterWhy},
	},
	Writes: append(kvBlindWrites(hzMap+".", "Hazelcast map", -1,
		"Put", "PutWithTTL", "PutWithMaxIdle", "PutWithTTLAndMaxIdle",
		"PutTransient", "PutTransientWithTTL", "PutTransientWithMaxIdle", "PutTransientWithTTLAndMaxIdle",
		"Set", "SetWithTTL", "SetWithTTLAndMaxIdle", "Replace", "TryPut", "TryPutWithTimeout",
		"Delete", "Remove", "TryRemove", "TryRemoveWithTimeout", "Evict"),
		Write{Func: hzMap + ".PutAll", Kind: KVBlind, Store: "Hazelcast map", KeyArg: -1, Outcome: NoOutcome},
		Write{Func: hzMap + ".Clear", Kind: KVBlind, Store: "Hazelcast map", KeyArg: -1, Outcome: NoOutcome},
		Write{Func: hzMap + ".PutIfAbsent", Kind: KVBlind, Store: "Hazelcast map", KeyArg: -1, CreateOnly: true, Outcome: NoOutcome},
		Write{Func: hzMap + ".PutIfAbsentWithTTL", Kind: KVBlind, Store: "Hazelcast map", KeyArg: -1, CreateOnly: true, Outcome: NoOutcome},
		Write{Func: hzMap + ".ReplaceIfSame", Kind: Conditional, Store: "Hazelcast map", KeyArg: -1, Outcome: hzSame},
		Write{Func: hzMap + ".RemoveIfSame", Kind: Conditional, Store: "Hazelcast map", KeyArg: -1, Outcome: hzSame},
	),
	Reads: methods(hzMap, "Get", "ContainsKey", "IsLocked"),
	// No LockTypes: a *Map is the data structure, not a held lock, so a
	// function that receives one does not run under its lock.
}

const hzCounterWhy = "a Hazelcast AtomicLong is incremented after the lock grant, not atomically with it, so a holder that pauses in between draws a larger number than the next holder"

// hzSame: ReplaceIfSame and RemoveIfSame answer false, with a nil error,
// when the entry no longer holds the value they compare.
var hzSame = Outcome{Kind: RejectFlag, Name: "ok == false"}
