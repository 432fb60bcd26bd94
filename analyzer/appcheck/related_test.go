package appcheck_test

import (
	"os"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzer/appcheck"
	"github.com/fencelint/fencelint/analyzer/internal/fencetest"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestRelated checks that a read-then-write finding names the read and the
// write in Related: a SQL Scan, a DynamoDB GetItem read through a type
// assertion and strconv.ParseInt, S3 HeadObject metadata, an etcd Get.
func TestRelated(t *testing.T) {
	results := analysistest.Run(t, fencetest.TestData(t), appcheck.Analyzer, "appcheck/basic", "appcheck/guards")
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
			for _, rel := range d.Related {
				if rel.Message != "stored fence read here" {
					continue
				}
				// The read is the storage call, not the parsing after it.
				p := r.Pass.Fset.Position(rel.Pos)
				src, err := os.ReadFile(p.Filename)
				if err != nil {
					t.Fatal(err)
				}
				line := strings.Split(string(src), "\n")[p.Line-1]
				if !strings.Contains(line[p.Column-1:], "QueryRow") && !strings.Contains(line, "GetItem") && !strings.Contains(line, "HeadObject") && !strings.Contains(line, ".Get(") {
					t.Errorf("read of %q at %v is %q; want the storage read", d.Message, p, line)
				}
			}
			if !strings.Contains(joined, "stored fence read here") || !strings.Contains(joined, "unfenced write") {
				t.Logf("at %v", r.Pass.Fset.Position(d.Pos))
				t.Errorf("read-then-write finding %q has Related %q; want the read and the write", d.Message, joined)
			}
		}
	}
	if !found {
		t.Fatal("no read-then-write finding in appcheck/basic")
	}
}
