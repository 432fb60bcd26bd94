package fencetest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestStubsMatchRealModules checks the library stubs under testdata/src
// against the real modules pinned by testdata/realapi: every symbol a stub
// declares must exist in the real package with the same signature (see
// compareAPI), and the stubs must type-check in GOPATH mode, the way
// analysistest loads them.
func TestStubsMatchRealModules(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	testdata := TestData(t)
	paths := stubPaths(t, filepath.Join(testdata, "src"))
	if len(paths) == 0 {
		t.Fatal("no library stubs under testdata/src")
	}
	stubs := loadStubs(t, testdata, paths)
	reals := loadReal(t, testdata, paths)
	if t.Failed() {
		return
	}
	var d apiDiff
	for _, path := range paths {
		if stubs[path] == nil || reals[path] == nil {
			t.Errorf("%s: not loaded (stub %t, real %t)", path, stubs[path] != nil, reals[path] != nil)
			continue
		}
		compareAPI(&d, stubs[path], reals[path])
		objs, methods := countDecls(stubs[path])
		t.Logf("%s: %d package-level declarations, %d methods", path, objs, methods)
	}
	// Types of different real modules come from different loads (their
	// context.Context differs), so implementations are compared within
	// each real module.
	for _, dir := range slices.Sorted(maps.Keys(realModules)) {
		ss, rs := splitByModule(stubs, dir), splitByModule(reals, dir)
		compareImplements(&d, ss, rs)
	}
	compareImplements(&d, splitByModule(stubs, "realapi"), splitByModule(reals, "realapi"))
	for _, msg := range d.msgs {
		t.Error(msg)
	}
	t.Logf("checked %d stub packages", len(paths))
}

// TestCompareAPIReportsMismatches proves the checker can fail: it compares
// small packages type-checked from source, a "real" one and stubs of it
// with one deliberate error each.
func TestCompareAPIReportsMismatches(t *testing.T) {
	const real = `package lib
type Cmder interface{ Err() error }
type cmdable func(cmd Cmder) error
func (c cmdable) Set(key string, value any) *StatusCmd { return nil }
type baseCmd struct{ err error }
func (c *baseCmd) Err() error { return c.err }
type StatusCmd struct { baseCmd; val string }
func (c *StatusCmd) Val() string { return c.val }
type Client struct { cmdable; Addr string }
func (c *Client) Close() error { return nil }
type KV interface { Put(key, val string) error }
type Scripter interface { Eval(script string, keys []string, args ...any) error }
type RedisError string
type Flag int32
const Nil = RedisError("redis: nil")
const Mode = "NX"
var ErrLocked error
func New(addr string) *Client { return nil }
func Map[K comparable, V any](m map[K]V) []K { return nil }
`
	const ok = `package lib
type Cmder interface{}
type cmdable func(cmd Cmder) error
func (c cmdable) Set(key string, value any) *StatusCmd { panic("stub") }
type baseCmd struct{}
func (c *baseCmd) Err() error { panic("stub") }
type StatusCmd struct { baseCmd }
type Client struct { cmdable }
type KV interface { Put(key, val string) error }
type RedisError string
type Flag int32
const Nil RedisError = "redis: nil"
var ErrLocked error
func New(addr string) *Client { panic("stub") }
func Map[K comparable, V any](m map[K]V) []K { panic("stub") }
`
	realPkg := checkSource(t, real)
	if d := diff(checkSource(t, ok), realPkg); len(d) != 0 {
		t.Fatalf("faithful stub reported: %q", d)
	}
	for _, tc := range []struct{ name, old, new, want string }{
		{"func signature", "New(addr string)", "New(addr string, n int)", "lib.New: func"},
		{"param name", "New(addr string)", "New(address string)", "lib.New: func"},
		{"missing symbol", "var ErrLocked error", "var ErrLocked, ErrGone error", "lib.ErrGone: var not declared"},
		{"kind", "var ErrLocked error", "const ErrLocked = 1", "lib.ErrLocked: stub declares a const"},
		{"const value", `"redis: nil"`, `"nil"`, "lib.Nil: const value"},
		{"const type", `const Nil RedisError = "redis: nil"`, `const Nil = "redis: nil"`, "lib.Nil: const of type untyped string"},
		{"var type", "var ErrLocked error", "var ErrLocked any", "lib.ErrLocked: var"},
		{"field type", "type Client struct { cmdable }", "type Client struct { cmdable; Addr []byte }", "field Addr of type []byte"},
		{"field not embedded", "type Client struct { cmdable }", "type Client struct { c cmdable }", "field c not in the real struct"},
		{"underlying type", "type Flag int32", "type Flag int64", "lib.Flag: underlying type int64, real int32"},
		{"struct vs interface", "type Cmder interface{}", "type Cmder struct{}", "lib.Cmder: underlying struct, real interface"},
		{"interface method", "Put(key, val string) error", "Put(key, val string) bool", "lib.KV: method (example.com/lib.KV).Put"},
		{"interface extra method", "Put(key, val string) error", "Put(key, val string) error; Get(key string) string", "lib.KV: method Get not in"},
		{"embedded interface", "type KV interface { Put(key, val string) error }", "type KV interface { Cmder }", "embeds example.com/lib.Cmder"},
		{"method declared on the wrong type", "type Client struct { cmdable }", "type Client struct { cmdable }\nfunc (c *Client) Set(key string, value any) *StatusCmd { panic(0) }", "resolves to (*example.com/lib.Client).Set, real (example.com/lib.cmdable).Set"},
		{"receiver kind", "func (c *baseCmd) Err()", "func (c baseCmd) Err()", "resolves to (example.com/lib.baseCmd).Err, real (*example.com/lib.baseCmd).Err"},
		{"missing method", "func (c cmdable) Set(key string, value any) *StatusCmd { panic(\"stub\") }", "func (c cmdable) Set(key string, value any) *StatusCmd { panic(\"stub\") }\nfunc (c cmdable) Get(key string) *StatusCmd { panic(0) }", "method Get not in the method set"},
		{"type params", "Map[K comparable, V any]", "Map[K comparable, V comparable]", "lib.Map: func"},
		{"implements lost", "type Cmder interface{}", "type Cmder interface{ Err() error }\ntype Scripter interface { Eval(script string, keys []string, args ...any) error }\nfunc (c *Client) Eval(script string, keys []string, args ...any) error { panic(0) }", "lib.Client implements"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(ok, tc.old, tc.new, 1)
			if src == ok {
				t.Fatalf("test case does not apply: %q not in stub", tc.old)
			}
			d := diff(checkSource(t, src), realPkg)
			if !slices.ContainsFunc(d, func(m string) bool { return strings.Contains(m, tc.want) }) {
				t.Errorf("want a mismatch containing %q, got %q", tc.want, d)
			}
		})
	}
}

