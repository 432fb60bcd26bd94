package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzer"
)

func TestCheckNames(t *testing.T) {
	known := analyzer.Names()
	for _, tc := range []struct {
		flag, value string
		wantErr     string // substring; "" = accepted
	}{
		{"checks", `"inherit"`, ""},
		{"checks", `"all,-weaktoken"`, ""},
		{"checks", `"*token"`, ""},
		{"checks", `"UnfencedWrite"`, ""},
		{"fail", `"all"`, ""},
		{"fail", `""`, ""},
		{"checks", `""`, "-checks is empty"},
		{"checks", `"unfencedwrit"`, `-checks: unknown analyzer "unfencedwrit"; did you mean unfencedwrite?`},
		{"checks", `"all,-weaktokn"`, `unknown analyzer "weaktokn"; did you mean weaktoken?`},
		{"fail", `"nosuch"`, `-fail: unknown analyzer "nosuch" (fencelint -list`},
		{"checks", `"SA*"`, `unknown analyzer "SA*"`},
		{"checks", `"all,"`, "empty analyzer name"},
	} {
		err := checkNames(tc.flag, tc.value, known)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("-%s=%s: %v", tc.flag, tc.value, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("-%s=%s: error %v, want one containing %q", tc.flag, tc.value, err, tc.wantErr)
		}
	}
}

// TestTypos pins that a misspelt analyzer name is a usage error (exit 2,
// with a did-you-mean) wherever the CLI takes one, instead of silently
// running or failing on nothing.
func TestTypos(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fencelint")
	}
	bin := fencelintBinary(t)
	dir := t.TempDir()
	for name, body := range map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"m.go":   "package m\n\nfunc F() int {\n\t//fencelint:ignore unfencedwrit typo in the name\n\treturn 1\n}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args        []string
		stdout      string // substring
		stderr      string // substring
		stdoutTimes int    // how often stdout holds the substring
	}{
		{[]string{"-checks=unfencedwrit", "./..."}, "", `-checks: unknown analyzer "unfencedwrit"; did you mean unfencedwrite?`, 0},
		{[]string{"-fail=nosuch", "./..."}, "", `-fail: unknown analyzer "nosuch"`, 0},
		{[]string{"-checks=", "./..."}, "", "-checks is empty", 0},
		{[]string{"-explain=silentrejct"}, "", "did you mean silentreject?", 0},
		{[]string{"./..."}, "m.go:4:2: //fencelint:ignore names unknown analyzer unfencedwrit; did you mean unfencedwrite? (unfencedwrite)", "name an unknown analyzer", 1},
		// unfencedwrite, which reports bad ignores under go vet, is left out here.
		{[]string{"-checks=weaktoken,silentreject", "./..."}, "unknown analyzer unfencedwrit; did you mean unfencedwrite?", "name an unknown analyzer", 1},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			stdout, stderr, code := run(t, dir, os.Environ(), bin, tc.args...)
			if code != exitFailure {
				t.Errorf("exit %d, want %d", code, exitFailure)
			}
			if got := strings.Count(string(stdout), tc.stdout); tc.stdout != "" && got != tc.stdoutTimes {
				t.Errorf("stdout holds %q %d times, want %d:\n%s", tc.stdout, got, tc.stdoutTimes, stdout)
			}
			if !strings.Contains(string(stderr), tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, stderr)
			}
		})
	}
}

// TestConfigTypos: a staticcheck.conf checks entry within two edits of a
// fencelint analyzer is a usage error naming the file; staticcheck's own
// check names, which shared files carry, are accepted.
func TestConfigTypos(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fencelint")
	}
	bin := fencelintBinary(t)
	for _, tc := range []struct {
		conf   string
		code   int
		stderr string
	}{
		{`checks = ["all", "-ST1000", "-SA*", "-weaktoken"]`, exitClean, ""},
		{`checks = ["all", "-ST1000", "-weaktokn"]`, exitFailure, `fencelint: sub/staticcheck.conf: checks names unknown analyzer "-weaktokn"; did you mean weaktoken?`},
	} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		for name, body := range map[string]string{
			"go.mod":               "module example.com/m\n\ngo 1.26\n",
			"sub/m.go":             "package sub\n\nfunc F() int { return 1 }\n",
			"sub/staticcheck.conf": tc.conf + "\n",
		} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, stderr, code := run(t, dir, os.Environ(), bin, "./...")
		if code != tc.code || !strings.Contains(string(stderr), tc.stderr) {
			t.Errorf("%s: exit %d, want %d; stderr (want %q):\n%s", tc.conf, code, tc.code, tc.stderr, stderr)
		}
	}
}
