package analyzer

import "github.com/fencelint/fencelint/analyzer/internal/fence"

// MayMatter is the engine's relevance test as a driver can answer it
// before parsing a package (fence.MayBeRelevant, the test the go vet
// driver uses): false only when the analyzers would export no fact for the
// package and report nothing in it. imports are the package paths of its
// direct imports, importHasFacts(path) whether that import may carry facts
// (true when unknown), files every Go file of the package.
func MayMatter(path string, imports []string, importHasFacts func(string) bool, files []string) (bool, error) {
	return fence.MayBeRelevant(path, imports, importHasFacts, files)
}
