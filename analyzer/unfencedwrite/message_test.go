package unfencedwrite_test

import (
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/lintutil"
	"github.com/fencelint/fencelint/analyzer/unfencedwrite"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestNoTokenMessage: under a lock that hands out no token the message says
// so once and ends with the fix and the docs section; under a lock with a
// token it names the token instead.
func TestNoTokenMessage(t *testing.T) {
	redsync := &fence.Scope{Lock: "redsync mutex", NoToken: true}
	fix := ": " + lintutil.NoTokenFix + "; see " + lintutil.NoTokenURL
	for _, c := range []struct {
		w    fence.Write
		want string
	}{
		{
			fence.Write{Store: "Redis", Call: "rdb.HSet", Scope: redsync, Verdict: fence.Unfenced,
				Detail: "it is unconditional; the redsync mutex gives no token to fence with"},
			"Redis write via rdb.HSet under the redsync mutex is not fenced: it is unconditional; the redsync mutex gives no token to fence with" + fix,
		},
		{ // a detail that does not say it: said once, after the detail
			fence.Write{Store: "storage", Call: "save", Scope: redsync, Verdict: fence.Unfenced,
				Detail: "no fencing token reaches save's fence parameter"},
			"storage write via save under the redsync mutex is not fenced: no fencing token reaches save's fence parameter; the redsync mutex gives no token to fence with" + fix,
		},
		{ // no detail at all
			fence.Write{Store: "SQL", Call: "db.Exec", Scope: redsync, Verdict: fence.Unfenced},
			"SQL write via db.Exec under the redsync mutex is not fenced: the redsync mutex gives no token to fence with" + fix,
		},
		{ // ok: a lock with a token gets the token, not the recipe
			fence.Write{Store: "etcd", Call: "cli.Put", Target: "k", Scope: &fence.Scope{Lock: "etcd mutex", Token: "m.Header().Revision"},
				Verdict: fence.Unfenced, Detail: "it is unconditional"},
			"etcd write via cli.Put to k under the etcd mutex is not fenced: it is unconditional; compare the stored fence with m.Header().Revision in the write itself",
		},
	} {
		got := unfencedwrite.Message(&c.w)
		if got != c.want {
			t.Errorf("Message:\n got %s\nwant %s", got, c.want)
		}
		if strings.Count(got, "gives no token") > 1 {
			t.Errorf("Message says twice that the lock gives no token: %s", got)
		}
	}
}

// TestDiagnosticURL: every finding links to the analyzer's page, and a
// finding under a lock without a token to the section on getting one.
func TestDiagnosticURL(t *testing.T) {
	results := analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/libs")
	n := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			n++
			want := unfencedwrite.Analyzer.URL
			if strings.Contains(d.Message, "gives no token to fence with") {
				want = lintutil.NoTokenURL
			}
			if d.URL != want {
				t.Errorf("%q: URL %q, want %q", d.Message, d.URL, want)
			}
		}
	}
	if n == 0 {
		t.Fatal("no diagnostics")
	}
}
