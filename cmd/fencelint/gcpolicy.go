package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// minHeapGoal is the heap size below which the CLI does not collect
// garbage, and the most it lets the heap grow past the live data before
// the next collection while the heap stays under the largest goal it has
// already had (heapGoal).
//
// Go's default (GOGC=100) collects whenever the heap doubles, however
// small it is. One fencelint process lints every package: it loads a
// package's syntax and types, builds its SSA, and drops them when the
// package is done, so the live heap moves between 10 and 45 MB and the
// default collects every 10-45 MB allocated (54 collections on the gen10k
// benchmark, where GC was 13% of the CPU; 263 on gen100k, 17%). Starting
// no collection below minHeapGoal cut gen10k to 25 collections without
// raising the peak much (docs/performance.md, run 10).
const minHeapGoal = 48 << 20

// tuneGC sets GOGC after every collection so that the next one starts at
// heapGoal's goal. A user's GOGC or GOMEMLIMIT wins.
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
	var highest uint64 // the largest goal set so far
	adjust := func() uint64 {
		metrics.Read(samples)
		var base uint64 // what GOGC is a percentage of
		for _, s := range samples[:3] {
			if s.Value.Kind() == metrics.KindUint64 {
				base += s.Value.Uint64()
			}
		}
		live := samples[0].Value.Uint64()
		pct := gcPercentFor(live, base, heapGoal(live, highest))
		highest = max(highest, live+base*uint64(pct)/100)
		debug.SetGCPercent(pct)
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

// heapGoal is the heap size at which the next collection should start,
// given live heap bytes and the largest goal set so far: at least
// minHeapGoal, and up to minHeapGoal past the live heap as long as that
// stays within the largest goal so far. (gcPercentFor never lets it fall
// below Go's default, twice the live heap.)
//
// The second rule is for large runs. Once the live heap has been L, the
// default has let the heap grow to 2L, and the process has that memory;
// when the live heap then falls back (the next packages are smaller, or
// fewer are in flight), the default collects again every time as much
// as is live is allocated, which on gen100k (live 15-45 MB, 7.4 GB
// allocated in all) is 263 collections. Letting the heap grow back
// toward the size it already had costs no new peak: measured in pairs
// (docs/performance.md, run 18), gen100k used 10% less CPU and gen10k 5%
// less, at a peak RSS about 10 MB above the load floor's median (within
// its range); temporal's ./common/... was unchanged in CPU and RSS. A
// headroom of 64 MB instead of minHeapGoal saved more (16% on gen100k)
// but raised gen10k's peak RSS above the floor's range; no cap at all
// (the largest goal so far) raised temporal's peak RSS by a quarter.
func heapGoal(live, highest uint64) uint64 {
	return max(minHeapGoal, min(live+minHeapGoal, highest))
}

// gcPercentFor returns the GOGC that puts the next heap goal at goal
// given live heap bytes and base, the live heap plus the stacks and
// globals GOGC also scales. It never returns less than 100 (Go's default)
// nor more than the value at which the runtime's own minimum heap (4 MB x
// GOGC/100) would exceed goal.
func gcPercentFor(live, base, goal uint64) int {
	if base == 0 || live >= goal/2 {
		return 100
	}
	pct := 100 * (goal - live) / base
	return int(min(max(pct, 100), 100*goal/(4<<20)))
}
