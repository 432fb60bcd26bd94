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
