package fencetest

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/packages"
)

// TestRuleKeysResolve checks rules/ against the APIs it describes and the
// test cases that exercise it. Every key of every rules.Libs entry
// (acquires, releases, renews, tokens, writes, lock types, callbacks,
// reads) and of the other exported tables (SQL prepares, GCS and Azure
// conditions, gorm chain methods, ...) must name a declaration of the
// right kind in the type-checked stubs under testdata/src, or, for a
// package without a stub, in the real modules of testdata/realapi: a
// function, a method on the right receiver with the right pointerness (as
// rules.Key spells it), a field of that struct, a named type, a constant.
// Every argument index a rule names (QueryArg, ArgsFrom, InputArg, KeyArg,
// VersionArg, the Prepares and TxStmts indexes) must be a parameter of the
// right type. And every rule of rules.Libs must be used at least once by
// the test cases (the packages under testdata/src whose first path
// element has no dot): a call or method value whose callee's rules.Key is
// the key, a field selection or composite-literal key, a type name.
func TestRuleKeysResolve(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	testdata := TestData(t)
	src := filepath.Join(testdata, "src")
	refs := ruleRefs()
	cases := casePaths(t, src)
	if len(cases) == 0 {
		t.Fatal("no test case packages under testdata/src")
	}
	paths := append(stubPaths(t, src), cases...)
	for _, p := range refPackages(refs) {
		if !strings.Contains(firstElem(p), ".") && !slices.Contains(paths, p) {
			paths = append(paths, p) // the standard library
		}
	}
	pkgs := load(t, "stubs and test cases (GOPATH mode)", testdata, stubEnv(testdata), paths)
	if t.Failed() {
		return
	}
	u := newUniverse()
	var casePkgs []*packages.Package
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if slices.Contains(cases, p.PkgPath) {
			casePkgs = append(casePkgs, p)
		} else if p.Types != nil {
			u.add(p.Types, "stub")
		}
	})
	// Packages no stub declares are resolved against the real modules.
	var missing []string
	for _, p := range refPackages(refs) {
		if !u.pkgs[p] && !u.keyPkgs[p] {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		t.Logf("no stub for %v: resolving against testdata/realapi", missing)
		realapi := filepath.Join(testdata, "realapi")
		restore := keepFiles(t, filepath.Join(realapi, "go.mod"), filepath.Join(realapi, "go.sum"))
		for _, p := range load(t, "real modules (testdata/realapi)", realapi, realEnv(), missing) {
			if p.Types != nil {
				u.add(p.Types, "real")
			}
		}
		// realEnv's -mod=mod adds a module no requirement names; a
		// rule's module must be pinned on purpose.
		if restore() {
			t.Errorf("%v: not in a module testdata/realapi requires: import the packages in realapi.go and run go mod tidy there", missing)
		}
	}
	used := newUsage(u)
	for _, p := range casePkgs {
		used.add(p.TypesInfo)
	}
	res := checkRules(refs, u, used)
	for _, m := range res.problems {
		t.Error(m)
	}
	for _, w := range res.unused {
		if _, ok := unexercised[w]; !ok {
			t.Errorf("%s: no use in the test cases", w)
		}
	}
	for w := range unexercised {
		if !slices.Contains(res.unused, w) {
			t.Errorf("%s: used by a test case now: remove it from unexercised", w)
		}
	}
	t.Logf("%d rule entries: %d keys resolved (%d against the real modules), %d rules used by %d test case packages",
		len(refs), res.resolved, res.real, res.usedRules, len(casePkgs))
}

// keepFiles saves the files; the function it returns writes back those
// that changed and reports whether any did.
func keepFiles(t *testing.T, files ...string) func() bool {
	t.Helper()
	saved := make(map[string][]byte)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		saved[f] = b
	}
	return func() bool {
		changed := false
		for f, b := range saved {
			if now, err := os.ReadFile(f); err == nil && string(now) == string(b) {
				continue
			}
			changed = true
			if err := os.WriteFile(f, b, 0o644); err != nil {
				t.Error(err)
			}
		}
		return changed
	}
}

