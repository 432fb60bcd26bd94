// Package zk is an application's own package that happens to share a name
// and a type name with go-zookeeper: its CheckVersionRequest is not the
// client's, so ZooKeeper never checks it.
package zk

// CheckVersionRequest looks like go-zookeeper's but is only an
// application value.
type CheckVersionRequest struct {
	Path    string
	Version int32
}
