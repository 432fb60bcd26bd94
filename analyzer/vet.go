package analyzer

import (
	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/vetdriver"
)

// VetMain is the go vet -vettool protocol for fencelint's analyzers. It
// skips, without parsing or type-checking them, the packages the engine's
// relevance test rules out from their imports and a scan of their source,
// and imports dependencies' types from the compiler's export data (see
// analyzer/internal/vetdriver). It does not return.
func VetMain() {
	vetdriver.Main(vetdriver.Hooks{MayMatter: mayMatter, WeakFact: fence.WeakFact, PassOn: fence.PassOn}, Analyzers()...)
}

// mayMatter is the engine's relevance test as the driver can answer it
// before parsing: every analyzer reports only in packages the engine
// finds relevant, and only the engine exports facts.
func mayMatter(u vetdriver.Unit) (bool, error) {
	return fence.MayBeRelevantCalling(u.ImportPath, u.Imports, u.ImportHasFacts, u.Calling, u.GoFiles)
}
