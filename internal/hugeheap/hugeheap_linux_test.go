package hugeheap

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// anonHugeKB is the process's anonymous memory backed by huge pages.
func anonHugeKB(t *testing.T) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps_rollup")
	if err != nil {
		t.Skipf("no smaps_rollup: %v", err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "AnonHugePages:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				t.Fatalf("bad smaps_rollup line %q", s.Text())
			}
			return kb
		}
	}
	t.Fatal("no AnonHugePages in smaps_rollup")
	return 0
}

// TestReserve: after Reserve, the heap the process goes on to allocate is
// backed by huge pages, where without it (THP "madvise", nothing
// advised) none is.
func TestReserve(t *testing.T) {
	if !wanted() {
		t.Skip("THP is not in madvise mode here, or overcommit is strict: Reserve does nothing by design")
	}
	before := anonHugeKB(t)
	if !Reserve(256 << 20) {
		t.Fatal("Reserve did not advise the heap")
	}
	// Allocate and touch 64 MiB in small objects, as an analysis does.
	var keep [][]byte
	for range 64 << 10 {
		b := make([]byte, 1000)
		b[0], b[len(b)-1] = 1, 1
		keep = append(keep, b)
	}
	after := anonHugeKB(t)
	if after-before < 16<<10 {
		t.Errorf("AnonHugePages grew by %d kB after 64 MiB of allocations, want at least 16 MiB", after-before)
	}
	_ = keep
}

func TestReserveOff(t *testing.T) {
	t.Setenv(Env, "0")
	if Reserve(256 << 20) {
		t.Error("Reserve advised the heap with " + Env + "=0")
	}
}
