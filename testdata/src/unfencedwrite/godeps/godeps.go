// Package godeps uses consul's api through godep's rewritten import path
// (Godeps/_workspace/src/...): it is the library all the same.
package godeps

import "unfencedwrite/godeps/Godeps/_workspace/src/github.com/hashicorp/consul/api"

func saveBad(c *api.Client, key string, v []byte) error {
	l, err := c.LockKey(key + "/.lock")
	if err != nil {
		return err
	}
	ch, err := l.Lock(nil)
	if err != nil || ch == nil {
		return err
	}
	defer l.Unlock()
	_, err = c.KV().Put(&api.KVPair{Key: key, Value: v}, nil) // want `consul KV write via c.KV\(\).Put under the consul lock is not fenced`
	return err
}

func saveGood(c *api.Client, key string, v []byte, index uint64) (bool, error) {
	l, err := c.LockKey(key + "/.lock")
	if err != nil {
		return false, err
	}
	ch, err := l.Lock(nil)
	if err != nil || ch == nil {
		return false, err
	}
	defer l.Unlock()
	// ok: a check-and-set on the index read
	ok, _, err := c.KV().CAS(&api.KVPair{Key: key, Value: v, ModifyIndex: index}, nil)
	return ok, err
}
