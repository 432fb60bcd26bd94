package analyzer_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzer"
	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/analysis/analysistest"
)

// vstore is a library declared the way a rules/ file declares one, and
// nowhere else: no engine code, analyzer or table names it. Its lock is a
// lease with an ordered Epoch and a random Nonce; its write is a statement
// with bound arguments (the text mechanism) whose rejection is observed
// as a count method, Applied() == 0, that no other library has.
const vstorePath = "example.org/vstore"

var vstore = rules.Lib{
	Name:  "vstore",
	Paths: []string{vstorePath},
	Acquires: []rules.Acquire{
		{Func: "(*" + vstorePath + ".Client).Lock", Success: rules.ErrNil, Lock: "vstore lock", KeyArg: -1, LockResult: true, Token: ".Epoch()"},
	},
	Releases: []string{"(*" + vstorePath + ".Lease).Release"},
	Tokens: []rules.Token{
		{Func: "(*" + vstorePath + ".Lease).Epoch", Desc: "the lease's Epoch()"},
		{Func: "(*" + vstorePath + ".Lease).Nonce", Desc: "the lease's Nonce()", Weak: rules.WeakRandom, Issuer: "vstore locks",
			Why: "Nonce() is random, not ordered across grants"},
	},
	Writes: []rules.Write{
		{Func: "(*" + vstorePath + ".Session).Apply", Kind: rules.SQLWrite, Store: "vstore", QueryArg: 1, ArgsFrom: 2, KeyArg: -1,
			Outcome: rules.Outcome{Kind: rules.RejectRowsAffected, Name: "0 applied", Method: "Applied"}},
	},
	LockTypes:  []string{vstorePath + ".Lease"},
	LockTokens: map[string]string{vstorePath + ".Lease": ".Epoch()"},
}

// kvs is the example of docs/adding-a-library.md, as written there: a
// version compare-and-set whose rejection is a sentinel error, and a blind
// delete.
const kvsPath = "example.org/kvs"

var kvs = rules.Lib{
	Name:  "kvs",
	Paths: []string{kvsPath},
	Acquires: []rules.Acquire{
		{Func: "(*" + kvsPath + ".Client).Lock", Success: rules.ErrNil, Lock: "kvs lock",
			KeyArg: -1, LockResult: true, Token: ".Epoch()"},
	},
	Releases: []string{"(*" + kvsPath + ".Lease).Release"},
	Renews:   []string{"(*" + kvsPath + ".Lease).KeepAlive"},
	Tokens: []rules.Token{
		{Func: "(*" + kvsPath + ".Lease).Epoch", Desc: "the lease's Epoch()"},
		{Func: "(*" + kvsPath + ".Lease).ID", Desc: "the lease's ID()", Weak: rules.WeakRandom,
			Issuer: "kvs", Why: "a lease ID is random, not ordered across grants"},
	},
	Writes: []rules.Write{
		{Func: "(*" + kvsPath + ".Client).Put", Kind: rules.ZKVersioned, Store: "kvs", KeyArg: 1, VersionArg: 3,
			Outcome: rules.Outcome{Kind: rules.RejectError, Name: "kvs.ErrConflict", Sentinels: []string{kvsPath + ".ErrConflict"}}},
		{Func: "(*" + kvsPath + ".Client).Delete", Kind: rules.KVBlind, Store: "kvs", KeyArg: 1, Outcome: rules.NoOutcome},
	},
	LockTypes:  []string{kvsPath + ".Lease"},
	LockTokens: map[string]string{kvsPath + ".Lease": ".Epoch()"},
	Reads:      []string{"(*" + kvsPath + ".Client).Get"},
}

func init() {
	rules.Register(&vstore)
	rules.Register(&kvs)
}

// TestVersionedLibrary: the example library of docs/adding-a-library.md
// (a version compare-and-set and a blind delete) is judged by the
// analyzers that apply to those mechanisms, and silentreject tells its
// declared sentinel apart.
func TestVersionedLibrary(t *testing.T) {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range analyzer.Analyzers() {
		switch a.Name {
		case "unfencedwrite", "silentreject", "appcheck":
			t.Run(a.Name, func(t *testing.T) { analysistest.Run(t, dir, a, "newlib/kvs/"+a.Name) })
		}
	}
}

// TestNewLibraryIsJudgedByAllAnalyzers adds a library in one rules-style
// declaration (vstore above, with its stub in
// analyzer/testdata/src/example.org/vstore) and checks that every one of
// the six analyzers reports its defect on that library's writes, each
// with a good twin that it leaves alone (analyzer/testdata/src/newlib/NAME).
func TestNewLibraryIsJudgedByAllAnalyzers(t *testing.T) {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range analyzer.Analyzers() {
		t.Run(a.Name, func(t *testing.T) {
			res := analysistest.Run(t, dir, a, "newlib/"+a.Name)
			n := 0
			for _, r := range res {
				n += len(r.Diagnostics)
			}
			if n == 0 {
				t.Errorf("%s reported nothing on the new library", a.Name)
			}
		})
	}
}

// TestAnalyzersAreStoreAgnostic: an analyzer covers every write kind
// because it decides nothing about stores: it reads the engine's defects
// and formats them. So none imports rules/, SSA or the condition readers,
// and none compares a write's Store (or any other model string) with a
// literal: a new library then needs no analyzer change.
func TestAnalyzersAreStoreAgnostic(t *testing.T) {
	forbidden := []string{
		"github.com/fencelint/fencelint/rules",
		"golang.org/x/tools/go/ssa",
		"github.com/fencelint/fencelint/analyzer/internal/sqlcond",
		"github.com/fencelint/fencelint/analyzer/internal/ddbcond",
	}
	for _, a := range analyzer.Analyzers() {
		files, err := filepath.Glob(filepath.Join(a.Name, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no sources (%v)", a.Name, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range file.Imports {
				if p, _ := strconv.Unquote(im.Path.Value); slices.Contains(forbidden, p) {
					t.Errorf("%s imports %s: analyzers read the model only", f, p)
				}
			}
			ast.Inspect(file, func(n ast.Node) bool {
				be, ok := n.(*ast.BinaryExpr)
				if !ok || (be.Op != token.EQL && be.Op != token.NEQ) {
					return true
				}
				for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
					sel, ok := pair[0].(*ast.SelectorExpr)
					lit, isLit := pair[1].(*ast.BasicLit)
					if ok && isLit && lit.Kind == token.STRING && sel.Sel.Name == "Store" {
						t.Errorf("%s: compares .Store with %s: word the message from the model instead", fset.Position(be.Pos()), lit.Value)
					}
				}
				return true
			})
		}
	}
}
