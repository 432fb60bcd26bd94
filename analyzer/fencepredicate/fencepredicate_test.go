package fencepredicate_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzer/fencepredicate"
	"github.com/fencelint/fencelint/analyzer/internal/fencetest"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestBasic(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), fencepredicate.Analyzer, "fencepredicate/basic")
}

func TestDynamo(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), fencepredicate.Analyzer, "fencepredicate/dynamo")
}

func TestFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fencetest.TestData(t), fencepredicate.Analyzer, "fencepredicate/fix")
}

// TestGorm: conditions rebuilt from gorm chains.
func TestGorm(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), fencepredicate.Analyzer, "fencepredicate/gormpred")
}

// TestCassandraMongo: CQL IF clauses and MongoDB filters.
func TestCassandraMongo(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), fencepredicate.Analyzer, "fencepredicate/cqlmongo")
}
