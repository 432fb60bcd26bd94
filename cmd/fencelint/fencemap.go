package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/fencelint/fencelint/analyzer/fencemap"
)

// fenceMap prints the fence map (or, with blindOnly, only its blind spots)
// of patterns in format, and returns the exit status: 0 when it was
// written, 2 when packages did not load or the format is unknown. The map
// is CLI-only: under go vet each package is a separate process and there
// is no place to write one report for the whole pattern (docs/fencemap.md).
func fenceMap(format string, blindOnly bool, patterns []string) int {
	if format == "" {
		format = "md"
	}
	if !validFormat(format) {
		fmt.Fprintf(os.Stderr, "fencelint: unknown -fencemap format %q (want json, md, dot or mermaid)\n", format)
		return exitFailure
	}
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fencelint:", err)
		return exitFailure
	}
	m, err := fencemap.Load(dir, nil, patterns)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fencelint:", err)
		if errors.Is(err, fencemap.ErrLoad) {
			return exitFailure
		}
		return exitFailure
	}
	for _, e := range m.Errors {
		fmt.Fprintln(os.Stderr, "fencelint: could not judge", e)
	}
	if err := fencemap.Render(os.Stdout, m, format, blindOnly); err != nil {
		fmt.Fprintln(os.Stderr, "fencelint:", err)
		return exitFailure
	}
	return exitClean
}

func validFormat(f string) bool {
	for _, x := range fencemap.Formats {
		if x == f {
			return true
		}
	}
	return false
}
