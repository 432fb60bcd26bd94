//go:build fencelintbench

// Command fencechecker runs fencelint's analyzers through the x/tools
// checker driver (multichecker) instead of lintcmd, to compare the two
// drivers' cost on the same analyzers.
//
//	fencechecker ./...
package main

import (
	"github.com/fencelint/fencelint/analyzer"
	"golang.org/x/tools/go/analysis/multichecker"
)

func main() { multichecker.Main(analyzer.Analyzers()...) }
