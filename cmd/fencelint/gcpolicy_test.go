package main

import "testing"

func TestGCPercentFor(t *testing.T) {
	const mb = 1 << 20
	maxPct := 100 * minHeapGoal / (4 * mb)
	for _, tc := range []struct {
		live, base uint64
		want       int
	}{
		{0, 0, 100},                             // nothing measured: the default
		{0, 1 * mb, maxPct},                     // at start: capped so the runtime's minimum heap is minHeapGoal
		{12 * mb, 12 * mb, 300},                 // next goal 12 + 36 = 48 MB
		{16 * mb, 20 * mb, 160},                 // stacks and globals count in the base
		{20 * mb, 20 * mb, 140},                 // 20 + 28
		{minHeapGoal / 2, minHeapGoal / 2, 100}, // half of it live: the default
		{40 * mb, 40 * mb, 100},                 // never below the default
		{200 * mb, 210 * mb, 100},
	} {
		if got := gcPercentFor(tc.live, tc.base); got != tc.want {
			t.Errorf("gcPercentFor(%d MB, %d MB) = %d, want %d", tc.live/mb, tc.base/mb, got, tc.want)
		}
	}
}
