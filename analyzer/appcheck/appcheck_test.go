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
