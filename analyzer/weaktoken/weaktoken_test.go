package weaktoken_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzer/internal/fencetest"
	"github.com/fencelint/fencelint/analyzer/weaktoken"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestBasic(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), weaktoken.Analyzer, "weaktoken/basic", "weaktoken/declared")
}
