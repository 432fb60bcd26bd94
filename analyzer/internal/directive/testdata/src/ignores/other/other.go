// Package other runs an analyzer that is not first in contract order
// (silentreject): it reports only the ignores naming itself, and leaves
// syntax errors and unknown names to the first analyzer.
package other

func write()           {}
func discard(any) bool { return false }

func f() {
	discard(nil) //fencelint:ignore silentreject the result is logged elsewhere

	discard(nil) // want `result of discard is dropped`

	//fencelint:ignore silentreject stale // want `//fencelint:ignore silentreject matched no silentreject finding; remove it`
	write()

	// Not this analyzer's ignore: unfencedwrite reports it if unused.
	//fencelint:ignore unfencedwrite not this analyzer
	write()

	// Unknown names and directives are the first analyzer's to report.
	//fencelint:ignore nosuch reason
	write()
}

//fencelint:acquier
func lock() {}
