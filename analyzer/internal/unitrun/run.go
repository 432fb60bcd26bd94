// Package unitrun runs go/analysis analyzers over one type-checked package
// (a unit), for fencelint's two drivers: the go vet driver
// (analyzer/internal/vetdriver) and the standalone CLI's driver
// (analyzer/internal/standalone). Each driver loads the unit its own way
// and decides which dependency facts it sees (see Facts); what is shared
// is the analysis itself: the whole analysis.Pass API, prerequisites first
// and independent analyzers in parallel, each analyzer once, and the fact
// set with its deterministic encoding.
package unitrun

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// Unit is a type-checked package and what its analyzers may ask about it.
type Unit struct {
	Fset         *token.FileSet
	Files        []*ast.File
	OtherFiles   []string
	IgnoredFiles []string
	Pkg          *types.Package
	Info         *types.Info
	Sizes        types.Sizes
	Module       *analysis.Module // nil when the driver does not know it
	Facts        *Facts

	// Report, when set, sees each diagnostic as its analyzer reports it
	// and returns what is kept (the go vet driver validates fixes there).
	Report func(a *analysis.Analyzer, d analysis.Diagnostic) analysis.Diagnostic
	// Finish, when set, runs after an analyzer succeeded, over its
	// diagnostics (the go vet driver resolves their URLs there); an error
	// becomes the analyzer's.
	Finish func(a *analysis.Analyzer, diags []analysis.Diagnostic) error
}

// Result is one analyzer's outcome: what it reported (also when it then
// failed) and its error, or "failed prerequisites" when one it requires
// failed.
type Result struct {
	Analyzer    *analysis.Analyzer
	Diagnostics []analysis.Diagnostic
	Err         error
}

// Run runs analyzers (and what they require) over u and returns their
// results, in the order of analyzers.
func Run(u *Unit, analyzers []*analysis.Analyzer) []Result {
	g := &graph{u: u, actions: make(map[*analysis.Analyzer]*action)}
	for a := range Closure(analyzers) {
		g.actions[a] = new(action)
	}
	g.execAll(analyzers)
	out := make([]Result, len(analyzers))
	for i, a := range analyzers {
		act := g.actions[a]
		out[i] = Result{a, act.diagnostics, act.err}
	}
	return out
}

// Closure is analyzers and everything they require.
func Closure(analyzers []*analysis.Analyzer) map[*analysis.Analyzer]bool {
	seen := make(map[*analysis.Analyzer]bool)
	var visit func([]*analysis.Analyzer)
	visit = func(as []*analysis.Analyzer) {
		for _, a := range as {
			if !seen[a] {
				seen[a] = true
				visit(a.Requires)
			}
		}
	}
	visit(analyzers)
	return seen
}

// FactProducers is what a facts-only run of a dependency needs: the
// analyzers of analyzers' closure that declare facts. No other analyzer
// can export one, and their diagnostics would be discarded. The order is
// the closure's, by name.
func FactProducers(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for a := range Closure(analyzers) {
		if len(a.FactTypes) > 0 {
			out = append(out, a)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// graph runs one unit's analyzers, each once, prerequisites first and
// independent analyzers in parallel.
type graph struct {
	u       *Unit
	actions map[*analysis.Analyzer]*action
}

type action struct {
	once        sync.Once
	mu          sync.Mutex // guards diagnostics: an analyzer may report from its own goroutines
	result      any
	err         error
	diagnostics []analysis.Diagnostic
}

func (g *graph) execAll(analyzers []*analysis.Analyzer) {
	var wg sync.WaitGroup
	for _, a := range analyzers {
		wg.Go(func() { g.exec(a) })
	}
	wg.Wait()
}

func (g *graph) exec(a *analysis.Analyzer) *action {
	act := g.actions[a]
	act.once.Do(func() {
		g.execAll(a.Requires)
		inputs := make(map[*analysis.Analyzer]any, len(a.Requires))
		var failed []string
		for _, req := range a.Requires {
			r := g.exec(req)
			if r.err != nil {
				failed = append(failed, req.String())
				continue
			}
			inputs[req] = r.result
		}
		if failed != nil {
			sort.Strings(failed)
			act.err = fmt.Errorf("failed prerequisites: %s", strings.Join(failed, ", "))
			return
		}
		act.result, act.err = a.Run(g.pass(a, act, inputs))
		if act.err == nil && g.u.Finish != nil {
			act.err = g.u.Finish(a, act.diagnostics)
		}
	})
	return act
}

// pass is a's view of the unit: the whole analysis.Pass API, facts
// restricted to a's own fact types where the API says so.
func (g *graph) pass(a *analysis.Analyzer, act *action, inputs map[*analysis.Analyzer]any) *analysis.Pass {
	u := g.u
	own := make(map[reflect.Type]bool, len(a.FactTypes))
	for _, f := range a.FactTypes {
		own[reflect.TypeOf(f)] = true
	}
	pass := &analysis.Pass{
		Analyzer:     a,
		Fset:         u.Fset,
		Files:        u.Files,
		OtherFiles:   u.OtherFiles,
		IgnoredFiles: u.IgnoredFiles,
		Pkg:          u.Pkg,
		TypesInfo:    u.Info,
		TypesSizes:   u.Sizes,
		TypeErrors:   nil, // a unit that does not type-check is not analysed
		ResultOf:     inputs,
		Module:       u.Module,
		Report: func(d analysis.Diagnostic) {
			if u.Report != nil {
				d = u.Report(a, d)
			}
			act.mu.Lock()
			act.diagnostics = append(act.diagnostics, d)
			act.mu.Unlock()
		},
		ImportObjectFact:  u.Facts.ImportObject,
		ExportObjectFact:  u.Facts.ExportObject,
		ImportPackageFact: u.Facts.ImportPackage,
		ExportPackageFact: u.Facts.ExportPackage,
		AllObjectFacts:    func() []analysis.ObjectFact { return u.Facts.AllObject(own) },
		AllPackageFacts:   func() []analysis.PackageFact { return u.Facts.AllPackage(own) },
	}
	pass.ReadFile = func(name string) ([]byte, error) {
		if !readable(pass, name) {
			return nil, fmt.Errorf("Pass.ReadFile: %s is not among OtherFiles, IgnoredFiles, or names of Files", name)
		}
		return os.ReadFile(name)
	}
	return pass
}

// readable is the ReadFile policy of analysis.Pass: the unit's own files.
func readable(pass *analysis.Pass, name string) bool {
	if slices.Contains(pass.OtherFiles, name) || slices.Contains(pass.IgnoredFiles, name) {
		return true
	}
	for _, f := range pass.Files {
		if pass.Fset.File(f.FileStart).Name() == name {
			return true
		}
	}
	return false
}
