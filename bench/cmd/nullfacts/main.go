//go:build fencelintbench

// Command nullfacts is fencelint's load floor: a binary built exactly like
// cmd/fencelint (honnef.co/go/tools/lintcmd standalone, unitchecker under
// go vet) whose only analyzer declares a fact type and does nothing.
//
//	nullfacts -f json ./...
//	go vet -vettool=$(command -v nullfacts) ./...
package main

import (
	"os"
	"strings"

	"github.com/fencelint/fencelint/bench/internal/null"
	"golang.org/x/tools/go/analysis/unitchecker"
	"honnef.co/go/tools/lintcmd"
)

func main() {
	args := os.Args[1:]
	if vetProtocol(args) {
		unitchecker.Main(null.NullFacts) // does not return
	}
	cmd := lintcmd.NewCommand("nullfacts")
	cmd.SetVersion("devel", "devel")
	cmd.AddBareAnalyzers(null.NullFacts)
	cmd.ParseFlags(args)
	cmd.Run()
}

// vetProtocol is cmd/fencelint's test for being go vet's -vettool.
func vetProtocol(args []string) bool {
	for _, a := range args {
		if a == "-flags" || a == "--flags" || strings.HasPrefix(a, "-V=") || strings.HasPrefix(a, "--V=") {
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}
