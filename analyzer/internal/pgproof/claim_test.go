package pgproof

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"golang.org/x/tools/go/analysis"
)

// TestPostgresClaims plays every SQL lease-table claim the engine takes
// for an acquire in testdata as a lock in PostgreSQL: A claims the free
// row, B is refused while A holds it, A's claim expires, B takes the row,
// A is refused while B holds it; and when the engine says the claim mints
// a token, B's is above A's. A statement the engine calls a claim that
// does not behave so is a disagreement.
func TestPostgresClaims(t *testing.T) {
	dsn := os.Getenv("FENCELINT_PG_DSN")
	if dsn == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("FENCELINT_PG_DSN is not set but CI is: CI must run the PostgreSQL proof (eval \"$(.ci/postgres.sh)\")")
		}
		t.Skip("FENCELINT_PG_DSN not set; start a server with: eval \"$(.ci/postgres.sh)\"")
	}
	td := testdataDir(t)
	patterns, err := CaseDirs(td)
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := LoadTestdata(td, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Analyze([]*analysis.Analyzer{fence.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var cases []*ClaimCase
	skipped := 0
	for _, act := range g.Roots {
		if act.Err != nil {
			t.Fatalf("%s: %v", act, act.Err)
		}
		for _, cl := range act.Result.(*fence.Model).Claims {
			p := act.Package.Fset.Position(cl.Pos)
			if rel, err := filepath.Rel(filepath.Join(td, "src"), p.Filename); err == nil {
				p.Filename = rel
			}
			c, skip := NewClaimCase(p.String(), cl)
			if skip != "" {
				t.Logf("skipped %s %q: %s", p, oneLine(cl.SQL), skip)
				skipped++
				continue
			}
			cases = append(cases, c)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	conn, err := Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connecting to FENCELINT_PG_DSN: %v", err)
	}
	defer conn.Close(context.Background())
	checked := 0
	for i, c := range cases {
		t.Run(c.Pos, func(t *testing.T) {
			out, err := c.PlayClaim(ctx, conn, fmt.Sprintf("pgclaim_%d_%d", os.Getpid(), i))
			if err != nil {
				t.Errorf("%s: fencelint takes\n\t%s\nfor a lease-table claim, but it could not be played in PostgreSQL: %v", c.Pos, oneLine(c.Claim.SQL), err)
				return
			}
			checked++
			if p := c.Problem(out); p != "" {
				t.Errorf("%s: DISAGREEMENT: fencelint takes\n\t%s\nfor a lease-table claim (token: %q), but in PostgreSQL %s\n\t%s\n\t%s", c.Pos, oneLine(c.Claim.SQL), c.Claim.Minted, p, out, out.DDL)
				return
			}
			t.Logf("claim on %s (token %q): consistent: %s [%s]", c.Claim.Table, c.Claim.Minted, out, out.DDL)
		})
	}
	summary := fmt.Sprintf("pgproof: %d lease-table claims played, %d skipped", checked, skipped)
	t.Log(summary)
	fmt.Println(summary)
	if checked == 0 {
		t.Error("pgproof: no claim played: the proof proves nothing")
	}
}

// TestPostgresClaimsCanDisagree: statements that are not lock claims, or
// whose token does not grow, played as claims, must disagree: the claim
// proof can fail.
func TestPostgresClaimsCanDisagree(t *testing.T) {
	dsn := os.Getenv("FENCELINT_PG_DSN")
	if dsn == "" {
		t.Skip("FENCELINT_PG_DSN not set; start a server with: eval \"$(.ci/postgres.sh)\"")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for i, cl := range []fence.Claim{
		// no expiry test: it takes the row from a live holder
		{SQL: "UPDATE locks SET holder = $1, expires_at = now() + interval '30 seconds' WHERE name = $2", Table: "locks", Holder: "holder"},
		// the token is a constant, not minted
		{SQL: "UPDATE locks SET holder = $1, fence = 7, expires_at = now() + interval '30 seconds' WHERE name = $2 AND expires_at < now() RETURNING fence", Table: "locks", Holder: "holder", Minted: "fence"},
		// an upsert that overwrites whatever holds the row
		{SQL: "INSERT INTO locks (name, holder, expires_at) VALUES ($1, $2, now() + interval '30 seconds') ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder", Table: "locks", Holder: "holder"},
	} {
		c, skip := NewClaimCase(fmt.Sprint("wrong claim ", i), cl)
		if skip != "" {
			t.Errorf("%s: %s", oneLine(cl.SQL), skip)
			continue
		}
		out, err := c.PlayClaim(ctx, conn, fmt.Sprintf("pgwrong_%d_%d", os.Getpid(), i))
		if err != nil {
			t.Errorf("%s: %v", oneLine(cl.SQL), err)
			continue
		}
		if c.Problem(out) == "" {
			t.Errorf("%s played as a claim agreed (%s): the claim proof cannot fail", oneLine(cl.SQL), out)
		}
	}
}
