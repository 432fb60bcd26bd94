package analyzer_test

import (
	"path/filepath"
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

func init() { rules.Register(&vstore) }

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
