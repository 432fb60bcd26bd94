//go:build fencelintbench

// Command nofacts is the no-facts floor: one analyzer that does nothing
// and declares no fact type. Under go vet it is unitchecker (which still
// type-checks every package from source); standalone it is the x/tools
// checker driver (singlechecker), which then loads the dependencies from
// export data and type-checks only the packages named on the command line.
//
//	go vet -vettool=$(command -v nofacts) ./...
//	nofacts ./...
package main

import (
	"os"
	"strings"

	"github.com/fencelint/fencelint/bench/internal/null"
	"golang.org/x/tools/go/analysis/singlechecker"
	"golang.org/x/tools/go/analysis/unitchecker"
)

func main() {
	if vetProtocol(os.Args[1:]) {
		unitchecker.Main(null.NoFacts) // does not return
	}
	singlechecker.Main(null.NoFacts)
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
