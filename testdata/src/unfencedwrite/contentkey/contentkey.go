// Package contentkey: a key-value write whose key carries a digest of the
// value it writes (content-addressed chunks, as terraform's consul backend
// stores large states) writes the same bytes whoever writes it, so it is
// not a protected write; a digest of something else (a hashed ID) names
// no content and the write is judged as usual.
package contentkey

import (
	"crypto/md5"
	"crypto/sha256"
	"fmt"

	"github.com/hashicorp/consul/api"
)

func storeChunks(c *api.Client, path string, data []byte) error {
	l, err := c.LockKey(path + "/.lock")
	if err != nil {
		return err
	}
	ch, err := l.Lock(nil)
	if err != nil || ch == nil {
		return err
	}
	defer l.Unlock()
	kv := c.KV()
	sum := md5.Sum(data)
	for i, chunk := range split(data, 512) {
		// ok: the key names the chunk's content
		if _, err := kv.Put(&api.KVPair{Key: fmt.Sprintf("%s/chunks.%x/%d", path, sum, i), Value: chunk}, nil); err != nil {
			return err
		}
	}
	_, err = kv.Put(&api.KVPair{Key: path, Value: []byte(fmt.Sprintf("%x", sum))}, nil) // want `consul KV write via kv.Put under the consul lock is not fenced`
	return err
}

func storeByUser(c *api.Client, user string, data []byte) error {
	l, err := c.LockKey("users/.lock")
	if err != nil {
		return err
	}
	ch, err := l.Lock(nil)
	if err != nil || ch == nil {
		return err
	}
	defer l.Unlock()
	id := sha256.Sum256([]byte(user))
	_, err = c.KV().Put(&api.KVPair{Key: fmt.Sprintf("users/%x", id), Value: data}, nil) // want `consul KV write via c.KV\(\).Put under the consul lock is not fenced`
	return err
}

func split(b []byte, n int) [][]byte {
	var out [][]byte
	for len(b) > n {
		out = append(out, b[:n])
		b = b[n:]
	}
	return append(out, b)
}
