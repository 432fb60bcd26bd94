// Package die ends the process; it has nothing lock-related, so the
// engine's fast path skips it, but its no-return facts still reach the
// packages that call it.
package die

import (
	"fmt"
	"os"
)

// Now prints and exits.
func Now(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}

// Unless exits only on a non-nil error: it returns otherwise.
func Unless(err error) {
	if err != nil {
		os.Exit(1)
	}
}
