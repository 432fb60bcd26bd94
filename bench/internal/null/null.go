// Package null holds the do-nothing analyzer that is fencelint's
// performance floor: it declares a fact type, so every driver loads and
// type-checks the whole dependency graph from source and runs it on every
// package, exactly as it does for fencelint's engine, but it does no work.
package null

import "golang.org/x/tools/go/analysis"

type dummyFact struct{}

func (*dummyFact) AFact()         {}
func (*dummyFact) String() string { return "dummy" }

// NullFacts does nothing but declare a fact type (never exported).
var NullFacts = &analysis.Analyzer{
	Name:      "nullfacts",
	Doc:       "does nothing but declares a fact type (performance floor)",
	FactTypes: []analysis.Fact{new(dummyFact)},
	Run:       func(*analysis.Pass) (any, error) { return nil, nil },
}

// NoFacts does nothing and declares no fact type: the no-facts floor.
// Drivers that can take dependencies from export data (go/packages
// checkers) then type-check only the packages named on the command line;
// unitchecker under go vet still type-checks every package from source.
var NoFacts = &analysis.Analyzer{
	Name: "nofacts",
	Doc:  "does nothing and declares no fact type (the no-facts floor)",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}
