package optionaltoken_test

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/fencelint/fencelint/analyzer/optionaltoken"
	"golang.org/x/tools/go/analysis/analysistest"
)

func testdata() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata")
}

func Test(t *testing.T) {
	analysistest.Run(t, testdata(), optionaltoken.Analyzer, "optionaltoken/...")
}
