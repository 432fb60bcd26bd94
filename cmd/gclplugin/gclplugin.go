// Package gclplugin registers fencelint's analyzers as golangci-lint v2
// module plugins.
//
// Each analyzer in analyzer.All becomes its own plugin, registered under the
// analyzer's name (unfencedwrite, optionaltoken, ...). golangci-lint names a
// module plugin's issues after the plugin, not after the analyzer, and
// matches //nolint:NAME against that plugin name; one plugin per analyzer
// therefore gives issues "(unfencedwrite)" and makes //nolint:unfencedwrite
// work, where a single "fencelint" plugin would only honour //nolint:fencelint.
//
// The package is meant to be linked into a custom golangci-lint binary (see
// docs/golangci-lint.md); it has no main. Each plugin is enabled and
// configured in .golangci.yml:
//
//	linters:
//	  enable: [unfencedwrite]
//	  settings:
//	    custom:
//	      unfencedwrite:
//	        type: module
//	        description: writes under a distributed lock without a fencing token
//	        settings:
//	          flags:
//	            some-flag: "value"
//
// Settings are decoded strictly: an unknown key, or a flag the analyzer does
// not define, fails the golangci-lint run.
//
// Diagnostics reach golangci-lint without their Related locations (see
// withoutRelated): golangci-lint would turn each into an issue of its own
// that a //nolint on the finding's line does not suppress.
package gclplugin

import (
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fencelint/fencelint/analyzer"
	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
)

func init() {
	for _, a := range analyzer.All {
		register.Plugin(a.Analyzer.Name, newFor(a.Analyzer))
	}
}

// Settings is one plugin's linters.settings.custom.<name>.settings.
type Settings struct {
	// Flags sets the analyzer's own flags (Analyzer.Flags, the -NAME.flag
	// of go vet and the standalone CLI), by flag name without the analyzer
	// prefix. Values are strings: quote numbers and booleans in YAML.
	//
	// Analyzers are package-level singletons, so a flag set here changes
	// that analyzer for the whole golangci-lint process. That is harmless
	// there (one configuration per run), but it is global state: only the
	// flags listed are set, and nothing else is touched.
	Flags map[string]string `json:"flags"`
}

// plugin serves one analyzer to golangci-lint.
type plugin struct {
	a *analysis.Analyzer // withoutRelated(the analyzer)
}

// newFor returns the constructor golangci-lint calls with the raw settings
// of the plugin named a.Name.
func newFor(a *analysis.Analyzer) register.NewPlugin {
	wrapped := withoutRelated(a)
	return func(conf any) (register.LinterPlugin, error) {
		s, err := register.DecodeSettings[Settings](conf) // unknown keys are errors
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.Name, err)
		}
		if err := setFlags(a, s.Flags); err != nil {
			return nil, fmt.Errorf("%s: %w", a.Name, err)
		}
		return &plugin{a: wrapped}, nil
	}
}

// withoutRelated returns a copy of a (same name, flags, requirements) whose
// diagnostics carry no Related information.
//
// golangci-lint v2 reports each related location as a separate issue,
// "unfencedwrite(related information): the lease this function holds", at
// that location (pkg/goanalysis/runners.go). fencelint attaches one to
// nearly every finding (the lease parameter, the acquire call), so each
// finding would count twice, and a //nolint:unfencedwrite on the finding's
// line would leave the related issue on the other line failing the run.
// The message itself names the lease and the fix; the other frontends (CLI,
// go vet -json) still show the related locations.
func withoutRelated(a *analysis.Analyzer) *analysis.Analyzer {
	w := *a
	w.Run = func(pass *analysis.Pass) (any, error) {
		report := pass.Report
		p := *pass
		p.Report = func(d analysis.Diagnostic) {
			d.Related = nil
			report(d)
		}
		return a.Run(&p)
	}
	return &w
}

// setFlags applies flags to a.Flags in name order (so errors are stable).
func setFlags(a *analysis.Analyzer, flags map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(flags)) {
		if a.Flags.Lookup(name) == nil {
			return fmt.Errorf("unknown flag %q (known: %s)", name, knownFlags(a))
		}
		if err := a.Flags.Set(name, flags[name]); err != nil {
			return fmt.Errorf("flag %q: %w", name, err)
		}
	}
	return nil
}

func knownFlags(a *analysis.Analyzer) string {
	var names []string
	a.Flags.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if len(names) == 0 {
		return "none"
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// BuildAnalyzers returns the plugin's single analyzer; golangci-lint runs
// its Requires (fencelint's shared analyzers) and reports only its
// diagnostics.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{p.a}, nil
}

// GetLoadMode asks for type information: every fencelint analyzer needs
// types (and facts from dependencies).
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
