// Package lintutil declares fencelint analyzers the way staticcheck declares
// its checks: a go/analysis Analyzer plus structured documentation.
package lintutil

import "honnef.co/go/tools/analysis/lint"

// ReadmeURL is where every analyzer's documentation lives; each analyzer's
// URL points at its own page under docs/.
const ReadmeURL = "https://github.com/fencelint/fencelint/blob/main/docs/"

// Init compiles a's documentation (lint.InitializeAnalyzer, which also adds
// the tokenfile analyzer that staticcheck's report helpers need) and then
// replaces the staticcheck.dev URL it sets with fencelint's own page.
func Init(a *lint.Analyzer) *lint.Analyzer {
	lint.InitializeAnalyzer(a)
	a.Analyzer.URL = ReadmeURL + a.Analyzer.Name + ".md"
	return a
}

// Names are the contract names of fencelint's analyzers, in contract
// order. Ignore directives are checked against them.
var Names = []string{"unfencedwrite", "optionaltoken", "appcheck", "weaktoken", "fencepredicate", "silentreject"}
