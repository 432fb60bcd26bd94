package rules

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// Every table key is spelled the way keyOf computes it: a key that does
// not round-trip would never match a call.
func TestRuleKeysRoundTrip(t *testing.T) {
	n := 0
	check := func(s string) {
		n++
		k := parseKey(s)
		if k.pkg == "" {
			t.Errorf("rule key %q does not parse as a function or method name", s)
		}
		if got := k.String(); got != s {
			t.Errorf("parseKey(%q).String() = %q", s, got)
		}
	}
	for _, lib := range Libs {
		for _, a := range lib.Acquires {
			check(a.Func)
		}
		for _, f := range lib.Releases {
			check(f)
		}
		for _, f := range lib.Renews {
			check(f)
		}
		for _, tk := range lib.Tokens {
			if tk.Func != "" {
				check(tk.Func)
			}
		}
		for _, w := range lib.Writes {
			check(w.Func)
		}
	}
	if n < 100 {
		t.Fatalf("checked %d keys: the tables look empty", n)
	}
}

// keyOf, which builds no string, agrees with types.Func.FullName on
// functions, value and pointer methods, interface methods, generic
// functions and generic receivers, in source and in a real std package.
func TestKeyOfMatchesFullName(t *testing.T) {
	const src = `package p

type T struct{}

func (T) V()  {}
func (*T) P() {}

type I interface{ M() }

type G[K comparable] struct{}

func (*G[K]) GM() {}

func F()           {}
func Gen[X any](X) {}

var _ = Gen[int]
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "example.com/p/p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Instances: map[*ast.Ident]types.Instance{}}
	pkg, err := (&types.Config{}).Check("example.com/p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	std, err := importer.ForCompiler(token.NewFileSet(), "source", nil).Import("database/sql")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range []*types.Package{pkg, std} {
		scope := p.Scope()
		for _, name := range scope.Names() {
			switch obj := scope.Lookup(name).(type) {
			case *types.Func:
				n++
				sameKey(t, obj)
			case *types.TypeName:
				nt, ok := obj.Type().(*types.Named)
				if !ok {
					continue
				}
				for i := 0; i < nt.NumMethods(); i++ {
					n++
					sameKey(t, nt.Method(i))
				}
				if it, ok := nt.Underlying().(*types.Interface); ok {
					for i := 0; i < it.NumExplicitMethods(); i++ {
						n++
						sameKey(t, it.ExplicitMethod(i))
					}
				}
			}
		}
	}
	for id, obj := range info.Uses {
		if fn, ok := obj.(*types.Func); ok && id.Name == "Gen" {
			n++
			sameKey(t, fn) // an instantiation keys as its origin
		}
	}
	if n < 50 {
		t.Fatalf("compared %d functions", n)
	}
}

func sameKey(t *testing.T, fn *types.Func) {
	t.Helper()
	want := parseKey(fn.Origin().FullName())
	if got := keyOf(fn); got != want {
		t.Errorf("keyOf(%s) = %+v, want %+v", fn.FullName(), got, want)
	}
	if got := Key(fn); parseKey(got) != want {
		t.Errorf("Key(%s) = %q", fn.FullName(), got)
	}
	// lookupKey and IsNoReturn rule a call out by fn.Name() alone (funcNames,
	// noReturnNames): that is sound only if a key that can be in a table
	// (every table key has a package, TestRuleKeysRoundTrip) ends in it.
	if k := keyOf(fn); k.pkg != "" && k.name != fn.Name() {
		t.Errorf("keyOf(%s).name = %q, want the function's name %q", fn.FullName(), k.name, fn.Name())
	}
}

// Every func-table key's name is in funcNames, and every NoReturn key's in
// noReturnNames, so the by-name prefilter never hides a rule.
func TestFuncNamesCoverTables(t *testing.T) {
	indexed()
	for _, m := range []map[funcKey]bool{keySet(acquireByFunc), releaseByFunc, renewByFunc, keySet(tokenByFunc), keySet(writeByFunc)} {
		for k := range m {
			if !funcNames[k.name] {
				t.Errorf("funcNames lacks %q (key %s)", k.name, k)
			}
		}
	}
	for k := range noReturnByFunc {
		if !noReturnNames[k.name] {
			t.Errorf("noReturnNames lacks %q (key %s)", k.name, k)
		}
	}
}

func keySet[V any](m map[funcKey]V) map[funcKey]bool {
	out := make(map[funcKey]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

func TestRedisCommandKey(t *testing.T) {
	k := parseKey(redisCmd + "SetNX")
	if k != (funcKey{pkg: goRedis, recv: "cmd", name: "SetNX"}) || k.String() != redisCmd+"SetNX" {
		t.Errorf("redis key = %+v (%s)", k, k)
	}
}
