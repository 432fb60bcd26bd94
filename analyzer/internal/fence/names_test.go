package fence

import (
	"fmt"
	"go/token"
	"testing"
)

// TestIsReaderName: lookups of a lease (GetLease, loadLease) are not
// acquires; names that merely start with the same letters are.
func TestIsReaderName(t *testing.T) {
	for name, want := range map[string]bool{
		"GetLease": true, "getLease": true, "LoadLock": true, "fetchToken": true,
		"Current": true, "inspect": true,
		"Acquire": false, "Lock": false, "Grant": false, "gain": false,
		"Lister": true, "": false, "G": false, "x": false,
	} {
		if got := isReaderName(name); got != want {
			t.Errorf("isReaderName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestPosIndex: lookups find what was added in any order, and nothing else.
func TestPosIndex(t *testing.T) {
	var x posIndex[string]
	for _, p := range []int{10, 30, 20, 5, 40} {
		x.add(token.Pos(p), fmt.Sprint("n", p))
	}
	x.seal()
	for _, p := range []int{5, 10, 20, 30, 40} {
		if n, ok := x.at(token.Pos(p)); !ok || n != fmt.Sprint("n", p) {
			t.Errorf("at(%d) = %q, %v", p, n, ok)
		}
	}
	for _, p := range []int{0, 6, 25, 41} {
		if n, ok := x.at(token.Pos(p)); ok || x.get(token.Pos(p)) != "" {
			t.Errorf("at(%d) = %q, found", p, n)
		}
	}
}
