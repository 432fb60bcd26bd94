package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/bench/gen"
)

// sameFindingsCodebase is a tree the standalone identity test lints, with
// the environment it needs: the codebases of the go vet driver's
// TestSameFindings (analyzer/internal/vetdriver), which checks the go vet
// route the same way.
type sameFindingsCodebase struct {
	name, dir string
	env       []string
	patterns  []string
	minLines  int // at least this many findings: the comparison is not vacuous
}

func sameFindingsCodebases(t *testing.T) []sameFindingsCodebase {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	n := 10000
	if s := os.Getenv("FENCELINT_TEST_GEN"); s != "" {
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	genDir := filepath.Join(t.TempDir(), "gen")
	if _, err := gen.Write(genDir, gen.Config{N: n}); err != nil {
		t.Fatal(err)
	}
	cbs := []sameFindingsCodebase{
		// testdata/src is a GOPATH tree with stubs of every library rules/ knows.
		{"testdata", filepath.Join(root, "testdata", "src"), []string{"GO111MODULE=off", "GOPATH=" + filepath.Join(root, "testdata"), "GOFLAGS="}, []string{"./..."}, 300},
		{"example", filepath.Join(root, "example"), []string{"GOFLAGS=-mod=mod"}, []string{"./..."}, 5},
		{fmt.Sprintf("gen%d", n), genDir, []string{"GOFLAGS="}, []string{"./..."}, n / 10},
	}
	if os.Getenv("FENCELINT_TEST_SOAK") == "1" {
		// The soak set: std and this module, where nothing may be reported.
		cbs = append(cbs, sameFindingsCodebase{"soak", root, []string{"GOFLAGS="}, []string{"std", "./..."}, 0})
	}
	return cbs
}

var seededRE = regexp.MustCompile(`fencelint: fast path: (\d+) packages, (\d+) cached, (\d+) seeded`)

// TestStandaloneSameFindings lints every codebase with the fast path off
// (FENCELINT_FULL=1, and the -full flag) and on, each with an empty cache,
// then on again with the cache warm, and requires byte-identical -f json
// output and exit codes. Between the runs it checks that every cache
// entry the fast path would write for a package that cannot matter is,
// under the same action ID, byte for byte the entry the full run wrote
// (FENCELINT_TEST_VERIFY_SEEDS). FENCELINT_TEST_SOAK=1 adds std and this
// module; FENCELINT_TEST_GEN=N sets the generated module's size.
func TestStandaloneSameFindings(t *testing.T) {
	if testing.Short() {
		t.Skip("lints testdata, example/ (real etcd, AWS SDK) and gen10k three times each")
	}
	bin := fencelintBinary(t)
	for _, cb := range sameFindingsCodebases(t) {
		t.Run(cb.name, func(t *testing.T) {
			cacheDir := t.TempDir()
			env := func(extra ...string) []string {
				return append(append(os.Environ(), cb.env...), extra...)
			}
			args := append([]string{"-f", "json"}, cb.patterns...)

			full := filepath.Join(cacheDir, "full")
			refOut, refErr, refCode := run(t, cb.dir, env("STATICCHECK_CACHE="+full, fullEnv+"=1"), bin, args...)
			if refCode != exitClean && refCode != exitFindings {
				t.Fatalf("full run exited %d:\n%s", refCode, refErr)
			}
			if n := bytes.Count(refOut, []byte("\n")); n < cb.minLines {
				t.Fatalf("full run printed %d findings, want at least %d:\n%s", n, cb.minLines, refOut)
			}

			// The seeds equal the full run's entries (which setCacheDir
			// keeps in the full subdirectory).
			out, stderr, code := run(t, cb.dir, env("STATICCHECK_CACHE="+filepath.Join(full, "full"), verifySeedEnv+"=1"), bin, args...)
			if code != exitClean {
				t.Fatalf("seeds differ from the full run's cache entries (exit %d):\n%s%s", code, out, stderr)
			}
			t.Logf("%s", bytes.TrimSpace(out))
			if !bytes.HasPrefix(out, []byte("verified ")) || bytes.HasPrefix(out, []byte("verified 0 ")) {
				t.Errorf("no seed verified: %s", out)
			}

			// -full is FENCELINT_FULL=1.
			flagOut, flagErr, flagCode := run(t, cb.dir, env("STATICCHECK_CACHE="+filepath.Join(cacheDir, "full-flag")), bin, append([]string{"-full"}, args...)...)
			if flagCode != refCode || !bytes.Equal(flagOut, refOut) {
				t.Errorf("-full: exit %d, want %d; output differs from %s=1's:\n%s\nstderr:\n%s", flagCode, refCode, fullEnv, firstLineDiff(refOut, flagOut), flagErr)
			}

			fast := filepath.Join(cacheDir, "fast")
			for _, pass := range []string{"cold", "warm"} {
				got, stderr, code := run(t, cb.dir, env("STATICCHECK_CACHE="+fast, "FENCELINT_DEBUG_SEED=1"), bin, args...)
				if code != refCode {
					t.Errorf("fast path (%s cache): exit %d, want %d\n%s", pass, code, refCode, stderr)
				}
				if !bytes.Equal(got, refOut) {
					t.Errorf("fast path (%s cache): -f json output differs from the full run's:\n%s", pass, firstLineDiff(refOut, got))
				}
				m := seededRE.FindSubmatch(stderr)
				if m == nil {
					t.Fatalf("fast path (%s cache) did not run:\n%s", pass, stderr)
				}
				t.Logf("fast path (%s cache): %s", pass, m[0])
				if pass == "cold" && string(m[3]) == "0" {
					t.Errorf("fast path seeded nothing: %s", m[0])
				}
			}
		})
	}
}

// firstLineDiff describes the first line where a and b differ.
func firstLineDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d (of %d and %d):\n  want %s\n  got  %s", i+1, len(al), len(bl), x, y)
		}
	}
	return "no line differs"
}
