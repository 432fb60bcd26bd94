package appcheck_test

import (
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzer/appcheck"
	"github.com/fencelint/fencelint/analyzer/internal/fencetest"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestRelated checks that a read-then-write finding names the read and the
// write in Related.
func TestRelated(t *testing.T) {
	results := analysistest.Run(t, fencetest.TestData(t), appcheck.Analyzer, "appcheck/basic")
	found := false
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if d.Category != "token" {
				continue
			}
			found = true
			var msgs []string
			for _, rel := range d.Related {
				msgs = append(msgs, rel.Message)
			}
			joined := strings.Join(msgs, "; ")
			if !strings.Contains(joined, "stored fence read here") || !strings.Contains(joined, "unfenced write") {
				t.Errorf("read-then-write finding %q has Related %q; want the read and the write", d.Message, joined)
			}
		}
	}
	if !found {
		t.Fatal("no read-then-write finding in appcheck/basic")
	}
}