// TestCheckRulesReportsProblems proves TestRuleKeysResolve can fail: a
// small library and a case package that uses part of it, and rule entries
// with one deliberate defect each.
func TestCheckRulesReportsProblems(t *testing.T) {
	const lib = `package lib
type DB struct{ Rev int64; Name string; OnLead func() }
func (db *DB) Exec(query string, args ...any) error { return nil }
func (db DB) Value() int64 { return 0 }
type Lock struct{}
func Obtain(key string, ttl int) *Lock { return nil }
const VerbCAS = "cas"
var ErrConflict error
`
	const app = `package app
import "example.com/lib"
func f(db *lib.DB, l *lib.Lock) {
	_ = db.Exec("UPDATE t SET a = 1")
	_ = db.Rev
	_ = lib.DB{OnLead: func() {}}
	_ = lib.VerbCAS
}
`
	libPkg := checkSource(t, lib)
	info := &types.Info{Uses: make(map[*ast.Ident]types.Object)}
	checkFile(t, "example.com/app", app, libPkg, info)
	u := newUniverse()
	u.add(libPkg, "stub")
	used := newUsage(u)
	used.add(info)

	execW := rules.Write{Func: "(*example.com/lib.DB).Exec", Kind: rules.SQLWrite, Store: "SQL", QueryArg: 0, ArgsFrom: 1, KeyArg: -1}
	good := []ruleRef{
		{table: "t Writes", kind: refFunc, key: execW.Func, args: writeArgs(execW), use: true},
		{table: "t Tokens", kind: refField, key: "example.com/lib.DB.Rev", field: integerField, use: true},
		{table: "t Callbacks", kind: refField, key: "example.com/lib.DB.OnLead", field: funcField, use: true},
		{table: "t LockTypes", kind: refType, key: "example.com/lib.Lock", use: true},
		{table: "t verbs", kind: refConst, key: "example.com/lib", value: "cas", use: true},
		{table: "t Sentinels", kind: refVar, key: "example.com/lib.ErrConflict"},
	}
	if r := checkRules(good, u, used); len(r.problems)+len(r.unused) != 0 {
		t.Fatalf("faithful rules reported: %q %q", r.problems, r.unused)
	}
	for _, tc := range []struct {
		name string
		ref  ruleRef
		want string
	}{
		{"no such method", ruleRef{table: "t", kind: refFunc, key: "(*example.com/lib.DB).Query"}, "(*example.com/lib.DB).Query: no func or method"},
		{"wrong pointerness", ruleRef{table: "t", kind: refFunc, key: "(*example.com/lib.DB).Value"}, "(*example.com/lib.DB).Value: no func or method"},
		{"method as func", ruleRef{table: "t", kind: refFunc, key: "example.com/lib.Exec"}, "example.com/lib.Exec: no func or method"},
		{"no such field", ruleRef{table: "t", kind: refField, key: "example.com/lib.DB.Revision"}, "example.com/lib.DB.Revision: no field"},
		{"field of wrong type", ruleRef{table: "t", kind: refField, key: "example.com/lib.DB.Name", field: integerField}, "not an integer"},
		{"no such type", ruleRef{table: "t", kind: refType, key: "example.com/lib.Mutex"}, "example.com/lib.Mutex: no named type"},
		{"no such const", ruleRef{table: "t", kind: refConst, key: "example.com/lib", value: "check-session"}, `no constant "check-session"`},
		{"index out of range", ruleRef{table: "t", kind: refFunc, key: execW.Func, args: []argRef{{"QueryArg", 2, argString}}}, "QueryArg 2 is out of range"},
		{"index of wrong type", ruleRef{table: "t", kind: refFunc, key: "example.com/lib.Obtain", args: []argRef{{"KeyArg", 1, argString}}}, "KeyArg 1 is ttl int, want a string"},
		{"no such var", ruleRef{table: "t", kind: refVar, key: "example.com/lib.ErrStale"}, "example.com/lib.ErrStale: no package-level variable"},
		{"unused", ruleRef{table: "t", kind: refFunc, key: "example.com/lib.Obtain", use: true}, "t: example.com/lib.Obtain"},
		{"unused field", ruleRef{table: "t", kind: refField, key: "example.com/lib.DB.Name", use: true}, "t: example.com/lib.DB.Name"},
		{"unused const", ruleRef{table: "t", kind: refConst, key: "example.com/lib", value: "cas-not", use: true}, `no constant "cas-not"`},
		{"unused type", ruleRef{table: "t", kind: refType, key: "example.com/lib.DB", use: false}, ""},
		{"unread field set", ruleRef{table: "t", kind: refFunc, key: execW.Func, args: writeArgs(rules.Write{Kind: rules.SQLWrite, QueryArg: 0, ArgsFrom: 1, KeyArg: 2})}, "KeyArg 2 is set but not read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := checkRules([]ruleRef{tc.ref}, u, used)
			all := append(r.problems, r.unused...)
			if tc.want == "" {
				if len(all) != 0 {
					t.Errorf("want no report, got %q", all)
				}
				return
			}
			if !slices.ContainsFunc(all, func(m string) bool { return strings.Contains(m, tc.want) }) {
				t.Errorf("want a report containing %q, got %q", tc.want, all)
			}
		})
	}
}

