package silentreject_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzer/internal/fencetest"
	"github.com/fencelint/fencelint/analyzer/silentreject"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestSQL(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), silentreject.Analyzer, "silentreject/sql")
}

func TestStores(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), silentreject.Analyzer, "silentreject/stores")
}

func TestGorm(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), silentreject.Analyzer, "silentreject/gormout")
}

// TestNoReturn: a rejection branch that calls a function that never
// returns (log.Fatalf, t.Fatalf, a local or imported wrapper) is not a
// retry; one that can return is.
func TestNoReturn(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), silentreject.Analyzer, "silentreject/noret/...")
}

// TestMore: ZooKeeper Multi, Azure Blob and Redis script outcomes.
func TestMore(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), silentreject.Analyzer, "silentreject/more")
}
