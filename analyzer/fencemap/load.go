package fencemap

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// ErrLoad is wrapped by Load's error when packages did not load or
// type-check (the CLI's exit 2).
var ErrLoad = errors.New("packages did not load")

// Load loads patterns in dir (with env, nil for the process's), runs the
// engine over them and their dependencies (facts flow across packages as
// under any driver), and builds the map of the packages the patterns name,
// with file names relative to dir.
//
// The map needs the engine's whole model of every root package, which no
// driver hands out (they print diagnostics), so the fence map runs the
// engine itself through the x/tools checker. It sets the engine's
// -fencelint_fence.fencemap flag for the run and restores it.
func Load(dir string, env []string, patterns []string) (*Map, error) {
	return LoadWith(Options{}, dir, env, patterns)
}

// Options tune Load.
type Options struct {
	// Sequential analyses one package at a time instead of in parallel
	// (the map must not depend on it; the determinism test compares).
	Sequential bool
}

// LoadWith is Load with options.
func LoadWith(opts Options, dir string, env []string, patterns []string) (*Map, error) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Env: env}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrLoad, err)
	}
	var loadErrs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			loadErrs = append(loadErrs, e.Error())
		}
	})
	if len(loadErrs) > 0 {
		sort.Strings(loadErrs)
		return nil, fmt.Errorf("%w:\n%s", ErrLoad, strings.Join(loadErrs, "\n"))
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("%w: no packages match %s", ErrLoad, strings.Join(patterns, " "))
	}

	flag := fence.Analyzer.Flags.Lookup("fencemap")
	old := flag.Value.String()
	if err := flag.Value.Set("true"); err != nil {
		return nil, err
	}
	defer flag.Value.Set(old)

	graph, err := checker.Analyze([]*analysis.Analyzer{fence.Analyzer}, pkgs, &checker.Options{Sequential: opts.Sequential})
	if err != nil {
		return nil, err
	}
	var models []Package
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			return nil, fmt.Errorf("%s: %v", act.Package.PkgPath, act.Err)
		}
		m, _ := act.Result.(*fence.Model)
		models = append(models, Package{Path: act.Package.PkgPath, Fset: act.Package.Fset, Model: m})
	}
	return Build(dir, models), nil
}
