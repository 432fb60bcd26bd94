package rules

// ZooKeeper is go-zookeeper. zk.Lock exposes no token (its sequence number
// is unexported); zxids read from a Stat are strictly monotonic.
var ZooKeeper = zooKeeper("go-zookeeper", "github.com/go-zookeeper/zk", true)

// SamuelZooKeeper is github.com/samuel/go-zookeeper, the import path the
// same client had until 2020 and that many lock users still import; the
// API fencelint relies on is the same, without Lock.LockWithData.
var SamuelZooKeeper = zooKeeper("samuel/go-zookeeper", "github.com/samuel/go-zookeeper/zk", false)

// zkFlagSequence is zk.FlagSequence: a sequential node, as the lock recipe
// creates for its queue.
const zkFlagSequence = 2

// zkFlagEphemeral is zk.FlagEphemeral: a node deleted with the session
// that created it, as a hand-rolled lock creates.
const zkFlagEphemeral = 1

func zooKeeper(name, zk string, lockWithData bool) Lib {
	acquires := []Acquire{
		{Func: "(*" + zk + ".Lock).Lock", Success: ErrNil, Lock: "ZooKeeper lock", NoToken: true, KeyArg: -1, LockIsReceiver: true},
	}
	if lockWithData {
		acquires = append(acquires, Acquire{Func: "(*" + zk + ".Lock).LockWithData", Success: ErrNil, Lock: "ZooKeeper lock", NoToken: true, KeyArg: -1, LockIsReceiver: true})
	}
	// A version that no longer matches is zk.ErrBadVersion.
	badVersion := Outcome{Kind: RejectError, Name: "zk.ErrBadVersion", Sentinels: []string{zk + ".ErrBadVersion"}}
	return Lib{
		Name:     name,
		Paths:    []string{zk},
		Acquires: acquires,
		Releases: []string{"(*" + zk + ".Lock).Unlock"},
		Tokens: []Token{
			{Field: zk + ".Stat.Czxid", Desc: "the znode's Czxid"},
			{Field: zk + ".Stat.Mzxid", Desc: "the znode's Mzxid"},
		},
		Writes: []Write{
			{Func: "(*" + zk + ".Conn).Set", Kind: ZKVersioned, Store: "ZooKeeper", KeyArg: 0, VersionArg: 2, Outcome: badVersion},
			{Func: "(*" + zk + ".Conn).Delete", Kind: ZKVersioned, Store: "ZooKeeper", KeyArg: 0, VersionArg: 1, Outcome: badVersion},
			{Func: "(*" + zk + ".Conn).Create", Kind: KVBlind, Store: "ZooKeeper", KeyArg: 0, Outcome: NoOutcome,
				CreateOnly: true, RecipeFlagArg: 2, RecipeFlag: zkFlagSequence, LockFlag: zkFlagEphemeral},
			{Func: "(*" + zk + ".Conn).Multi", Kind: ZKMulti, Store: "ZooKeeper", KeyArg: -1, CheckType: zk + ".CheckVersionRequest", Outcome: badVersion},
		},
		LockTypes: []string{zk + ".Lock"},
	}
}

// IsZooKeeperPath reports whether path is one of the ZooKeeper clients'
// import paths.
func IsZooKeeperPath(path string) bool {
	return path == ZooKeeper.Paths[0] || path == SamuelZooKeeper.Paths[0]
}
