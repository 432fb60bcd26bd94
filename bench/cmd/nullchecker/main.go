//go:build fencelintbench

// Command nullchecker is the x/tools checker-driver floor: multichecker
// (golang.org/x/tools/go/analysis/multichecker, i.e. go/packages +
// go/analysis/checker) running only the fact-declaring no-op analyzer.
//
//	nullchecker ./...
package main

import (
	"github.com/fencelint/fencelint/bench/internal/null"
	"golang.org/x/tools/go/analysis/multichecker"
)

func main() { multichecker.Main(null.NullFacts) }
