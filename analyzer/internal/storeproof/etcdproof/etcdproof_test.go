package etcdproof

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/storeproof"
)

// etcdWrite selects the etcd writes of the model, and the helper writes
// under an etcd lock (counted as skipped: the proof replays store calls).
func etcdWrite(w *fence.Write) bool {
	if w.Store == "etcd" {
		return true
	}
	return w.Helper != "" && w.Scope != nil && strings.Contains(w.Scope.Lock, "etcd")
}

// TestEtcdProof replays the frozen-worker scenario in a real etcd for
// every etcd write the engine judges in testdata: etcd must refuse A's
// stale write exactly when the engine says fenced.
func TestEtcdProof(t *testing.T) {
	found := storeproof.Collect(t, etcdWrite)
	tally := &storeproof.Tally{Store: "etcdproof"}
	var cases []*Case
	var of []storeproof.Found
	for i, f := range found {
		if f.Write.Store != "etcd" {
			tally.Skip(f, fmt.Sprintf("a write through the helper %s: the proof replays etcd calls, not the helpers around them", f.Write.Helper))
			continue
		}
		c, skip := NewCase(f, fmt.Sprintf("/etcdproof/%d/", i))
		if skip != "" {
			tally.Skip(f, skip)
			continue
		}
		cases = append(cases, c)
		of = append(of, f)
	}
	if len(cases) == 0 {
		t.Fatal("etcdproof: the engine judged no etcd write in testdata")
	}

	endpoint := StartEtcd(t)
	t.Logf("etcd (embedded, v3.7.3) at %s", endpoint)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	t.Run("writes", func(t *testing.T) {
		for i, c := range cases {
			t.Run(c.Pos, func(t *testing.T) {
				t.Parallel()
				cliA, cliB := NewClient(t, endpoint), NewClient(t, endpoint)
				out, err := c.Run(ctx, cliA, cliB)
				if err != nil {
					// The harness cannot set up this shape (argument
					// types it cannot fake, a key that must exist first):
					// counted and listed as skipped, never as agreement.
					// A disagreement below still fails.
					tally.Skip(of[i], fmt.Sprintf("the scenario could not be played in etcd: %v", err))
					t.Logf("%s: skipped: fencelint says %s for %s; the scenario could not be played: %v", c.Pos, c.Verdict, c.Call, err)
					return
				}
				tally.Checked(of[i])
				want := "land"
				if c.ExpectRejected {
					want = "be refused"
				}
				if !out.Agrees(c.ExpectRejected) {
					t.Errorf("%s: DISAGREEMENT: fencelint says %s, so the stale holder's write should %s, but in etcd: %s\n\twrite: %s", c.Pos, c.Verdict, want, out, c.Call)
					return
				}
				t.Logf("%s: %s; consistent: %s", c.Verdict, c.Call, out)
			})
		}
	})
	tally.Report(t, "writes")

	// The proof must be able to fail: the same scenario with a wrong
	// verdict must disagree.
	t.Run("selfcheck", func(t *testing.T) {
		for i, c := range []*Case{
			{Pos: "blind Put claimed fenced", Shape: &fence.EtcdShape{Method: "Put", Key: fence.Arg{Kind: "string", Const: "data"}}},
			{Pos: "Txn without If claimed fenced", Shape: &fence.EtcdShape{Method: "Commit"}},
			{Pos: "IsOwner Txn claimed unfenced", Shape: &fence.EtcdShape{Method: "Commit", If: []fence.EtcdCmp{{IsOwner: true}}}},
		} {
			c.ExpectRejected = i < 2
			c.NS = fmt.Sprintf("/etcdproof/self/%d/", i)
			out, err := c.Run(ctx, NewClient(t, endpoint), NewClient(t, endpoint))
			if err != nil {
				t.Fatalf("%s: %v", c.Pos, err)
			}
			if out.Agrees(c.ExpectRejected) {
				t.Errorf("%s: the scenario agrees with a wrong verdict: %s", c.Pos, out)
			}
		}
	})
}
