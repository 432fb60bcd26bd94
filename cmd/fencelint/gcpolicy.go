package main

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
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
// heapGoal's goal, or, once the output's reserve is larger, the memory
// limit at the reserve (outputReserve). A user's GOGC or GOMEMLIMIT wins.
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
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
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
		reserve := outputReserve.Load()
		pct := gcPercentFor(live, base, max(heapGoal(live, highest), reserve))
		highest = max(highest, live+base*uint64(pct)/100)
		debug.SetGCPercent(pct)
		// What the runtime holds outside the heap: stacks, its own
		// metadata, profiling buckets.
		other := uint64Of(samples[4])
		for _, s := range samples[5:9] {
			other -= min(other, uint64Of(s))
		}
		debug.SetMemoryLimit(memoryLimit(reserve, live+other))
		if samples[3].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return samples[3].Value.Uint64()
	}
	cycles := adjust()
	go func() {
		for range time.Tick(5 * time.Millisecond) {
			metrics.Read(samples[3:4])
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

// outputReserve is the memory the run's output will need once the lint
// is done: memoryPerFinding for each finding the run is predicted to hold
// (reserveFor). Until then the process may grow to it before collecting,
// since the output's peak will reach it anyway: it is the soft memory
// limit (memoryLimit), and the heap goal rises to it so that the limit,
// which counts all the memory the runtime holds and not the heap alone,
// is what starts a collection. A run with few findings (every real
// codebase measured) has no reserve worth one and keeps heapGoal's
// policy; gen100k (80,001 findings) collects 59 times instead of 178,
// for a fifth less CPU and a lower peak RSS (docs/performance.md, run 20).
var outputReserve atomic.Uint64

// memoryPerFinding: the output's memory per finding, below its measured
// peak RSS (gen100k: 280-300 MB for 80,001 findings, 3.5-3.7 KB each).
// As a heap goal without the limit, 2 KB raised gen100k's peak RSS by a
// tenth (the lint phase's heap overshoots its goal and holds more beside
// it); as the limit, 3 KB lowered it from 285 to 248 MB.
const memoryPerFinding = 3 << 10

// memoryLimit is the soft memory limit for a reserve, given what the
// runtime needs now (after a collection: the live heap and what it holds
// outside the heap): the reserve when it leaves more than minHeapGoal of
// room past what is needed, else none (heapGoal's policy decides alone),
// so that a live heap near the limit never makes the collector run back
// to back.
func memoryLimit(reserve, needed uint64) int64 {
	if reserve <= needed+minHeapGoal {
		return math.MaxInt64
	}
	return int64(reserve)
}

func uint64Of(s metrics.Sample) uint64 {
	if s.Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s.Value.Uint64()
}

// reserveFor predicts the output's memory from the findings of the first
// done of the packages named on the command line (dependencies report
// none): their findings scaled to all of them, once a twentieth of the
// packages (and at least 20) are done.
func reserveFor(findings, done, packages int) uint64 {
	if done < 20 || done*20 < packages {
		return 0
	}
	return uint64(findings) * uint64(packages) / uint64(done) * memoryPerFinding
}
