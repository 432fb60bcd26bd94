// Package analyzer lists fencelint's analyzers in their contract order.
package analyzer

import (
	"github.com/fencelint/fencelint/analyzer/appcheck"
	"github.com/fencelint/fencelint/analyzer/fencepredicate"
	"github.com/fencelint/fencelint/analyzer/optionaltoken"
	"github.com/fencelint/fencelint/analyzer/silentreject"
	"github.com/fencelint/fencelint/analyzer/unfencedwrite"
	"github.com/fencelint/fencelint/analyzer/weaktoken"
	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/analysis/lint"
)

// All is every fencelint analyzer with its documentation, in contract order.
var All = []*lint.Analyzer{
	unfencedwrite.Lint,
	optionaltoken.Lint,
	appcheck.Lint,
	weaktoken.Lint,
	fencepredicate.Lint,
	silentreject.Lint,
}

// Analyzers returns the bare analyzers for drivers that take
// *analysis.Analyzer (fencelint's go vet driver, golangci-lint, nogo).
func Analyzers() []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(All))
	for i, a := range All {
		out[i] = a.Analyzer
	}
	return out
}
