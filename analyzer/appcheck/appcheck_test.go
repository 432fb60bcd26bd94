package appcheck_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzer/appcheck"
	"github.com/fencelint/fencelint/analyzer/internal/fencetest"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestAppCheck(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), appcheck.Analyzer, "appcheck/...")
}

// TestNotGuards: an error check after a fenced write and a zero-token test
// are not Go-side fence checks; the writes after them are unfencedwrite's
// (its // want comments in that package are not appcheck's to match).
func TestNotGuards(t *testing.T) {
	results := analysistest.Run(ignoreWants{}, fencetest.TestData(t), appcheck.Analyzer, "unfencedwrite/guards")
	for _, r := range results {
		for _, d := range r.Diagnostics {
			t.Errorf("appcheck reported %v: %s", r.Pass.Fset.Position(d.Pos), d.Message)
		}
	}
}

type ignoreWants struct{}

func (ignoreWants) Errorf(string, ...any) {}

// TestCassandraMongo: fences read and compared in Go before a Cassandra
// or MongoDB write.
func TestCassandraMongo(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), appcheck.Analyzer, "appcheck/cqlmongo")
}
