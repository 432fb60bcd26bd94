package silentreject_test

import (
	"os"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzer/internal/fencetest"
	"github.com/fencelint/fencelint/analyzer/silentreject"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestSQL(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), silentreject.Analyzer, "silentreject/sql")
}

func TestStores(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), silentreject.Analyzer, "silentreject/stores")
}

// TestK8sConflict: a client-go Update that carries the resourceVersion it
// read is rejected with a Conflict; retry.RetryOnConflict re-issues it.
func TestK8sConflict(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), silentreject.Analyzer, "silentreject/k8sconflict")
}

func TestGorm(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), silentreject.Analyzer, "silentreject/gormout")
}

// TestNoReturn: a rejection branch that calls a function that never
// returns (log.Fatalf, t.Fatalf, a local or imported wrapper) is not a
// retry; one that can return is.
func TestNoReturn(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), silentreject.Analyzer, "silentreject/noret/...")
}

// TestMore: ZooKeeper Multi, Azure Blob, Redis script and sqlx outcomes.
func TestMore(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), silentreject.Analyzer, "silentreject/more")
}

// TestRelated: a retry and a rejection treated as success point, in
// Related, at the test that told the rejection apart.
func TestRelated(t *testing.T) {
	results := analysistest.Run(t, fencetest.TestData(t), silentreject.Analyzer, "silentreject/sql")
	want := map[string]string{ // diagnostic category -> source text of the related line
		"retried":   "if n == 0 {",
		"unchecked": "if errors.Is(err, sql.ErrNoRows) {",
	}
	seen := map[string]bool{}
	for _, r := range results {
		fset := r.Action.Package.Fset
		for _, d := range r.Action.Diagnostics {
			if len(d.Related) == 0 {
				continue
			}
			text, ok := want[d.Category]
			if !ok {
				t.Errorf("%s: unexpected related information on a %q diagnostic", fset.Position(d.Pos), d.Category)
				continue
			}
			p := fset.Position(d.Related[0].Pos)
			src, err := os.ReadFile(p.Filename)
			if err != nil {
				t.Fatal(err)
			}
			line := strings.TrimSpace(strings.Split(string(src), "\n")[p.Line-1])
			if line == text {
				seen[d.Category] = true
			}
		}
	}
	for cat, text := range want {
		if !seen[cat] {
			t.Errorf("no %s diagnostic whose related position is the line %q", cat, text)
		}
	}
}

// TestLoops: a retry is a loop back to the same write; a range over
// items, a counting loop over ids[i], or a new token is another write.
func TestLoops(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), silentreject.Analyzer, "silentreject/loops")
}

// TestSqlcOutcomes: sqlc's :execrows count and :one error, handed back by
// the generated Queries methods, are the fenced write's outcome.
func TestSqlcOutcomes(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), silentreject.Analyzer, "silentreject/sqlcrows")
}

// TestCassandraMongo: a lightweight transaction's applied, MongoDB's
// MatchedCount, DeletedCount and ErrNoDocuments.
func TestCassandraMongo(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), silentreject.Analyzer, "silentreject/cqlmongo")
}

// TestLeaseTables: a SQL lease-table claim whose refusal is never looked
// at, and fenced writes under a claim's token.
func TestLeaseTables(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), silentreject.Analyzer, "silentreject/leasetable")
}
