package rules

import (
	"go/types"
	"testing"
)

// tableKey must agree with TypeKey on every type a table names, and no
// table may hold the "" key tableKey returns for every other type.
func TestTableKeyAgreesWithTypeKey(t *testing.T) {
	indexed()
	tables := map[string]func(string) bool{
		"lockTypes":    func(k string) bool { return lockTypes[k] },
		"lockTokens":   func(k string) bool { _, ok := lockTokens[k]; return ok },
		"txTypes":      func(k string) bool { return txTypes[k] },
		"sessionTypes": func(k string) bool { return sessionTypes[k] },
	}
	for name, has := range tables {
		if has("") {
			t.Errorf("%s has the empty key", name)
		}
	}
	var keys []string
	for k := range lockTypes {
		keys = append(keys, k)
	}
	for k := range lockTokens {
		keys = append(keys, k)
	}
	for k := range txTypes {
		keys = append(keys, k)
	}
	for k := range sessionTypes {
		keys = append(keys, k)
	}
	for _, k := range keys {
		i := len(k) - len(typeNameOfKey(k)) - 1
		if i <= 0 {
			t.Errorf("key %q is not pkgpath.Type", k)
			continue
		}
		pkg := types.NewPackage(k[:i], "p")
		named := types.NewNamed(types.NewTypeName(0, pkg, typeNameOfKey(k), nil), types.NewStruct(nil, nil), nil)
		for _, typ := range []types.Type{named, types.NewPointer(named)} {
			if got, want := tableKey(typ), TypeKey(typ); got != want || got != k {
				t.Errorf("tableKey(%v) = %q, TypeKey = %q, want %q", typ, got, want, k)
			}
		}
	}
	other := types.NewNamed(types.NewTypeName(0, types.NewPackage("example.com/x", "x"), "NotATableType", nil), types.NewStruct(nil, nil), nil)
	if k := tableKey(other); k != "" {
		t.Errorf("tableKey(%v) = %q, want \"\"", other, k)
	}
}
