package rules

const zk = "github.com/go-zookeeper/zk"

// ZooKeeper is go-zookeeper. zk.Lock exposes no token (its sequence number
// is unexported); zxids read from a Stat are strictly monotonic.
var ZooKeeper = Lib{
	Name:  "go-zookeeper",
	Paths: []string{zk},
	Acquires: []Acquire{
		{Func: "(*" + zk + ".Lock).Lock", Success: ErrNil, Lock: "ZooKeeper lock", NoToken: true, KeyArg: -1, LockIsReceiver: true},
		{Func: "(*" + zk + ".Lock).LockWithData", Success: ErrNil, Lock: "ZooKeeper lock", NoToken: true, KeyArg: -1, LockIsReceiver: true},
	},
	Releases: []string{"(*" + zk + ".Lock).Unlock"},
	Tokens: []Token{
		{Field: zk + ".Stat.Czxid", Desc: "the znode's Czxid"},
		{Field: zk + ".Stat.Mzxid", Desc: "the znode's Mzxid"},
	},
	Writes: []Write{
		{Func: "(*" + zk + ".Conn).Set", Kind: ZKVersioned, Store: "ZooKeeper", KeyArg: 0, VersionArg: 2},
		{Func: "(*" + zk + ".Conn).Delete", Kind: ZKVersioned, Store: "ZooKeeper", KeyArg: 0, VersionArg: 1},
		{Func: "(*" + zk + ".Conn).Create", Kind: KVBlind, Store: "ZooKeeper", KeyArg: 0},
		{Func: "(*" + zk + ".Conn).Multi", Kind: ZKMulti, Store: "ZooKeeper", KeyArg: -1},
	},
	LockTypes: []string{zk + ".Lock"},
}
