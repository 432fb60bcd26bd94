// Package basic exercises //fencelint:ignore as seen by the analyzer that
// is first in contract order (unfencedwrite), which also reports directive
// syntax errors and unknown analyzer names.
package basic

func write()           {}
func read()            {}
func discard(any) bool { return false }

func sameLine() {
	write() //fencelint:ignore unfencedwrite the row lock fences this write
}

func nextLine() {
	//fencelint:ignore unfencedwrite the caller passes a fenced client
	write()
}

func unsuppressed() {
	write() // want `call to write is not fenced`
}

func twoLinesBelow() {
	//fencelint:ignore unfencedwrite covers one line only // want `//fencelint:ignore unfencedwrite matched no unfencedwrite finding; remove it`
	read()
	write() // want `call to write is not fenced`
}

func noReason() {
	// want +1 `//fencelint:ignore unfencedwrite needs a reason`
	//fencelint:ignore unfencedwrite
	write()
}

func noReasonUnused() {
	// want +1 `needs a reason` `matched no unfencedwrite finding`
	//fencelint:ignore unfencedwrite
	read()
}

func otherAnalyzer() {
	//fencelint:ignore silentreject the error is checked by the caller
	write() // want `call to write is not fenced`
}

func listed() {
	write() //fencelint:ignore silentreject,unfencedwrite both rules are handled upstream
}

// A trailing ignore also covers the line after it, as documented.
func trailingCoversNext() {
	write() //fencelint:ignore unfencedwrite both calls go through the fenced client
	write()
}

func overlapping() {
	//fencelint:ignore unfencedwrite outer reason
	write() //fencelint:ignore unfencedwrite inner reason
}

func unknownAnalyzer() {
	write() //fencelint:ignore unfencedwrit typo // want `call to write is not fenced` `//fencelint:ignore names unknown analyzer unfencedwrit; did you mean unfencedwrite\?`
}

func notADirective() {
	write() // fencelint:ignore unfencedwrite a space makes this prose // want `call to write is not fenced`
	write() /* fencelint:ignore unfencedwrite block comments do not count */ // want `call to write is not fenced`
}

//fencelint:acquier // want `unknown directive //fencelint:acquier; did you mean //fencelint:acquire\?`
func lock() {}

//fencelint:release now // want `//fencelint:release takes no arguments`
func unlock() {}

//fencelint:write fence // want `//fencelint:write: unknown argument "fence"; want token=PARAM`
func store(fence int64) {}

func malformed() {
	//fencelint: acquire // want `malformed directive //fencelint: acquire`

	// want +1 `//fencelint:ignore needs an analyzer name and a reason`
	//fencelint:ignore
	write() // want `call to write is not fenced`
}

//fencelint:ignore ,x reason // want `//fencelint:ignore: ",x" is not an analyzer name`
func badList() {}

//fencelint:write token=fence
func store2(fence int64) {}

//fencelint:acquire
func lock3() {}
