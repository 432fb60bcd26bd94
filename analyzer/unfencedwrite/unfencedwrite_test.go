package unfencedwrite_test

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/fencelint/fencelint/analyzer/unfencedwrite"
	"golang.org/x/tools/go/analysis/analysistest"
)

func testdata() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata")
}

func TestLease(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/lease")
}

func TestCrossPackage(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/crosspkg/app")
}

func TestLibraries(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/libs", "unfencedwrite/gocronlocal")
}

func TestRobust(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/robust")
}

// TestFunctionFilter: findings that depend on functions the engine's
// per-function SSA filter must keep (helpers, callbacks, token parameters).
func TestFunctionFilter(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/filter")
}

// TestAdvisoryLocks: PostgreSQL advisory locks taken with SQL.
func TestAdvisoryLocks(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/advisory")
}

// TestGorm: gorm chains, Save, Create and Exec.
func TestGorm(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/gormlib")
}

// TestGuards: checks in Go that guard nothing (an error check after a
// fenced write, a zero-token test) leave the next write unfencedwrite's.
func TestGuards(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/guards")
}