func checkFile(t *testing.T, path, src string, dep *types.Package, info *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "app.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	files := []*ast.File{f}
	conf := types.Config{Importer: importerFunc(func(p string) (*types.Package, error) {
		if p == dep.Path() {
			return dep, nil
		}
		return nil, fmt.Errorf("no package %q", p)
	})}
	if _, err := conf.Check(path, fset, files, info); err != nil {
		t.Fatal(err)
	}
}

// refKind is what a rule key names.
type refKind int

const (
	refFunc  refKind = iota // a function or method, keyed as rules.Key spells it
	refField                // "pkgpath.Type.Field", a field declared in that struct
	refType                 // "pkgpath.Type", a named (not alias) type
	refConst                // a constant of package key whose value is value
	refVar                  // "pkgpath.Var", a package-level variable (a sentinel error)
)

// A ruleRef is one entry of a rules/ table.
type ruleRef struct {
	table string // where it is listed, for messages: "go-redis Writes"
	kind  refKind
	key   string
	// alts are other keys that resolve the entry as well (a condition
	// field that only some input structs have).
	alts  []string
	value string // refConst
	args  []argRef
	// field checks a resolved field's type; it returns what is wrong.
	field func(*types.Var) string
	// use: a test case must use the key.
	use bool
}

// An argRef is an argument index a rule names. Indexes count the
// parameters after the receiver, as the engine's params() does.
type argRef struct {
	name string // "QueryArg"
	idx  int
	want argKind
}

type argKind int

const (
	argAny argKind = iota
	argString
	argInt
	argPtrStruct // a pointer to a named struct: an input or options struct
	argSlice     // consul's KVTxnOps and TxnOps
	argStmt      // a *database/sql.Stmt
	argFunc      // a function: the one a retry runner runs
	argUnread    // not read for the rule's kind: must be 0 or -1
	argOptional  // -1, or any parameter
)

var argKindNames = map[argKind]string{
	argString: "a string", argInt: "an integer", argPtrStruct: "a pointer to a named struct",
	argSlice: "a slice", argStmt: "a *database/sql.Stmt", argFunc: "a function",
}

// writeArgs returns the argument indexes the engine reads for w.Kind and,
// as argUnread, the ones it does not read (0 doubles as "unset" for
// those). The engine reads QueryArg and ArgsFrom for SQL and scripts,
// InputArg for input structs, consul operations, gorm's Update value and
// Azure options, KeyArg as the written key (blind writes, ZooKeeper, an
// Azure blob name), VersionArg for ZooKeeper's version.
func writeArgs(w rules.Write) []argRef {
	q := argRef{"QueryArg", w.QueryArg, argString}
	a := argRef{"ArgsFrom", w.ArgsFrom, argAny}
	in := argRef{"InputArg", w.InputArg, argPtrStruct}
	k := argRef{"KeyArg", w.KeyArg, argString}
	v := argRef{"VersionArg", w.VersionArg, argInt}
	unread := func(rs ...argRef) []argRef {
		for i := range rs {
			rs[i].want = argUnread
		}
		return rs
	}
	u := argRef{"UpdateArg", w.UpdateArg, argAny}
	if w.Kind != rules.MongoWrite {
		return append(writeArgsOf(w, q, a, in, k, v, unread), unread(u)...)
	}
	// MongoWrite: the filter (-1 for UpdateByID) and the update or
	// replacement (-1 for a delete), both documents of any type.
	in.want, u.want = argOptional, argOptional
	return append([]argRef{in, u}, unread(q, a, k, v)...)
}

// writeArgsOf is writeArgs for the kinds that read no UpdateArg.
func writeArgsOf(w rules.Write, q, a, in, k, v argRef, unread func(...argRef) []argRef) []argRef {
	switch w.Kind {
	case rules.CQLBatch:
		return append([]argRef{in}, unread(q, a, k, v)...) // the *Batch
	case rules.MongoBulk:
		in.want = argSlice // []WriteModel
		return append([]argRef{in}, unread(q, a, k, v)...)
	case rules.SQLWrite:
		return append([]argRef{q, a}, unread(in, k, v)...)
	case rules.SQLStmtWrite:
		return append([]argRef{a}, unread(in, k, v)...) // QueryArg is -1: the SQL is the Prepare's
	case rules.RedigoDo:
		if w.QueryArg == w.ArgsFrom {
			q.want = argSlice // go-redis Do(ctx, args...): the name leads the variadic
		}
		return append([]argRef{q, a}, unread(in, k, v)...)
	case rules.RedisScript, rules.RedigoScript:
		if w.QueryArg == -1 {
			q.want = argOptional
		}
		return append([]argRef{q, a}, unread(in, k, v)...)
	case rules.DynamoWrite, rules.DynamoTransact, rules.S3Write:
		return append([]argRef{in}, unread(q, a, k, v)...)
	case rules.ConsulTxn:
		in.want = argSlice
		return append([]argRef{in}, unread(q, a, k, v)...)
	case rules.GormChain:
		in.want = argOptional
		return append([]argRef{in}, unread(q, a, k, v)...)
	case rules.AzureWrite:
		if w.KeyArg == -1 {
			k.want = argOptional
		}
		return append([]argRef{in, k}, unread(q, a, v)...)
	case rules.KVBlind:
		if w.KeyArg == -1 {
			k.want = argOptional
		}
		rf := argRef{"RecipeFlagArg", w.RecipeFlagArg, argInt}
		if w.RecipeFlag == 0 {
			rf.want = argUnread
		}
		return append([]argRef{k, rf}, unread(q, a, in, v)...)
	case rules.ZKVersioned:
		return append([]argRef{k, v}, unread(q, a, in)...)
	case rules.ObjectVersioned:
		// The object (a pointer to a struct), or a Patch's []byte body;
		// KeyArg is the name a Patch targets.
		in.want = argAny
		if w.KeyArg == -1 {
			k.want = argOptional
		}
		return append([]argRef{in, k}, unread(q, a, v)...)
	}
	// EtcdTxnCommit, ZKMulti, Conditional, GormSave, GormCreate, GCSWrite,
	// CQLQuery (its statement is the Session.Query's) read no index.
	return unread(q, a, in, k, v)
}

