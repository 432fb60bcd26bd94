// Package fencetest holds test utilities shared by fencelint's analyzer
// tests: the location of the GOPATH tree of test cases and library stubs.
package fencetest

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// modulePath is the root module's path; TestData looks for its go.mod.
const modulePath = "github.com/fencelint/fencelint"

// TestData returns the absolute path of the repository's top-level testdata
// directory. analysistest.Run uses it as GOPATH: its src/ holds the test
// cases and the library stubs at their real import paths.
//
// It walks up from the test's working directory (the package directory
// under go test), then from this source file, to the directory whose go.mod
// declares the root module, so nested modules such as testdata/realapi are
// skipped.
func TestData(t testing.TB) string {
	t.Helper()
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		starts = append(starts, filepath.Dir(file))
	}
	for _, dir := range starts {
		if root, ok := findRoot(dir); ok {
			return filepath.Join(root, "testdata")
		}
	}
	t.Fatalf("fencetest: no go.mod of module %s above %v", modulePath, starts)
	return ""
}

// findRoot returns the nearest directory at or above dir whose go.mod
// declares modulePath.
func findRoot(dir string) (string, bool) {
	for {
		if moduleOf(filepath.Join(dir, "go.mod")) == modulePath {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// moduleOf returns the module path declared by the go.mod file at path,
// or "" if there is none.
func moduleOf(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			if f := strings.Fields(rest); len(f) > 0 {
				return strings.Trim(f[0], `"`)
			}
		}
	}
	return ""
}
