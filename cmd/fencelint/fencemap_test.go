package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFenceMapCLI runs -fencemap and -blindspots as a user does: formats,
// exit codes, and what a load error does.
func TestFenceMapCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fencelint")
	}
	bin := fencelintBinary(t)
	dir := t.TempDir()
	src := `package m

import (
	"context"
	"database/sql"
)

type Lease struct{ Token int64 }

// Store's Save takes no context: with one, a write-named method of a
// port with no implementation in view is taken for a write, not a
// blind spot.
type Store interface {
	Save(key string) error
}

func Debit(ctx context.Context, db *sql.DB, s Store, l Lease, id string) error {
	if _, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - 1 WHERE id = $1", id); err != nil {
		return err
	}
	return s.Save(id)
}
`
	for name, content := range map[string]string{"go.mod": "module example.com/m\n\ngo 1.26\n", "m.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stdout, stderr, code := run(t, dir, os.Environ(), bin, "-fencemap=json", "./...")
	if code != exitClean {
		t.Fatalf("-fencemap=json: exit %d\n%s", code, stderr)
	}
	var m struct {
		Version int `json:"version"`
		Locks   []struct {
			Name      string `json:"name"`
			Resources []struct {
				Kind, Name, Verdict string
			} `json:"resources"`
		} `json:"locks"`
		BlindSpots []struct {
			Kind        string `json:"kind"`
			Directive   string `json:"directive"`
			DirectiveAt string `json:"directive_at"`
		} `json:"blind_spots"`
	}
	if err := json.Unmarshal(stdout, &m); err != nil {
		t.Fatalf("-fencemap=json is not JSON: %v\n%s", err, stdout)
	}
	if m.Version != 1 || len(m.Locks) != 1 || len(m.Locks[0].Resources) != 1 ||
		m.Locks[0].Resources[0].Name != "accounts" || m.Locks[0].Resources[0].Verdict != "unfenced" {
		t.Errorf("map = %+v, want one lease lock writing accounts unfenced", m)
	}
	if len(m.BlindSpots) != 1 || m.BlindSpots[0].Kind != "interface" || m.BlindSpots[0].Directive != "//fencelint:write" || m.BlindSpots[0].DirectiveAt != "m.go:14:2" {
		t.Errorf("blind spots = %+v, want the Store.Save interface call", m.BlindSpots)
	}

	for _, format := range []string{"md", "dot", "mermaid"} {
		stdout, stderr, code := run(t, dir, os.Environ(), bin, "-fencemap="+format, "./...")
		if code != exitClean || !strings.Contains(string(stdout), "accounts") {
			t.Errorf("-fencemap=%s: exit %d, stdout:\n%s\nstderr:\n%s", format, code, stdout, stderr)
		}
	}
	stdout, _, code = run(t, dir, os.Environ(), bin, "-blindspots", "./...")
	if code != exitClean || !strings.Contains(string(stdout), "# Blind spots") || !strings.Contains(string(stdout), "`//fencelint:write`") ||
		strings.Contains(string(stdout), "# Fence map") {
		t.Errorf("-blindspots: exit %d, stdout:\n%s", code, stdout)
	}
	if _, stderr, code := run(t, dir, os.Environ(), bin, "-fencemap=xml", "./..."); code != exitFailure || !strings.Contains(string(stderr), "unknown -fencemap format") {
		t.Errorf("-fencemap=xml: exit %d, want %d; stderr:\n%s", code, exitFailure, stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.go"), []byte("package m\n\nfunc F() int { return \"x\" }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := run(t, dir, os.Environ(), bin, "-fencemap=md", "./..."); code != exitFailure || !strings.Contains(string(stderr), "cannot use") {
		t.Errorf("-fencemap on a type error: exit %d, want %d; stderr:\n%s", code, exitFailure, stderr)
	}
}
