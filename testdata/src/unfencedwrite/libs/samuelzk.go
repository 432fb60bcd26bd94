package libs

import (
	szk "github.com/samuel/go-zookeeper/zk"
)

// The same client under its pre-2020 import path.

func samuelZKLockBad(conn *szk.Conn, data []byte) error {
	l := szk.NewLock(conn, "/locks/cfg", szk.WorldACL(szk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, err := conn.Set("/config/data", data, -1) // want `ZooKeeper write via conn.Set to /config/data under the ZooKeeper lock is not fenced: version -1 makes it unconditional`
	return err
}

func samuelZKVersionedGood(conn *szk.Conn, data []byte) error {
	l := szk.NewLock(conn, "/locks/cfg", szk.WorldACL(szk.PermAll))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	_, st, err := conn.Get("/config/data")
	if err != nil {
		return err
	}
	// ok: a compare-and-set on the znode's version
	_, err = conn.Set("/config/data", data, st.Version)
	return err
}
