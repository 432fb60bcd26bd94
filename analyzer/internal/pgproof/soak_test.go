package pgproof

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fencelint/fencelint/analyzer"
	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/fencetest"
	"golang.org/x/tools/go/analysis"
)

// TestSoakStd runs every fencelint analyzer (and the engine, to read its
// internal errors) over the whole standard library through the checker,
// as go vet would, and requires zero diagnostics, zero analyzer errors,
// zero recovered engine failures and zero panics. The standard library
// takes no distributed lock: any report is a false positive.
//
// FENCELINT_SOAK_PATTERNS overrides the package patterns ("all" adds every
// dependency of the module: x/tools, staticcheck, pgx, ...).
func TestSoakStd(t *testing.T) {
	if testing.Short() {
		t.Skip("soak test skipped under -short")
	}
	root := filepath.Dir(fencetest.TestData(t))
	start := time.Now()
	patterns := []string{"std"}
	if env := os.Getenv("FENCELINT_SOAK_PATTERNS"); env != "" {
		patterns = strings.Fields(env) // e.g. "all": std plus every module dependency
	}
	pkgs, err := LoadModule(root, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	loaded := time.Since(start)

	roots := append([]*analysis.Analyzer{fence.Analyzer}, analyzer.Analyzers()...)
	// Turn a panic in any analyzer's Run, on any package, into an error
	// naming both (the checker lets panics kill the process). The Run
	// fields are restored afterwards.
	var mu sync.Mutex
	var panics []string
	var all []*analysis.Analyzer
	seen := map[*analysis.Analyzer]bool{}
	var walk func(a *analysis.Analyzer)
	walk = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		all = append(all, a)
		for _, r := range a.Requires {
			walk(r)
		}
	}
	for _, a := range roots {
		walk(a)
	}
	for _, a := range all {
		orig := a.Run
		a.Run = func(pass *analysis.Pass) (res any, err error) {
			defer func() {
				if r := recover(); r != nil {
					msg := fmt.Sprintf("%s on %s: panic: %v\n%s", pass.Analyzer.Name, pass.Pkg.Path(), r, debug.Stack())
					mu.Lock()
					panics = append(panics, msg)
					mu.Unlock()
					res, err = nil, fmt.Errorf("panic: %v", r)
				}
			}()
			return orig(pass)
		}
		defer func() { a.Run = orig }()
	}

	g, err := Analyze(roots, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)

	var diags, errs, internal []string
	relevant := 0
	for act := range g.All() {
		if act.Err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", act, act.Err))
		}
		if !act.IsRoot {
			continue
		}
		for _, d := range act.Diagnostics {
			diags = append(diags, fmt.Sprintf("%s: [%s] %s", act.Package.Fset.Position(d.Pos), act.Analyzer.Name, d.Message))
		}
		if m, ok := act.Result.(*fence.Model); ok {
			if m.Relevant {
				relevant++
			}
			for _, in := range m.Internal {
				internal = append(internal, fmt.Sprintf("%s: %s: %s", act.Package.Fset.Position(in.Pos), in.Func, firstLine(in.Msg)))
			}
		}
	}
	for _, l := range [][]string{diags, errs, internal} {
		sort.Strings(l)
	}
	summary := fmt.Sprintf("soak %v: %d packages, %d analyzers, %d relevant to the engine; load %v, total %v; %d diagnostics, %d errors, %d engine internal errors, %d panics",
		patterns, len(pkgs), len(roots), relevant, loaded.Round(time.Millisecond), elapsed.Round(time.Millisecond), len(diags), len(errs), len(internal), len(panics))
	t.Log(summary)
	fmt.Println(summary)
	report := func(what string, l []string) {
		if len(l) > 0 {
			t.Errorf("%d %s:\n%s", len(l), what, strings.Join(l[:min(len(l), 50)], "\n"))
		}
	}
	report("panics", panics)
	report("analyzer errors", errs)
	report("engine internal errors", internal)
	report("diagnostics on the standard library", diags)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
