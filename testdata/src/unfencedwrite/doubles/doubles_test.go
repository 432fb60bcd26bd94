package doubles

import "context"

// memStore is a fake declared in a test file: it does not vote.
type memStore struct{ m map[string]string }

func (s memStore) Save(ctx context.Context, key, v string) error { s.m[key] = v; return nil }
