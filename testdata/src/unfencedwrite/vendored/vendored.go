// Package vendored uses a GOPATH-era vendored copy of consul's api: it is
// the library all the same (issue 13 item 4).
package vendored

import "github.com/hashicorp/consul/api"

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
