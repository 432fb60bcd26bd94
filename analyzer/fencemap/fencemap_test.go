package fencemap_test

import (
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzer/fencemap"
	"github.com/fencelint/fencelint/analyzer/internal/fencetest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// gopathEnv loads testdata/src the way analysistest does.
func gopathEnv(gopath string) []string {
	return append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOFLAGS=", "GOTOOLCHAIN=local")
}

// TestGoldenTestdata renders the map of testdata/src/fencemap in every
// format and compares each with its golden file.
func TestGoldenTestdata(t *testing.T) {
	gopath := fencetest.TestData(t)
	m, err := fencemap.Load(gopath, gopathEnv(gopath), []string{"fencemap/..."})
	if err != nil {
		t.Fatal(err)
	}
	checkGoldens(t, m, "app")
	// What the case is there to show, independently of the goldens.
	if len(m.Locks) != 3 {
		t.Errorf("%d locks, want the etcd mutex, the Lease and the ClockLease", len(m.Locks))
	}
	for _, l := range m.Locks {
		if want := map[bool]string{true: "weak", false: "monotonic"}[l.Name == "lease-shaped type ClockLease"]; l.TokenKind != want {
			t.Errorf("lock %s: token_kind %s, want %s", l.ID, l.TokenKind, want)
		}
	}
	if len(m.Shared) != 1 || m.Shared[0].Name != "accounts" || len(m.Shared[0].Locks) != 2 || len(m.Shared[0].Unlocked) != 1 {
		t.Errorf("shared = %+v, want accounts under two locks and once outside any lock", m.Shared)
	}
	kinds := map[string]bool{}
	for _, b := range m.BlindSpots {
		kinds[b.Kind] = true
	}
	for _, k := range []string{"interface", "unknown-library", "func-value", "dynamic"} {
		if !kinds[k] {
			t.Errorf("no %s blind spot in %+v", k, m.BlindSpots)
		}
	}
	if top := m.BlindSpots[0]; top.Kind != "interface" || top.Scopes != 2 || top.Directive != "//fencelint:write" {
		t.Errorf("top blind spot = %+v, want the Store.Save interface call in 2 scopes", top)
	}
}

// TestGoldenExample renders the map of example/, the module that uses the
// real etcd, pgx, AWS SDK and go-redis, as the README shows it.
func TestGoldenExample(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example module's real dependencies")
	}
	root := filepath.Dir(fencetest.TestData(t))
	m, err := fencemap.Load(filepath.Join(root, "example"), nil, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	checkGoldens(t, m, "example")
	if *update {
		// The README's picture is the golden DOT rendered by Graphviz.
		svg := renderSVG(t, readGolden(t, "example.dot"))
		if err := os.WriteFile(filepath.Join(root, "docs", "fencemap-example.svg"), svg, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDeterministic: the map is byte-identical across runs; each run
// analyses packages in parallel (the x/tools checker), so a map that
// depended on scheduling would differ.
func TestDeterministic(t *testing.T) {
	gopath := fencetest.TestData(t)
	var first []byte
	for i := 0; i < 3; i++ {
		// The last run analyses one package at a time: parallelism must
		// not change a byte either.
		m, err := fencemap.LoadWith(fencemap.Options{Sequential: i == 2}, gopath, gopathEnv(gopath), []string{"fencemap/...", "unfencedwrite/...", "appcheck/...", "weaktoken/..."})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := fencemap.Render(&buf, m, "json", false); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = buf.Bytes()
			if len(first) < 1000 {
				t.Fatalf("map of three case trees is only %d bytes", len(first))
			}
		} else if !bytes.Equal(first, buf.Bytes()) {
			t.Fatalf("run %d differs from run 1", i+1)
		}
	}
}

// TestRenderSVG renders the golden DOT files with Graphviz and checks the
// SVG: well-formed XML, one node per lock and resource, the README's copy
// up to date in what it shows.
func TestRenderSVG(t *testing.T) {
	if _, err := exec.LookPath("dot"); err != nil {
		if os.Getenv("FENCELINT_INTEGRATION") == "require" {
			t.Fatal("Graphviz dot is not installed (apt-get install graphviz)")
		}
		t.Skip("Graphviz dot is not installed")
	}
	for _, name := range []string{"app", "example"} {
		src := readGolden(t, name+".dot")
		svg := renderSVG(t, src)
		if err := xml.Unmarshal(svg, new(struct{})); err != nil {
			t.Fatalf("%s: not well-formed SVG: %v", name, err)
		}
		nodes := strings.Count(string(svg), `class="node"`)
		want := strings.Count(string(src), "shape=box") + strings.Count(string(src), "shape=cylinder") + strings.Count(string(src), "shape=plaintext")
		if nodes != want || nodes == 0 {
			t.Errorf("%s: SVG has %d nodes, the DOT declares %d", name, nodes, want)
		}
	}
	root := filepath.Dir(fencetest.TestData(t))
	committed, err := os.ReadFile(filepath.Join(root, "docs", "fencemap-example.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, label := range labels(readGolden(t, "example.dot")) {
		if !strings.Contains(string(committed), label) {
			t.Errorf("docs/fencemap-example.svg lacks %q: regenerate it with go test ./analyzer/fencemap -run TestGoldenExample -update", label)
		}
	}
}

func renderSVG(t *testing.T, dot []byte) []byte {
	t.Helper()
	cmd := exec.Command("dot", "-Tsvg")
	cmd.Stdin = bytes.NewReader(dot)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("dot -Tsvg: %v\n%s", err, stderr.String())
	}
	return out.Bytes()
}

// labels returns the first line of every node label in a DOT file, as
// Graphviz writes it into the SVG (XML-escaped).
func labels(dot []byte) []string {
	var out []string
	for _, line := range strings.Split(string(dot), "\n") {
		i := strings.Index(line, `label="`)
		if i < 0 || strings.Contains(line, "->") {
			continue
		}
		l := line[i+len(`label="`):]
		l, _, _ = strings.Cut(l, `\n`)
		l, _, _ = strings.Cut(l, `"`)
		out = append(out, strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "-", "&#45;").Replace(l))
	}
	return out
}

func checkGoldens(t *testing.T, m *fencemap.Map, name string) {
	t.Helper()
	for _, f := range []struct {
		ext, format string
		blind       bool
	}{{"json", "json", false}, {"md", "md", false}, {"dot", "dot", false}, {"mmd", "mermaid", false}, {"blind.md", "md", true}} {
		var buf bytes.Buffer
		if err := fencemap.Render(&buf, m, f.format, f.blind); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join("testdata", name+"."+f.ext)
		if *update {
			if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want := readGolden(t, name+"."+f.ext)
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s differs from its golden file (go test ./analyzer/fencemap -update rewrites it):\n%s", file, buf.String())
		}
	}
}

func readGolden(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDocsShowTheMap: README.md and docs/fencemap.md carry the example's
// Mermaid source exactly as -fencemap=mermaid prints it today.
func TestDocsShowTheMap(t *testing.T) {
	mmd := strings.TrimSuffix(string(readGolden(t, "example.mmd")), "\n")
	root := filepath.Dir(fencetest.TestData(t))
	for _, doc := range []string{"README.md", filepath.Join("docs", "fencemap.md")} {
		b, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "```mermaid\n"+mmd+"\n```") {
			t.Errorf("%s does not show example/'s current Mermaid map (testdata/example.mmd)", doc)
		}
	}
}

// TestCassandraMongoBlindSpots: a gocql query made elsewhere or with a
// value formatted into its statement, and a MongoDB filter from elsewhere,
// are dynamic blind spots; a keyspace formatted into the statement is read.
func TestCassandraMongoBlindSpots(t *testing.T) {
	gopath := fencetest.TestData(t)
	m, err := fencemap.Load(gopath, gopathEnv(gopath), []string{"fencemapblind/cqlmongo"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, b := range m.BlindSpots {
		if b.Kind == "dynamic" {
			call, _, _ := strings.Cut(b.Call, "(fmt.Sprintf")
			got[call] = true
		}
	}
	for _, call := range []string{"q.Exec", "s.Query", "coll.DeleteMany"} {
		if !got[call] {
			t.Errorf("no dynamic blind spot at %s in %+v", call, m.BlindSpots)
		}
	}
	if len(got) != 3 {
		t.Errorf("dynamic blind spots %v, want exactly the three unread writes (the keyspace statement is read)", got)
	}
}

// TestLockCallBlindSpot: a call through an interface whose implementations
// disagree on taking a lock (etcd's mutex beside a process-local one)
// opens no scope;
// the fence map names it as a lock-call blind spot with the
// //fencelint:acquire that would declare the interface method, instead of
// saying nothing. An interface whose implementations agree is an acquire.
func TestLockCallBlindSpot(t *testing.T) {
	gopath := fencetest.TestData(t)
	m, err := fencemap.Load(gopath, gopathEnv(gopath), []string{"fencemapblind/lockiface"})
	if err != nil {
		t.Fatal(err)
	}
	var lockCalls []*fencemap.BlindSpot
	for _, b := range m.BlindSpots {
		if b.Kind == "lock-call" {
			lockCalls = append(lockCalls, b)
		}
	}
	if len(lockCalls) != 1 {
		t.Fatalf("lock-call blind spots %+v, want one, at l.Lock", lockCalls)
	}
	b := lockCalls[0]
	if b.Call != "l.Lock" || b.Directive != "//fencelint:acquire" || !strings.Contains(b.DirectiveAt, "lockiface.go:19") {
		t.Errorf("lock-call blind spot %+v, want l.Lock with //fencelint:acquire at Locker.Lock (lockiface.go:19)", b)
	}
	if len(m.Locks) != 1 {
		t.Errorf("%d locks %+v, want one: the scope mu.Acquire opens", len(m.Locks), m.Locks)
	}
	var buf bytes.Buffer
	if err := fencemap.Render(&buf, m, "md", false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "| lock-call |") {
		t.Errorf("the markdown map does not show the lock-call blind spot:\n%s", buf.String())
	}
}

// TestSessionProtectedWrites: SQL run on the transaction or pinned
// connection that holds a database lock is protected by that session and
// never reported, but it is still what the lock protects: the map lists it
// under that lock (also when another lock is nested inside it) with the
// verdict "session", and not as a blind spot even when its statement is not
// a constant.
func TestSessionProtectedWrites(t *testing.T) {
	gopath := fencetest.TestData(t)
	m, err := fencemap.Load(gopath, gopathEnv(gopath), []string{"unfencedwrite/advisory"})
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]int{} // file:line of a session write -> how many
	for _, l := range m.Locks {
		for _, r := range l.Resources {
			for _, w := range r.Writes {
				if w.Verdict != "session" {
					continue
				}
				if l.Name != "PostgreSQL advisory lock" && l.Name != "MySQL named lock (GET_LOCK)" {
					t.Errorf("session write %s listed under %q, want the database lock that its session holds", w.Site, l.Name)
				}
				lines[fmt.Sprintf("%s:%d", path.Base(w.Site.File), w.Site.Line)]++
			}
		}
	}
	// pinnedConnGood, xactLockSameTxGood, the etcd mutex nested in an
	// advisory lock of the same transaction, MySQL's pinned connection.
	for _, want := range []string{"advisory.go:35", "advisory.go:69", "advisory.go:166", "mysql.go:41"} {
		if lines[want] != 1 {
			t.Errorf("session writes %v: want one at %s", lines, want)
		}
	}
	for _, b := range m.BlindSpots {
		if lines[fmt.Sprintf("%s:%d", path.Base(b.Site.File), b.Site.Line)] > 0 {
			t.Errorf("blind spot %+v is a session-protected write", b)
		}
	}
}
