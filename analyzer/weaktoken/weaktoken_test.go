package weaktoken_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzer/internal/fencetest"
	"github.com/fencelint/fencelint/analyzer/weaktoken"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestBasic(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), weaktoken.Analyzer, "weaktoken/basic", "weaktoken/declared", "weaktoken/k8srv")
}

// TestDirectiveWrites: a //fencelint:write without token= never takes a
// clock or a random value for the token, and helpers that fence with one
// tell their callers, in the package and through facts (issue 18).
func TestDirectiveWrites(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), weaktoken.Analyzer, "weaktoken/dirwrite", "weaktoken/dirwrite/app")
}

// TestCassandraMongo: clocks in a CQL IF and a MongoDB filter.
func TestCassandraMongo(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), weaktoken.Analyzer, "weaktoken/cqlmongo")
}

// TestLeaseTables: clock, random and UUID tokens minted by the
// application around SQL lease tables, in and outside lock scopes.
func TestLeaseTables(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), weaktoken.Analyzer, "weaktoken/leasetable")
}
