package main

import (
	"math"
	"testing"
)

func TestGCPercentFor(t *testing.T) {
	const mb = 1 << 20
	maxPct := 100 * minHeapGoal / (4 * mb)
	for _, tc := range []struct {
		live, base, goal uint64
		want             int
	}{
		{0, 0, minHeapGoal, 100},                             // nothing measured: the default
		{0, 1 * mb, minHeapGoal, maxPct},                     // at start: capped so the runtime's minimum heap is the goal
		{12 * mb, 12 * mb, minHeapGoal, 300},                 // next goal 12 + 36 = 48 MB
		{16 * mb, 20 * mb, minHeapGoal, 160},                 // stacks and globals count in the base
		{20 * mb, 20 * mb, minHeapGoal, 140},                 // 20 + 28
		{minHeapGoal / 2, minHeapGoal / 2, minHeapGoal, 100}, // half of it live: the default
		{40 * mb, 40 * mb, minHeapGoal, 100},                 // never below the default
		{200 * mb, 210 * mb, minHeapGoal, 100},
		{30 * mb, 30 * mb, 78 * mb, 160}, // 30 + 48
		{0, 1 * mb, 96 * mb, 2 * maxPct}, // the cap follows the goal
	} {
		if got := gcPercentFor(tc.live, tc.base, tc.goal); got != tc.want {
			t.Errorf("gcPercentFor(%d MB, %d MB, %d MB) = %d, want %d", tc.live/mb, tc.base/mb, tc.goal/mb, got, tc.want)
		}
	}
}

func TestHeapGoal(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		live, highest, want uint64
	}{
		{0, 0, minHeapGoal},             // at start: the minimum
		{10 * mb, 0, minHeapGoal},       // a small heap: the minimum
		{10 * mb, 40 * mb, minHeapGoal}, // never below it
		{30 * mb, 102 * mb, 78 * mb},    // after a larger heap: minHeapGoal of headroom
		{30 * mb, 60 * mb, 60 * mb},     // but no more than the heap has had
		{80 * mb, 102 * mb, 102 * mb},   // (gcPercentFor keeps the default's 2x live)
		{300 * mb, 700 * mb, 348 * mb},  // a big live heap: the default decides
		{minHeapGoal, minHeapGoal, minHeapGoal},
	} {
		if got := heapGoal(tc.live, tc.highest); got != tc.want {
			t.Errorf("heapGoal(%d MB, %d MB) = %d MB, want %d MB", tc.live/mb, tc.highest/mb, got/mb, tc.want/mb)
		}
	}
}

func TestReserveFor(t *testing.T) {
	for _, tc := range []struct {
		findings, done, packages int
		want                     uint64
	}{
		{0, 0, 1000, 0},    // nothing done yet
		{400, 19, 19, 0},   // too few packages to scale from
		{400, 49, 1000, 0}, // under a twentieth of them
		{4000, 50, 1000, 80000 * memoryPerFinding},    // a twentieth: scaled to all
		{80001, 1000, 1000, 80001 * memoryPerFinding}, // done: what the output holds
		{0, 500, 1000, 0}, // no findings: no reserve
	} {
		if got := reserveFor(tc.findings, tc.done, tc.packages); got != tc.want {
			t.Errorf("reserveFor(%d, %d, %d) = %d, want %d", tc.findings, tc.done, tc.packages, got, tc.want)
		}
	}
}

func TestMemoryLimit(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		reserve, needed uint64
		want            int64
	}{
		{0, 30 * mb, math.MaxInt64},                    // no reserve: no limit
		{24 * mb, 30 * mb, math.MaxInt64},              // gen10k's: below what the heap policy allows anyway
		{78 * mb, 30 * mb, math.MaxInt64},              // exactly minHeapGoal past the need: still none
		{240 * mb, 40 * mb, 240 * mb},                  // gen100k's: the limit
		{240 * mb, 200 * mb, math.MaxInt64},            // the live heap grew near it: no back-to-back collections
		{240 * mb, 240*mb - minHeapGoal - 1, 240 * mb}, // just room enough
	} {
		if got := memoryLimit(tc.reserve, tc.needed); got != tc.want {
			t.Errorf("memoryLimit(%d MB, %d MB) = %d, want %d", tc.reserve/mb, tc.needed/mb, got, tc.want)
		}
	}
}
