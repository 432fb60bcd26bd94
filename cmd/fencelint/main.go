package main

import (
	"os"
	"strings"

	"github.com/fencelint/fencelint/analyzer"
)

func main() {
	args := os.Args[1:]
	if vetProtocol(args) {
		if last := args[len(args)-1]; strings.HasSuffix(last, ".cfg") {
			vetCgoSkipped(os.Stderr, last)
		}
		analyzer.VetMain() // does not return
	}
	tuneGC() // one process lints every package: fewer, larger collections
	os.Exit(standalone(args))
}

// vetProtocol reports whether go vet is driving us as its -vettool. go vet
// asks for the tool's flags (-flags), its identity for result caching
// (-V=full), and then runs it once per package with a JSON config file as
// the last argument (see cmd/go/internal/work.vetConfig).
func vetProtocol(args []string) bool {
	for _, a := range args {
		if a == "-flags" || a == "--flags" || strings.HasPrefix(a, "-V=") || strings.HasPrefix(a, "--V=") {
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}
