package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// minHeapGoal is the heap size below which the CLI does not collect
// garbage. Go's default (GOGC=100) collects whenever the heap doubles,
// however small it is. One fencelint process lints every package: it
// loads a package's syntax and types, builds its SSA, and drops them when
// the package is done, so the live heap moves between 10 and 35 MB and the
// default collects every 10-35 MB allocated (54 collections on the gen10k
// benchmark, where GC is 13% of the CPU). Starting no collection below
// minHeapGoal cuts that to 25 collections without raising the peak much:
// the default already peaks at 65-70 MB of heap on such code, and the load
// floor (lintcmd with a no-op analyzer, default GC) peaks at about the
// same RSS (docs/performance.md, run 10). Once half of minHeapGoal is live
// data the default applies unchanged, so large codebases collect exactly
// as before.
const minHeapGoal = 48 << 20

// tuneGC keeps the GC's heap goal at or above minHeapGoal: after every
// collection it sets GOGC so that the next one starts at minHeapGoal, and
// never below Go's default of 100. A user's GOGC or GOMEMLIMIT wins.
//
// A goroutine polls the collection count every few milliseconds rather
// than hanging on a finalizer or cleanup: those run when the sweeper
// reaches their object, which can be late in the next cycle, and a
// GOGC set for a small live heap that stays in force after the live heap
// has grown lets the heap overshoot (measured: 99 MB against a 48 MB goal).
func tuneGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	samples := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/gc/scan/stack:bytes"},
		{Name: "/gc/scan/globals:bytes"},
		{Name: "/gc/cycles/total:gc-cycles"},
	}
	adjust := func() uint64 {
		metrics.Read(samples)
		var base uint64 // what GOGC is a percentage of
		for _, s := range samples[:3] {
			if s.Value.Kind() == metrics.KindUint64 {
				base += s.Value.Uint64()
			}
		}
		debug.SetGCPercent(gcPercentFor(samples[0].Value.Uint64(), base))
		if samples[3].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return samples[3].Value.Uint64()
	}
	cycles := adjust()
	go func() {
		for range time.Tick(5 * time.Millisecond) {
			metrics.Read(samples[3:])
			if n := samples[3].Value.Uint64(); n != cycles {
				cycles = adjust()
			}
		}
	}()
}

// gcPercentFor returns the GOGC that puts the next heap goal at
// minHeapGoal given live heap bytes and base, the live heap plus the
// stacks and globals GOGC also scales. It never returns less than 100 (Go's
// default) nor more than the value at which the runtime's own minimum heap
// (4 MB x GOGC/100) would exceed minHeapGoal.
func gcPercentFor(live, base uint64) int {
	const maxPercent = 100 * minHeapGoal / (4 << 20)
	if base == 0 || live >= minHeapGoal/2 {
		return 100
	}
	pct := 100 * (minHeapGoal - live) / base
	return int(min(max(pct, 100), maxPercent))
}
