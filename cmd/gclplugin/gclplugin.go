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
//
// fencelint's analyzers have no settings and no flags (teach them your
// lock API with //fencelint: directives, which every driver sees). The
// settings are still decoded strictly, so any key, such as a flags: map
// copied from older documentation, fails the golangci-lint run instead of
// being ignored.
//
// Diagnostics reach golangci-lint without their Related locations (see
// withoutRelated): golangci-lint would turn each into an issue of its own
// that a //nolint on the finding's line does not suppress.
package gclplugin

import (
	"fmt"

	"github.com/fencelint/fencelint/analyzer"
	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
)

func init() {
	for _, a := range analyzer.All {
		register.Plugin(a.Analyzer.Name, newFor(a.Analyzer))
	}
}

// Settings is one plugin's linters.settings.custom.<name>.settings. It has
// no keys: fencelint's analyzers define no flags, and configuration goes
// through //fencelint: directives in code.
type Settings struct{}

// plugin serves one analyzer to golangci-lint.
type plugin struct {
	a *analysis.Analyzer // withoutRelated(the analyzer)
}

// newFor returns the constructor golangci-lint calls with the raw settings
// of the plugin named a.Name.
func newFor(a *analysis.Analyzer) register.NewPlugin {
	wrapped := withoutRelated(a)
	return func(conf any) (register.LinterPlugin, error) {
		if _, err := register.DecodeSettings[Settings](conf); err != nil { // every key is unknown
			return nil, fmt.Errorf("%s: %w (fencelint's analyzers take no settings; use //fencelint: directives)", a.Name, err)
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

// BuildAnalyzers returns the plugin's single analyzer; golangci-lint runs
// its Requires (fencelint's shared analyzers) and reports only its
// diagnostics.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{p.a}, nil
}

// GetLoadMode asks for type information: every fencelint analyzer needs
// types (and facts from dependencies).
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
