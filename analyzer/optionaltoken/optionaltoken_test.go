package optionaltoken_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzer/internal/fencetest"
	"github.com/fencelint/fencelint/analyzer/optionaltoken"
	"golang.org/x/tools/go/analysis/analysistest"
)

func Test(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), optionaltoken.Analyzer, "optionaltoken/...")
}
