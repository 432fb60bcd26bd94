package pgproof

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// LoadTestdata loads patterns (e.g. "unfencedwrite/...") from the GOPATH
// tree testdata (the repository's testdata directory, absolute) with full
// syntax, as analysistest does.
func LoadTestdata(testdata string, patterns ...string) ([]*packages.Package, error) {
	abs, err := filepath.Abs(testdata)
	if err != nil {
		return nil, err
	}
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax,
		Dir:   filepath.Join(abs, "src"),
		Tests: false,
		Env: append(os.Environ(),
			"GO111MODULE=off",
			"GOPATH="+abs,
			"GOWORK=off",
			"GOFLAGS=-mod=mod",
			"GOPROXY=off",
		),
	}
	return load(cfg, patterns)
}

// LoadModule loads patterns in module mode from dir (e.g. "std" from the
// repository root).
func LoadModule(dir string, patterns ...string) ([]*packages.Package, error) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	return load(cfg, patterns)
}

func load(cfg *packages.Config, patterns []string) ([]*packages.Package, error) {
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		sort.Strings(errs)
		return nil, fmt.Errorf("loading %v: %d errors, first: %s", patterns, len(errs), errs[0])
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("loading %v: no packages", patterns)
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].PkgPath < pkgs[j].PkgPath })
	return pkgs, nil
}

// Analyze runs analyzers over pkgs with the go/analysis checker.
func Analyze(analyzers []*analysis.Analyzer, pkgs []*packages.Package, opts *checker.Options) (*checker.Graph, error) {
	return checker.Analyze(analyzers, pkgs, opts)
}

// CaseDirs returns the analysistest case directories under testdata/src
// (unfencedwrite, fencepredicate, ...), as "dir/..." patterns: every
// top-level directory whose name has no dot (the others hold library stubs
// at their real import paths).
func CaseDirs(testdata string) ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(testdata, "src"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() && !strings.Contains(e.Name(), ".") {
			out = append(out, e.Name()+"/...")
		}
	}
	return out, nil
}
