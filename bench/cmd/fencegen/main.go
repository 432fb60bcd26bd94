//go:build fencelintbench

// Command fencegen writes the synthetic lock-heavy benchmark module
// (see package bench/gen).
//
//	fencegen -n 10000 -o /tmp/gen10k
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/fencelint/fencelint/bench/gen"
)

func main() {
	var c gen.Config
	out := flag.String("o", "", "output directory (required)")
	flag.IntVar(&c.N, "n", 1000, "number of functions")
	flag.IntVar(&c.PerPkg, "per-pkg", 500, "functions per package")
	flag.IntVar(&c.PerFile, "per-file", 100, "functions per file")
	flag.IntVar(&c.GiantOps, "giant", 0, "also write giant/ with one function of this many writes (budget test)")
	flag.Parse()
	if *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	pkgs, err := gen.Write(*out, c)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fencegen:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %d functions in %d packages to %s (expect %d unfenced writes)\n", c.N, len(pkgs), *out, gen.Unfenced(c.N))
}