// countDecls counts the package-level objects of pkg and the methods
// declared on its named types.
func countDecls(pkg *types.Package) (objs, methods int) {
	for _, name := range pkg.Scope().Names() {
		objs++
		if tn, ok := pkg.Scope().Lookup(name).(*types.TypeName); ok && !tn.IsAlias() {
			if n, ok := tn.Type().(*types.Named); ok {
				methods += n.NumMethods()
			}
		}
	}
	return objs, methods
}

func diff(stub, real *types.Package) []string {
	var d apiDiff
	compareAPI(&d, stub, real)
	compareImplements(&d, map[string]*types.Package{stub.Path(): stub}, map[string]*types.Package{real.Path(): real})
	return d.msgs
}

func checkSource(t *testing.T, src string) *types.Package {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "lib.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := new(types.Config).Check("example.com/lib", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

// stubPaths returns the import paths of the library stubs under src: the
// packages below a top-level directory whose name has a dot, like
// github.com or go.etcd.io (test cases live in dot-less directories).
// caseDirs are analyzer cases that live under a library's import path on
// purpose (an application inside the library's module, which fencelint
// analyses like user code): they are not stubs.
var caseDirs = []string{"go.etcd.io/etcd/contrib", "github.com/go-co-op/gocron/v2/examples", "example.com/inhouse", "example.com/vanity", "gorm.io/fencelintcase"}

func stubPaths(t testing.TB, src string) []string {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range entries {
		if !e.IsDir() || !strings.Contains(e.Name(), ".") {
			continue
		}
		err := filepath.WalkDir(filepath.Join(src, e.Name()), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if name := d.Name(); name == "testdata" || strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") {
					return filepath.SkipDir
				}
				if rel, err := filepath.Rel(src, path); err == nil && slices.Contains(caseDirs, filepath.ToSlash(rel)) {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
				rel, err := filepath.Rel(src, filepath.Dir(path))
				if err != nil {
					return err
				}
				if p := filepath.ToSlash(rel); !slices.Contains(paths, p) {
					paths = append(paths, p)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(paths)
	return paths
}

// loadStubs type-checks the stub packages from source in GOPATH mode with
// testdata as GOPATH, as analysistest does, and reports their errors.
func loadStubs(t testing.TB, testdata string, paths []string) map[string]*types.Package {
	t.Helper()
	return typesOf(load(t, "stubs (GOPATH mode)", testdata, stubEnv(testdata), paths))
}

// loadReal loads the same import paths from the real modules required by
// testdata/realapi, or by the module of realModules that pins their
// module.
func loadReal(t testing.TB, testdata string, paths []string) map[string]*types.Package {
	t.Helper()
	byDir := make(map[string][]string)
	for _, p := range paths {
		dir := realModuleDir(p)
		byDir[dir] = append(byDir[dir], p)
	}
	m := make(map[string]*types.Package)
	for _, dir := range slices.Sorted(maps.Keys(byDir)) {
		for p, pkg := range typesOf(load(t, "real modules (testdata/"+dir+")", filepath.Join(testdata, dir), realEnv(), byDir[dir])) {
			m[p] = pkg
		}
	}
	return m
}

// realModules are the modules besides testdata/realapi that pin a real
// library, by the import path prefixes they serve: a library that cannot
// share realapi's build list (etcd's clientv3 before the 3.5 split needs
// gRPC 1.26, which the newer modules of realapi cannot build with).
var realModules = map[string][]string{
	"realapi/etcd34": {"go.etcd.io/etcd/clientv3", "go.etcd.io/etcd/etcdserver", "go.etcd.io/etcd/mvcc", "github.com/coreos/etcd"},
}

// splitByModule returns the packages of m that the module in dir pins.
func splitByModule(m map[string]*types.Package, dir string) map[string]*types.Package {
	out := make(map[string]*types.Package)
	for p, pkg := range m {
		if realModuleDir(p) == dir {
			out[p] = pkg
		}
	}
	return out
}

// realModuleDir returns the directory under testdata of the module that
// pins the real package path.
func realModuleDir(path string) string {
	for dir, prefixes := range realModules {
		for _, pfx := range prefixes {
			if path == pfx || strings.HasPrefix(path, pfx+"/") {
				return dir
			}
		}
	}
	return "realapi"
}

func stubEnv(testdata string) []string {
	return append(os.Environ(), "GO111MODULE=off", "GOPATH="+testdata, "GOFLAGS=", "CGO_ENABLED=0")
}

// realEnv is the environment for testdata/realapi: -mod=mod lets go
// download missing modules (through the module proxy) instead of failing
// on an incomplete module cache.
func realEnv() []string {
	return append(os.Environ(), "GO111MODULE=on", "GOFLAGS=-mod=mod", "GOWORK=off", "CGO_ENABLED=0")
}

func typesOf(pkgs []*packages.Package) map[string]*types.Package {
	m := make(map[string]*types.Package)
	for _, p := range pkgs {
		if p.Types != nil {
			m[p.PkgPath] = p.Types
		}
	}
	return m
}

// load lists paths and their dependencies with go/packages and type-checks
// them from source, in dependency order, reporting errors with t.Errorf.
// The requested packages are checked with function bodies and get Types,
// Syntax, TypesInfo (Defs, Uses and Types) and Fset; the others (the standard
// library, grpc, client-go, ...) only Types, from their declarations.
// This needs no compilation: with export data (packages.NeedTypes) a cold
// build cache would compile several hundred packages first, which takes
// many minutes on a small machine.
func load(t testing.TB, what, dir string, env, paths []string) []*packages.Package {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule,
		Dir:  dir,
		Env:  env,
	}
	roots, err := packages.Load(cfg, paths...)
	if err != nil {
		t.Fatalf("loading %s: %v", what, err)
	}
	fset := token.NewFileSet()
	done := make(map[*packages.Package]bool)
	var check func(p *packages.Package) *types.Package
	check = func(p *packages.Package) *types.Package {
		if done[p] {
			return p.Types
		}
		done[p] = true
		if p.PkgPath == "unsafe" {
			p.Types = types.Unsafe
			return p.Types
		}
		for _, err := range p.Errors {
			t.Errorf("loading %s: %s: %v", what, p.PkgPath, err)
		}
		root := slices.Contains(paths, p.PkgPath)
		var files []*ast.File
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Errorf("loading %s: %v", what, err)
				continue
			}
			files = append(files, f)
		}
		conf := types.Config{
			IgnoreFuncBodies: !root,
			Importer: importerFunc(func(path string) (*types.Package, error) {
				if imp := p.Imports[path]; imp != nil && check(imp) != nil {
					return imp.Types, nil
				}
				return nil, fmt.Errorf("%s: cannot import %q", p.PkgPath, path)
			}),
			Error: func(err error) {
				t.Errorf("loading %s: type error in %s: %v", what, p.PkgPath, err)
			},
		}
		var info *types.Info
		if root {
			info = &types.Info{
				Defs:  make(map[*ast.Ident]types.Object),
				Uses:  make(map[*ast.Ident]types.Object),
				Types: make(map[ast.Expr]types.TypeAndValue),
			}
			p.Syntax, p.TypesInfo, p.Fset = files, info, fset
		}
		p.Types, _ = conf.Check(p.PkgPath, fset, files, info)
		return p.Types
	}
	for _, p := range roots {
		check(p)
	}
	return roots
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