func integerField(f *types.Var) string {
	if !rules.IsIntegerLike(f.Type()) {
		return fmt.Sprintf("is %s, not an integer", typeString(f.Type()))
	}
	return ""
}

// weakTokenField accepts the field of a weak token: an integer, or a
// string (an opaque or random value, such as a resourceVersion).
func weakTokenField(f *types.Var) string {
	if b, ok := f.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
		return ""
	}
	return integerField(f)
}

func funcField(f *types.Var) string {
	if _, ok := f.Type().Underlying().(*types.Signature); !ok {
		return fmt.Sprintf("is %s, not a func", typeString(f.Type()))
	}
	return ""
}

// ruleRefs lists every entry of rules/ that names an API.
func ruleRefs() []ruleRef {
	var refs []ruleRef
	add := func(r ruleRef) { refs = append(refs, r) }
	for _, lib := range rules.Libs {
		// The identities a write's declared outcome is told apart by.
		for _, w := range lib.Writes {
			o := w.Outcome
			for _, v := range o.Sentinels {
				add(ruleRef{table: lib.Name + " Outcome.Sentinels", kind: refVar, key: v})
			}
			for _, et := range o.ErrTypes {
				add(ruleRef{table: lib.Name + " Outcome.ErrTypes", kind: refType, key: et})
			}
			if o.ErrCode != nil {
				add(ruleRef{table: lib.Name + " Outcome.ErrCode", kind: refFunc, key: "(" + o.ErrCode.Type + ")." + o.ErrCode.Method})
			}
			for _, p := range o.Predicates {
				add(ruleRef{table: lib.Name + " Outcome.Predicates", kind: refFunc, key: p, use: true})
			}
			for r, i := range o.Retriers {
				add(ruleRef{table: lib.Name + " Outcome.Retriers", kind: refFunc, key: r, args: []argRef{{"func index", i, argAny}}, use: true})
			}
		}
		for _, a := range lib.Acquires {
			r := ruleRef{table: lib.Name + " Acquires", kind: refFunc, key: a.Func, use: true}
			if a.KeyArg >= 0 {
				r.args = []argRef{{"KeyArg", a.KeyArg, argString}}
			}
			add(r)
		}
		for _, f := range lib.Releases {
			add(ruleRef{table: lib.Name + " Releases", kind: refFunc, key: f, use: true})
		}
		for _, f := range lib.Renews {
			add(ruleRef{table: lib.Name + " Renews", kind: refFunc, key: f, use: true})
		}
		for _, tk := range lib.Tokens {
			if tk.Func != "" {
				add(ruleRef{table: lib.Name + " Tokens", kind: refFunc, key: tk.Func, use: true})
			}
			if tk.Field != "" {
				check := integerField
				if tk.Weak != rules.NotWeak {
					check = weakTokenField // an opaque string can be a weak token
				}
				add(ruleRef{table: lib.Name + " Tokens", kind: refField, key: tk.Field, field: check, use: true})
			}
		}
		for _, w := range lib.Writes {
			add(ruleRef{table: lib.Name + " Writes", kind: refFunc, key: w.Func, args: writeArgs(w), use: true})
		}
		for _, lt := range lib.LockTypes {
			add(ruleRef{table: lib.Name + " LockTypes", kind: refType, key: lt, use: true})
		}
		for _, c := range lib.Callbacks {
			add(ruleRef{table: lib.Name + " Callbacks", kind: refField, key: c, field: funcField, use: true})
		}
		// Reads are documentation: nothing consults them, so a use
		// would prove nothing. They must still exist.
		for _, f := range lib.Reads {
			add(ruleRef{table: lib.Name + " Reads", kind: refFunc, key: f})
		}
	}
	// The tables outside Libs. They are keyed by name or by string,
	// so only existence (and the indexes) is checked.
	for k, i := range rules.Prepares {
		add(ruleRef{use: true, table: "rules.Prepares", kind: refFunc, key: k, args: []argRef{{"query index", i, argString}}})
	}
	for k, i := range rules.TxStmts {
		add(ruleRef{use: true, table: "rules.TxStmts", kind: refFunc, key: k, args: []argRef{{"statement index", i, argStmt}}})
	}
	add(ruleRef{use: true, table: "rules.SQLNamed", kind: refFunc, key: rules.SQLNamed})
	for k, i := range rules.RetryRunners {
		add(ruleRef{use: true, table: "rules.RetryRunners", kind: refFunc, key: k, args: []argRef{{"func index", i, argFunc}}})
	}
	for _, n := range rules.NamedArgsTypes {
		add(ruleRef{table: "rules.NamedArgsTypes", kind: refType, key: n})
	}
	for n := range rules.DynamoInputs {
		add(ruleRef{table: "rules.DynamoInputs", kind: refField, key: n + ".ConditionExpression"})
	}
	var s3Inputs []string
	for _, w := range rules.S3.Writes {
		s3Inputs = append(s3Inputs, s3InputOf(w.Func))
	}
	for _, p := range rules.S3Preconditions {
		var keys []string
		for _, in := range s3Inputs {
			keys = append(keys, in+"."+p)
		}
		add(ruleRef{table: "rules.S3Preconditions", kind: refField, key: keys[0], alts: keys[1:]})
	}
	const gcs = "cloud.google.com/go/storage"
	for _, p := range rules.GCSPreconditions {
		add(ruleRef{use: true, table: "rules.GCSPreconditions", kind: refField, key: gcs + ".Conditions." + p})
	}
	for m := range rules.GCSHandleMethods {
		add(ruleRef{use: true, table: "rules.GCSHandleMethods", kind: refFunc, key: "(*" + gcs + ".ObjectHandle)." + m})
	}
	const azgen = "github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/internal/generated"
	for group, fields := range rules.AzureConditions {
		for _, f := range fields {
			add(ruleRef{use: true, table: "rules.AzureConditions", kind: refField, key: azgen + "." + group + "." + f})
		}
	}
	const azcontainer = "github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
	for m := range rules.AzureClientCtors {
		add(ruleRef{use: true, table: "rules.AzureClientCtors", kind: refFunc, key: "(*" + azcontainer + ".Client)." + m,
			args: []argRef{{"blob name", 0, argString}}})
	}
	const gorm = "gorm.io/gorm"
	for m := range rules.GormConditions {
		add(ruleRef{use: true, table: "rules.GormConditions", kind: refFunc, key: "(*" + gorm + ".DB)." + m})
	}
	for m := range rules.GormPassThrough {
		add(ruleRef{use: true, table: "rules.GormPassThrough", kind: refFunc, key: "(*" + gorm + ".DB)." + m})
	}
	const consul = "github.com/hashicorp/consul/api"
	for verb := range rules.ConsulCheckVerbs {
		add(ruleRef{use: true, table: "rules.ConsulCheckVerbs", kind: refConst, key: consul, value: verb})
	}
	add(ruleRef{use: true, table: "rules.GocronTask", kind: refFunc, key: rules.GocronTask})
	for k, i := range rules.CQLQueries {
		add(ruleRef{use: true, table: "rules.CQLQueries", kind: refFunc, key: k, args: []argRef{{"statement index", i, argString}}})
	}
	for k, i := range rules.CQLBatchQueries {
		add(ruleRef{use: true, table: "rules.CQLBatchQueries", kind: refFunc, key: k, args: []argRef{{"statement index", i, argString}}})
	}
	for k := range rules.CQLBinds {
		add(ruleRef{use: true, table: "rules.CQLBinds", kind: refFunc, key: k})
	}
	for k := range rules.CQLBatchMakers {
		add(ruleRef{use: true, table: "rules.CQLBatchMakers", kind: refFunc, key: k})
	}
	for _, k := range []string{rules.CQLQueryType, rules.CQLBatchType, rules.CQLBatchEntry} {
		add(ruleRef{table: "rules (gocql.go)", kind: refType, key: k})
	}
	add(ruleRef{table: "rules.CQLBatchEntries", kind: refField, key: rules.CQLBatchType + "." + rules.CQLBatchEntries})
	for _, k := range []string{"M", "D", "E", "A"} {
		add(ruleRef{table: "rules.MongoBSONPkg", kind: refType, key: rules.MongoBSONPkg + "." + k})
	}
	for m, part := range rules.MongoModelSetters {
		model := "UpdateOneModel"
		if m == "SetReplacement" {
			model = "ReplaceOneModel"
		}
		_ = part
		add(ruleRef{use: true, table: "rules.MongoModelSetters", kind: refFunc, key: "(*" + rules.MongoModels + "." + model + ")." + m})
	}
	for k, i := range rules.K8sObjectFills {
		add(ruleRef{use: true, table: "rules.K8sObjectFills", kind: refFunc, key: k, args: []argRef{{"object index", i, argAny}}})
	}
	for k := range rules.K8sPatchBuilders {
		add(ruleRef{use: true, table: "rules.K8sPatchBuilders", kind: refFunc, key: k})
	}
	add(ruleRef{use: true, table: "rules.K8sOptimisticLock", kind: refType, key: rules.K8sOptimisticLock})
	add(ruleRef{table: "rules.K8sObjectMetaType", kind: refType, key: rules.K8sObjectMetaType})
	add(ruleRef{table: "rules.K8sLeaseLock", kind: refType, key: rules.K8sLeaseLock.Type})
	add(ruleRef{table: "rules.K8sLeaseLock", kind: refField, key: rules.K8sLeaseLock.HolderType + "." + rules.K8sLeaseLock.HolderField})
	for k := range rules.GocronLockedHooks {
		add(ruleRef{use: true, table: "rules.GocronLockedHooks", kind: refFunc, key: k})
	}
	// apipkgs.go: the types and functions the engine's readers compare with.
	for _, k := range []string{rules.EtcdSession, rules.GormLocking, rules.GormReturning, rules.ContextType} {
		add(ruleRef{table: "rules (apipkgs.go)", kind: refType, key: k})
	}
	add(ruleRef{table: "rules (apipkgs.go)", kind: refFunc, key: rules.EtcdSessionCtx})
	add(ruleRef{table: "rules (apipkgs.go)", kind: refFunc, key: rules.Sprintf})
	for k := range rules.Digests {
		add(ruleRef{table: "rules.Digests", kind: refFunc, key: k})
	}
	for k := range rules.ErrorMatchers {
		add(ruleRef{table: "rules.ErrorMatchers", kind: refFunc, key: k})
	}
	for k := range rules.GocronDistributed {
		add(ruleRef{use: true, table: "rules.GocronDistributed", kind: refFunc, key: k})
	}
	slices.SortStableFunc(refs, func(a, b ruleRef) int { return strings.Compare(a.table, b.table) })
	return refs
}

