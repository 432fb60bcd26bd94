package unfencedwrite_test

import (
	"testing"

	"github.com/fencelint/fencelint/analyzer/unfencedwrite"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestInterfaceMirrors: application interfaces that mirror a store (sqlc's
// DBTX, a go-redis wrapper) are judged like the store (issue 13).
func TestInterfaceMirrors(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/mirror", "unfencedwrite/mirror/user")
}

// TestCrossPackageInterface: an interface of one package implemented in
// others that the caller does not import is resolved through the
// implementing packages' ImplsFacts; disagreeing implementations give no
// answer and a mocks package does not vote.
func TestCrossPackageInterface(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/xiface/app")
}

// TestVanityProject: packages of a project served from its own domain
// (example.com/vanity/..., as go.temporal.io/server/...) are one project:
// an interface of one is resolved over the implementations of another.
func TestVanityProject(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "example.com/vanity/app")
}

// TestPorts: a service that takes its lock and writes through ports
// (application interfaces implemented in other packages) has lock scopes
// and writes, and the token a lease hands out through a method, or a
// handle through a field only ever set to it, is a token.
func TestPorts(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/ports/svc")
}

// TestConsumerPorts: a port declared by its consumer, with no
// implementation visible there (main wires it), is taken to write when
// its method says so (rules.IsPortWriteMethod).
func TestConsumerPorts(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/ports/consumer")
}
