//go:build fencelintbench

// Command nofacts is the no-facts floor under go vet: unitchecker with one
// analyzer that does nothing and declares no fact type.
//
//	go vet -vettool=$(command -v nofacts) ./...
package main

import (
	"github.com/fencelint/fencelint/bench/internal/null"
	"golang.org/x/tools/go/analysis/unitchecker"
)

func main() { unitchecker.Main(null.NoFacts) }
