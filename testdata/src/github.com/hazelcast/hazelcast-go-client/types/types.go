// Package types is a stub of github.com/hazelcast/hazelcast-go-client/types.
package types

type Entry struct {
	Key   interface{}
	Value interface{}
}

func NewEntry(key interface{}, value interface{}) Entry { panic("stub") }
