package rules

import (
	"go/token"
	"go/types"
	"testing"
)

// named makes the type path.name, as the type checker would.
func named(path, name string) types.Type {
	pkg := types.NewPackage(path, pathBase(path))
	obj := types.NewTypeName(token.NoPos, pkg, name, nil)
	return types.NewNamed(obj, types.NewStruct(nil, nil), nil)
}

func pathBase(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' {
			return path[i+1:]
		}
	}
	return path
}

// TestTypeKeys: transaction, session, lock-token and operation types match
// by package path and name, so a look-alike in another package (an
// application's own package named pgxpool with a Tx type) is not taken for
// the real one, as a "pgxpool.Tx" name suffix would have taken it.
func TestTypeKeys(t *testing.T) {
	cases := []struct {
		path, name     string
		tx, session    bool
		lockToken      string
		zkCheckVersion bool
	}{
		{path: "database/sql", name: "Tx", tx: true, session: true},
		{path: "database/sql", name: "Conn", session: true},
		{path: "database/sql", name: "DB"},
		{path: "github.com/jackc/pgx/v5", name: "Tx", tx: true, session: true},
		{path: "github.com/jackc/pgx/v5", name: "Batch", tx: true},
		{path: "github.com/jackc/pgx/v5", name: "Conn", session: true},
		{path: "github.com/jackc/pgx/v5/pgxpool", name: "Tx", tx: true, session: true},
		{path: "github.com/jackc/pgx/v5/pgxpool", name: "Conn", session: true},
		{path: "github.com/jackc/pgx/v5/pgxpool", name: "Pool"},
		{path: "github.com/jackc/pgx/v4/pgxpool", name: "Tx", tx: true, session: true},
		{path: "github.com/jmoiron/sqlx", name: "Tx", tx: true, session: true},
		// look-alikes: same package name and type name, another path
		{path: "example.com/app/pgxpool", name: "Tx"},
		{path: "example.com/app/pgxpool", name: "Conn"},
		{path: "example.com/fork/pgx/v5", name: "Tx"},
		{path: "example.com/mydatabase/sql", name: "Tx"},
		{path: "example.com/app/concurrency", name: "Mutex"},
		{path: "example.com/app/zk", name: "CheckVersionRequest"},
		// the real ones
		{path: "go.etcd.io/etcd/client/v3/concurrency", name: "Mutex", lockToken: ".Header().Revision"},
		{path: "go.etcd.io/etcd/client/v3/concurrency", name: "Election", lockToken: ".Rev()"},
		{path: "github.com/go-zookeeper/zk", name: "CheckVersionRequest", zkCheckVersion: true},
		{path: "github.com/samuel/go-zookeeper/zk", name: "CheckVersionRequest", zkCheckVersion: true},
	}
	multi := map[string]string{}
	for _, lib := range Libs {
		for _, w := range lib.Writes {
			if w.Kind == ZKMulti {
				multi[w.Func] = w.CheckType
			}
		}
	}
	if len(multi) != 2 {
		t.Fatalf("ZKMulti writes: %v, want go-zookeeper's and samuel's", multi)
	}
	for _, c := range cases {
		for _, typ := range []types.Type{named(c.path, c.name), types.NewPointer(named(c.path, c.name))} {
			if got := IsTxType(typ); got != c.tx {
				t.Errorf("IsTxType(%s) = %v, want %v", typ, got, c.tx)
			}
			if got := IsSessionType(typ); got != c.session {
				t.Errorf("IsSessionType(%s) = %v, want %v", typ, got, c.session)
			}
			if got, _ := LockTypeToken(typ); got != c.lockToken {
				t.Errorf("LockTypeToken(%s) = %q, want %q", typ, got, c.lockToken)
			}
			checks := false
			for _, key := range multi {
				checks = checks || HasTypeKey(typ, key)
			}
			if checks != c.zkCheckVersion {
				t.Errorf("HasTypeKey(%s, a ZKMulti CheckType) = %v, want %v", typ, checks, c.zkCheckVersion)
			}
		}
	}
	if HasTypeKey(named("example.com/x", "T"), "") {
		t.Error(`HasTypeKey(T, "") = true, want false`)
	}
}
