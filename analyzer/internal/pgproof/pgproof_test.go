package pgproof

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fencelint/fencelint/analyzer/fencepredicate"
	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/fencetest"
	"golang.org/x/tools/go/analysis"
)

// collect runs the engine over testdata/src/unfencedwrite/... (and the
// other analyzers' case directories, which hold the wrong-predicate cases)
// and prepares
// every SQL write it judges. skipped maps each SQL write not replayed to
// the reason.
func collect(t *testing.T) (cases []*Case, skipped map[string]string) {
	t.Helper()
	td := testdataDir(t)
	patterns, err := CaseDirs(td)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(patterns, "unfencedwrite/...") {
		t.Fatalf("no testdata/src/unfencedwrite in %s", td)
	}
	t.Logf("engine run over %v", patterns)
	pkgs, err := LoadTestdata(td, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Analyze([]*analysis.Analyzer{fence.Analyzer, fencepredicate.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	skipped = map[string]string{}
	for _, pkg := range pkgs { // sorted by path, so the order is stable
		var model *fence.Model
		var defects []analysis.Diagnostic
		for _, act := range g.Roots {
			if act.Package != pkg {
				continue
			}
			if act.Err != nil {
				t.Fatalf("%s: %v", act, act.Err)
			}
			switch act.Analyzer {
			case fence.Analyzer:
				model = act.Result.(*fence.Model)
			case fencepredicate.Analyzer:
				defects = act.Diagnostics
			}
		}
		calls := map[token.Pos]*ast.CallExpr{}
		for _, f := range pkg.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					calls[call.Pos()] = call
				}
				return true
			})
		}
		{
			for _, w := range model.Writes {
				if w.Store != "SQL" || w.SQL == "" {
					continue
				}
				p := pkg.Fset.Position(w.Pos)
				if rel, err := filepath.Rel(filepath.Join(td, "src"), p.Filename); err == nil {
					p.Filename = rel
				}
				var facts Facts
				for _, d := range defects {
					if d.Pos >= w.Pos && d.Pos <= w.End {
						facts.Defect = d.Message
						break
					}
				}
				facts.InUnit = inUnit(pkg.TypesInfo, calls[w.Pos])
				c, skip := NewCase(p.String(), w, facts)
				if skip != "" {
					skipped[fmt.Sprintf("%s %s %q", p, w.Verdict, w.SQL)] = skip
					continue
				}
				cases = append(cases, c)
			}
		}
	}
	return cases, skipped
}

func testdataDir(t *testing.T) string { return fencetest.TestData(t) }

// inUnit reports whether call is a method call on a transaction or batch
// (database/sql *Tx, *Stmt from Tx.Stmt aside; pgx.Tx, *pgx.Batch, sqlx
// *Tx, ...), judged by the receiver's type name.
func inUnit(info *types.Info, call *ast.CallExpr) bool {
	if call == nil {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	t := info.TypeOf(sel.X)
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok {
		return false
	}
	name := named.Obj().Name()
	return name == "Tx" || strings.HasSuffix(name, "Tx") || strings.Contains(name, "Batch")
}

// TestPostgresProof replays the runbook's frozen-worker scenario in a real
// PostgreSQL for every SQL write the engine judges in the unfencedwrite
// testdata: B (token 34) writes, then the stale A (token 33). PostgreSQL
// must reject A's write exactly when the engine says fenced.
func TestPostgresProof(t *testing.T) {
	dsn := os.Getenv("FENCELINT_PG_DSN")
	if dsn == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("FENCELINT_PG_DSN is not set but CI is: CI must run the PostgreSQL proof (eval \"$(.ci/postgres.sh)\")")
		}
		t.Skip("FENCELINT_PG_DSN not set; start a server with: eval \"$(.ci/postgres.sh)\"")
	}
	cases, skipped := collect(t)
	for what, why := range skipped {
		t.Logf("skipped %s: %s", what, why)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	conn, err := Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connecting to FENCELINT_PG_DSN: %v", err)
	}
	defer conn.Close(context.Background())
	var version string
	if err := conn.QueryRow(ctx, "SHOW server_version").Scan(&version); err != nil {
		t.Fatal(err)
	}
	t.Logf("PostgreSQL %s", version)

	checked := 0
	for i, c := range cases {
		t.Run(c.Pos, func(t *testing.T) {
			schema := fmt.Sprintf("pgproof_%d_%d", os.Getpid(), i)
			out, err := c.Run(ctx, conn, schema)
			if err != nil {
				t.Errorf("%s: fencelint says %s for\n\t%s\nbut the scenario could not be played in PostgreSQL: %v", c.Pos, c.Judgement, c.SQL, err)
				return
			}
			checked++
			want := "go through"
			if c.ExpectRejected {
				want = "be rejected"
			}
			did := "went through"
			switch {
			case out.Rejected() && out.ANullRows != nil && *out.ANullRows > 0:
				did = "was rejected, but went through once the row had lost its fence (NULL)"
			case out.Rejected() && !c.ExpectRejected:
				did = "was rejected, but not because of the token (a newer token is refused alike, or none reaches the statement)"
			case out.Rejected():
				did = "was rejected"
			}
			if !out.Agrees(c.ExpectRejected) {
				t.Errorf("%s: DISAGREEMENT: fencelint says %s, so the stale holder's write should %s, but in PostgreSQL it %s\n\tstatement: %s\n\tas run:    %s\n\ttable:     %s\n\tscenario:  %s",
					c.Pos, c.Judgement, want, did, c.SQL, c.PGSQL, out.DDL, out)
				return
			}
			t.Logf("%s: %s; stale write %s: consistent: %s [%s]", c.Judgement, oneLine(c.SQL), did, out, out.DDL)
		})
	}
	perDir := map[string][2]int{}
	for _, c := range cases {
		d := perDir[strings.SplitN(c.Pos, "/", 2)[0]]
		d[0]++
		perDir[strings.SplitN(c.Pos, "/", 2)[0]] = d
	}
	for what := range skipped {
		d := perDir[strings.SplitN(what, "/", 2)[0]]
		d[1]++
		perDir[strings.SplitN(what, "/", 2)[0]] = d
	}
	for _, dir := range slices.Sorted(maps.Keys(perDir)) {
		t.Logf("pgproof: testdata/src/%s: %d replayed, %d skipped", dir, perDir[dir][0], perDir[dir][1])
	}
	summary := fmt.Sprintf("pgproof: %d statements checked, %d skipped", checked, len(skipped))
	t.Log(summary)
	fmt.Println(summary)
	if checked == 0 {
		t.Error("pgproof: no statement checked: the proof proves nothing")
	}
}

func oneLine(s string) string {
	out := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == '\n' || ch == '\t' || ch == ' ' || ch == '\r' {
			space = true
			continue
		}
		if space && len(out) > 0 {
			out = append(out, ' ')
		}
		space = false
		out = append(out, ch)
	}
	return string(out)
}
