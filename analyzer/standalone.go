package analyzer

import (
	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/standalone"
)

// The standalone CLI's driver (analyzer/internal/standalone): lintcmd's
// package graph, analysed dependencies first without loading from source
// the packages the engine's relevance test rules out, each package's
// results cached. The CLI hands the results to lintcmd for output.
type (
	LintOptions = standalone.Options
	LintResult  = standalone.Result
	LintStats   = standalone.Stats
)

// Lint runs the standalone driver with fencelint's relevance test
// (fence.MayBeRelevantCalling with fence.WeakFact and fence.PassOn, as the
// go vet driver does) unless full is set, in which case every package is
// loaded and analysed as lintcmd's runner would.
func Lint(opts LintOptions, full bool) ([]LintResult, LintStats, error) {
	opts.MayMatter, opts.WeakFact, opts.PassOn = nil, nil, nil
	if !full {
		opts.MayMatter = fence.MayBeRelevantCalling
		opts.WeakFact = fence.WeakFact
		opts.PassOn = fence.PassOn
	}
	return standalone.Run(opts)
}
