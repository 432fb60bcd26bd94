// Package api is a vendored copy of a subset of the fencelint stub of
// github.com/hashicorp/consul/api (testdata/src/github.com/hashicorp/consul/api):
// the same declarations at a vendored import path.
package api

type WriteOptions struct{}

type WriteMeta struct{}

type Client struct{}

func (c *Client) KV() *KV { panic("stub") }

func (c *Client) LockKey(key string) (*Lock, error) { panic("stub") }

type KVPair struct {
	Key         string
	ModifyIndex uint64
	Value       []byte
}

type KV struct{}

func (k *KV) Put(p *KVPair, q *WriteOptions) (*WriteMeta, error) { panic("stub") }

func (k *KV) CAS(p *KVPair, q *WriteOptions) (bool, *WriteMeta, error) { panic("stub") }

type Lock struct{}

func (l *Lock) Lock(stopCh <-chan struct{}) (<-chan struct{}, error) { panic("stub") }

func (l *Lock) Unlock() error { panic("stub") }
