package analyzer

import (
	"go/ast"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/vetdriver"
)

// VetMain is the go vet -vettool protocol for fencelint's analyzers. It
// skips, without parsing or type-checking them, the packages the engine's
// relevance test rules out from their imports and a scan of their source,
// and imports dependencies' types from the compiler's export data (see
// analyzer/internal/vetdriver). It does not return.
func VetMain() {
	var wrappersOnly bool // mayMatter's answer for the unit (one per process)
	hooks := vetdriver.Hooks{
		MayMatter: func(u vetdriver.Unit) (bool, error) {
			v, err := fence.RelevanceOf(u.ImportPath, u.Imports, u.ImportHasFacts, u.Calling, u.GoFiles, u.ParseFile)
			wrappersOnly = v == fence.WrappersOnly
			return v != fence.Skip, err
		},
		// In a package kept only for the no-return wrappers it may
		// declare, the engine reads no other function's body.
		Bodies: func(u vetdriver.Unit, files []*ast.File) (map[*ast.FuncDecl]bool, error) {
			if !wrappersOnly {
				return nil, nil
			}
			return fence.WrapperCandidates(files, u.Calling), nil
		},
		WeakFact: fence.WeakFact,
		PassOn:   fence.PassOn,
	}
	vetdriver.Main(hooks, Analyzers()...)
}
