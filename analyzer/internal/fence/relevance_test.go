package fence

import (
	"os"
	"path/filepath"
	"testing"
)

func TestTypeDeclMayBeLease(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"package p\ntype Lease struct{ Token int64 }\n", true},
		{"package p\ntype myLock struct{}\n", true},
		{"package p\ntype (\n\ta int\n\tSessionGrant struct{ Until int }\n)\n", true},
		{"package p\ntype (\n\ta int\n\tb struct{ x, y int }\n)\ntype c[T any] struct{ v T }\ntype D c[int]\n", false},
		{"package p\ntype X = other.BigLease\n", true},       // an alias: LeaseOf looks at the target
		{"package p\ntype X[T any] = other.Lock[T]\n", true}, // a generic alias
		{"package p\ntype X other.BigLease\n", false},        // a defined type: its own name counts
		{"package p\nfunc f(mu interface{ Lock() }) { mu.Lock(); switch any(mu).(type) {} }\n", false},
		{"package p\nfunc f() { type heldLock struct{}; _ = heldLock{} }\n", true}, // local: over-approximated
		{"package p\ntype (", false},
	} {
		if got := typeDeclMayBeLease([]byte(c.src)); got != c.want {
			t.Errorf("typeDeclMayBeLease(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}

func TestMayBeRelevant(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := write("plain.go", "package p\n\nimport \"sync\"\n\nvar mu sync.Mutex\n\nfunc f() { mu.Lock(); mu.Unlock() }\n")
	lease := write("lease.go", "package p\n\ntype Lease struct{ Token int64 }\n")
	dir1 := write("dir.go", "package p\n\n//fencelint:write\nfunc save() {}\n")
	none := func(string) bool { return false }
	for _, c := range []struct {
		name    string
		path    string
		imports []string
		facts   func(string) bool
		files   []string
		want    bool
	}{
		{"nothing lock-related", "example.com/p", []string{"sync"}, none, []string{plain}, false},
		{"known API", "example.com/p", []string{"sync", "go.etcd.io/etcd/client/v3/concurrency"}, none, []string{plain}, true},
		{"an import with facts", "example.com/p", []string{"example.com/q"}, func(p string) bool { return p == "example.com/q" }, []string{plain}, true},
		{"a lease type", "example.com/p", nil, none, []string{plain, lease}, true},
		{"a directive", "example.com/p", nil, none, []string{dir1}, true},
		{"a library package", "go.etcd.io/etcd/server/v3/x", []string{"go.etcd.io/etcd/client/v3/concurrency"}, none, []string{lease}, false},
		{"an unreadable file", "example.com/p", nil, none, []string{filepath.Join(dir, "missing.go")}, true},
	} {
		got, err := MayBeRelevant(c.path, c.imports, c.facts, c.files)
		if got != c.want {
			t.Errorf("%s: MayBeRelevant = %v (%v), want %v", c.name, got, err, c.want)
		}
		if c.name == "an unreadable file" && err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}