// s3InputOf is the input struct of an S3 client method: PutObject takes
// *PutObjectInput.
func s3InputOf(key string) string {
	recv, name, _ := strings.Cut(strings.TrimPrefix(key, "(*"), ").")
	return recv[:strings.LastIndexByte(recv, '.')] + "." + name + "Input"
}

// refPackages returns the import paths the entries' keys live in.
func refPackages(refs []ruleRef) []string {
	var out []string
	for _, r := range refs {
		for _, k := range append([]string{r.key}, r.alts...) {
			p := keyPackage(r.kind, k)
			if p != "" && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return out
}

// keyPackage is the package path of a key: "(*a/b.T).M", "a/b.F",
// "a/b.T.F" (a field), "a/b.T" (a type) or a package path (a constant).
func keyPackage(kind refKind, key string) string {
	switch kind {
	case refConst:
		return key
	case refField:
		key = key[:strings.LastIndexByte(key, '.')]
	case refFunc:
		if r, ok := strings.CutPrefix(key, "("); ok {
			key, _, _ = strings.Cut(strings.TrimPrefix(r, "*"), ")")
			key, _, _ = strings.Cut(key, "[")
		}
	}
	slash := max(strings.LastIndexByte(key, '/'), 0)
	dot := strings.IndexByte(key[slash:], '.')
	if dot < 0 {
		return ""
	}
	return key[:slash+dot]
}

func firstElem(path string) string {
	first, _, _ := strings.Cut(path, "/")
	return first
}

// A universe is the declarations of a set of packages, by rule key.
type universe struct {
	pkgs map[string]bool
	// keyPkgs are the packages keys name that no loaded package is: a
	// family key's (k8s.io/client-go/kubernetes/typed) or an old path's
	// new one, provided by the packages that declare its members.
	keyPkgs map[string]bool
	real    map[string]bool // packages loaded from the real modules
	funcs   map[string][]*types.Func
	types   map[string]*types.TypeName
	fields  map[string]*types.Var
	owner   map[*types.Var]string // field -> "pkgpath.Type.Field"
	consts  map[string][]*types.Const
	vars    map[string]*types.Var
}

func newUniverse() *universe {
	return &universe{
		pkgs: map[string]bool{}, keyPkgs: map[string]bool{}, real: map[string]bool{}, funcs: map[string][]*types.Func{},
		types: map[string]*types.TypeName{}, fields: map[string]*types.Var{},
		owner: map[*types.Var]string{}, consts: map[string][]*types.Const{},
		vars: map[string]*types.Var{},
	}
}

// add records pkg's functions, the methods in the method sets of its named
// types T and *T (promoted ones under the key of their declaration, as
// rules.Key computes it), the fields its structs declare, its constants.
func (u *universe) add(pkg *types.Package, from string) {
	if u.pkgs[pkg.Path()] {
		return
	}
	u.pkgs[pkg.Path()] = true
	u.real[pkg.Path()] = from == "real"
	addFunc := func(fn *types.Func) {
		k := rules.Key(fn)
		if !slices.Contains(u.funcs[k], fn) {
			u.funcs[k] = append(u.funcs[k], fn)
		}
		// A family key names a package of its own (client-go's typed
		// clients are keyed under k8s.io/client-go/kubernetes/typed):
		// the package declaring a member of the family provides it.
		if kp := keyPackage(refFunc, k); kp != pkg.Path() {
			u.keyPkgs[kp] = true
		}
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Func:
			addFunc(obj)
		case *types.Const:
			u.consts[pkg.Path()] = append(u.consts[pkg.Path()], obj)
		case *types.Var:
			u.vars[pkg.Path()+"."+name] = obj
		case *types.TypeName:
			if obj.IsAlias() {
				continue
			}
			tk := pkg.Path() + "." + name
			u.types[tk] = obj
			for _, t := range []types.Type{obj.Type(), types.NewPointer(obj.Type())} {
				ms := types.NewMethodSet(t)
				for i := range ms.Len() {
					if fn, ok := ms.At(i).Obj().(*types.Func); ok {
						addFunc(fn)
					}
				}
			}
			if st, ok := obj.Type().Underlying().(*types.Struct); ok {
				for f := range st.Fields() {
					u.fields[tk+"."+f.Name()] = f
					u.owner[f] = tk + "." + f.Name()
				}
			}
		}
	}
}

// usage is what the test cases use, by rule key.
type usage struct {
	u      *universe
	funcs  map[string]bool
	fields map[string]bool
	types  map[string]bool
	consts map[string]bool // constKey(package path, string value)
}

func newUsage(u *universe) *usage {
	return &usage{u: u, funcs: map[string]bool{}, fields: map[string]bool{}, types: map[string]bool{}, consts: map[string]bool{}}
}

func constKey(pkg, value string) string { return pkg + "\x00" + value }

func (us *usage) add(info *types.Info) {
	for _, obj := range info.Uses {
		switch obj := obj.(type) {
		case *types.Func:
			us.funcs[rules.Key(obj)] = true
		case *types.Var:
			if k, ok := us.u.owner[obj.Origin()]; ok {
				us.fields[k] = true
			}
		case *types.TypeName:
			if n, ok := types.Unalias(obj.Type()).(*types.Named); ok && n.Obj().Pkg() != nil {
				us.types[n.Obj().Pkg().Path()+"."+n.Obj().Name()] = true
			}
		case *types.Const:
			if obj.Pkg() != nil && obj.Val().Kind() == constant.String {
				us.consts[constKey(obj.Pkg().Path(), constant.StringVal(obj.Val()))] = true
			}
		}
	}
}

type ruleResult struct {
	problems, unused          []string
	resolved, real, usedRules int
}

// checkRules resolves refs in u and looks their uses up in used.
func checkRules(refs []ruleRef, u *universe, used *usage) ruleResult {
	var res ruleResult
	for _, r := range refs {
		where := r.table + ": " + r.key
		if r.kind == refConst {
			where = fmt.Sprintf("%s: %q", r.table, r.value)
		}
		key, ok := resolve(r, u)
		if !ok {
			res.problems = append(res.problems, where+": "+notFound(r, u))
			continue
		}
		res.resolved++
		if u.real[keyPackage(r.kind, key)] {
			res.real++
		}
		switch r.kind {
		case refFunc:
			for _, fn := range u.funcs[key] {
				sig := fn.Type().(*types.Signature)
				for _, a := range r.args {
					if msg := checkArg(sig, a); msg != "" {
						res.problems = append(res.problems, fmt.Sprintf("%s: %s (%s)", where, msg, fn.FullName()))
					}
				}
			}
		case refField:
			if r.field != nil {
				if msg := r.field(u.fields[key]); msg != "" {
					res.problems = append(res.problems, fmt.Sprintf("%s: field %s", where, msg))
				}
			}
		}
		if !r.use {
			continue
		}
		var isUsed bool
		switch r.kind {
		case refFunc:
			isUsed = used.funcs[key]
		case refField:
			isUsed = used.fields[key]
		case refType:
			isUsed = used.types[key]
		case refConst:
			isUsed = used.consts[constKey(key, r.value)]
		}
		if isUsed {
			res.usedRules++
		} else {
			res.unused = append(res.unused, where)
		}
	}
	slices.Sort(res.problems)
	res.problems = slices.Compact(res.problems)
	return res
}

// resolve returns the key (r.key or one of r.alts) that names a
// declaration in u.
func resolve(r ruleRef, u *universe) (string, bool) {
	for _, k := range append([]string{r.key}, r.alts...) {
		var ok bool
		switch r.kind {
		case refFunc:
			ok = len(u.funcs[k]) > 0
		case refField:
			ok = u.fields[k] != nil
		case refType:
			ok = u.types[k] != nil
		case refVar:
			ok = u.vars[k] != nil
		case refConst:
			ok = slices.ContainsFunc(u.consts[k], func(c *types.Const) bool {
				return c.Val().Kind() == constant.String && constant.StringVal(c.Val()) == r.value
			})
		}
		if ok {
			return k, true
		}
	}
	return "", false
}

func notFound(r ruleRef, u *universe) string {
	pkg := keyPackage(r.kind, r.key)
	src := "stub"
	if u.real[pkg] {
		src = "real module"
	}
	if !u.pkgs[pkg] && !u.keyPkgs[pkg] {
		return fmt.Sprintf("package %s is in neither the stubs nor testdata/realapi", pkg)
	}
	switch r.kind {
	case refFunc:
		return "no func or method with this key in the " + src + " package"
	case refField:
		return "no field of that struct in the " + src + " package"
	case refType:
		return "no named type with this name in the " + src + " package"
	case refVar:
		return "no package-level variable with this name in the " + src + " package"
	}
	return fmt.Sprintf("no constant %q in the %s package", r.value, src)
}

// checkArg reports what is wrong with argument index a of sig.
func checkArg(sig *types.Signature, a argRef) string {
	ps := sig.Params()
	switch a.want {
	case argUnread:
		if a.idx > 0 {
			return fmt.Sprintf("%s %d is set but not read for this kind", a.name, a.idx)
		}
		return ""
	case argOptional:
		if a.idx == -1 {
			return ""
		}
	}
	if a.idx < 0 || a.idx >= ps.Len() {
		return fmt.Sprintf("%s %d is out of range of %d parameters", a.name, a.idx, ps.Len())
	}
	p := ps.At(a.idx)
	t := p.Type()
	var ok bool
	switch a.want {
	case argAny, argOptional:
		ok = true
	case argString:
		if s, isSlice := t.(*types.Slice); isSlice && sig.Variadic() && a.idx == ps.Len()-1 {
			t = s.Elem() // keys ...string: DEL's keys
		}
		b, isBasic := t.Underlying().(*types.Basic)
		ok = isBasic && b.Info()&types.IsString != 0
	case argInt:
		b, isBasic := t.Underlying().(*types.Basic)
		ok = isBasic && b.Info()&types.IsInteger != 0
	case argPtrStruct:
		if ptr, isPtr := t.Underlying().(*types.Pointer); isPtr {
			_, isNamed := types.Unalias(ptr.Elem()).(*types.Named)
			_, isStruct := ptr.Elem().Underlying().(*types.Struct)
			ok = isNamed && isStruct
		}
	case argSlice:
		_, ok = t.Underlying().(*types.Slice)
	case argStmt:
		ok = typeString(t) == "*database/sql.Stmt"
	case argFunc:
		_, ok = t.Underlying().(*types.Signature)
	}
	if ok {
		return ""
	}
	return fmt.Sprintf("%s %d is %s %s, want %s", a.name, a.idx, p.Name(), typeString(p.Type()), argKindNames[a.want])
}

// casePaths returns the import paths of the test case packages under src:
// the packages below a top-level directory whose name has no dot.
func casePaths(t testing.TB, src string) []string {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range entries {
		if !e.IsDir() || strings.Contains(e.Name(), ".") {
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

// unexercised are the rules no test case can use, each with the reason.
// TestRuleKeysResolve fails when any other rule has no use, and when one
// of these has one.
var unexercised = map[string]string{
	"crypto/rand Tokens: crypto/rand.Read": "its results are a byte count and an error; the random bytes it " +
		"writes into its argument are not traced, so the rule cannot fire",
	"rules.AzureClientCtors: (*github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container.Client).NewAppendBlobClient": "no append blob method is a write rule, so the name of an append blob client is never read",
	"rules.AzureClientCtors: (*github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container.Client).NewPageBlobClient":   "no page blob method is a write rule, so the name of a page blob client is never read",
}
