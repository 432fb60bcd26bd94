// Package analyzer lists fencelint's analyzers in their contract order.
package analyzer

import (
	"github.com/fencelint/fencelint/analyzer/appcheck"
	"github.com/fencelint/fencelint/analyzer/fencepredicate"
	"github.com/fencelint/fencelint/analyzer/internal/directive"
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

// Names returns the analyzers' names in contract order.
func Names() []string {
	out := make([]string, len(All))
	for i, a := range All {
		out[i] = a.Analyzer.Name
	}
	return out
}

// Suggest returns the analyzer name closest to a misspelt one (at most two
// edits away, ignoring case), or "" when none is that close.
func Suggest(name string) string { return directive.Closest(name, Names()) }

// UnknownIgnores returns the findings on //fencelint:ignore directives of
// pass's files that name no fencelint analyzer. The first analyzer of All
// reports them itself; a driver that may leave it out (the standalone CLI
// with -checks) reports these from the other analyzers and keeps one of
// each.
func UnknownIgnores(pass *analysis.Pass) []analysis.Diagnostic {
	if !directive.HasAny(pass.Files) {
		return nil // fast path: no //fencelint: comment at all
	}
	return directive.CollectIgnores(pass).UnknownNames(Names())
}

// UnknownIgnoreMessage starts the message of the finding reported on a
// //fencelint:ignore that names no analyzer.
const UnknownIgnoreMessage = directive.UnknownAnalyzerPrefix
