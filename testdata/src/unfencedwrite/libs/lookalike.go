package libs

import (
	"github.com/go-zookeeper/zk"

	fakezk "unfencedwrite/libs/lookalike/zk"
)

// Type keys, not name suffixes: a CheckVersionRequest from another package
// named zk does not make a Multi a compare-and-set (the real one is
// zkHeldMultiGood in locks.go).

func zkMultiLookalikeBad(conn *zk.Conn, l *zk.Lock, data []byte, lockVersion int32) error {
	_, err := conn.Multi(&fakezk.CheckVersionRequest{Path: "/locks/cfg", Version: lockVersion}, &zk.SetDataRequest{Path: "/config/data", Data: data, Version: -1}) // want `ZooKeeper write via conn.Multi under the zk.Lock l is not fenced: it carries no CheckVersionRequest on the lock node`
	return err
}
