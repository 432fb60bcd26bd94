package unfencedwrite_test

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/fencelint/fencelint/analyzer/unfencedwrite"
	"golang.org/x/tools/go/analysis/analysistest"
)

func testdata() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata")
}

func TestLease(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/lease")
}

func TestCrossPackage(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/crosspkg/app")
}

func TestLibraries(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/libs", "unfencedwrite/gocronlocal",
		"unfencedwrite/gocronelector", "unfencedwrite/gocronjoblocker", "unfencedwrite/gocronhooks")
}

// TestAppInLibraryModule: code in a library's module that is not the
// library (etcd's contrib/lock, etcdctl) is analysed like any application.
func TestAppInLibraryModule(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "go.etcd.io/etcd/contrib/lockuser", "github.com/go-co-op/gocron/v2/examples/fencelintcase")
}

// TestOldEtcdPaths: etcd's client imported as go.etcd.io/etcd/clientv3
// (3.4) or github.com/coreos/etcd/clientv3 (3.3) is the same client.
func TestOldEtcdPaths(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/etcd34")
}

// TestK8sObjects: client-go object writes (a CAS when the object carries
// the resourceVersion read) and a Lease taken directly as a lock.
func TestK8sObjects(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/k8sobjects", "unfencedwrite/crclient")
}

// TestCallbackFields: an application's own election config whose func
// field is handed to client-go's OnStartedLeading is a callback field: a
// function stored in it runs as leader, in its package and through facts.
func TestCallbackFields(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/cbfield/election", "unfencedwrite/cbfield/app")
}

func TestRobust(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/robust")
}

// TestFunctionFilter: findings that depend on functions the engine's
// per-function SSA filter must keep (helpers, callbacks, token parameters).
func TestFunctionFilter(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/filter")
}

// TestAdvisoryLocks: PostgreSQL advisory locks taken with SQL.
func TestAdvisoryLocks(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/advisory")
}

// TestGorm: gorm chains, Save, Create and Exec.
func TestGorm(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/gormlib")
}

// TestInterfaceDirectives: directives on interface methods apply to every
// call through the interface, in its package and through facts elsewhere.
func TestInterfaceDirectives(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/ifacedir/app")
}

// TestTestDoubles: a no-op type, a mocks package and a fake in a test file
// next to the real implementation do not veto a call through the
// interface.
func TestTestDoubles(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/doubles")
}

// TestDirectiveProblems: every directive that does nothing says so.
func TestDirectiveProblems(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/dirproblems", "gorm.io/fencelintcase")
}

// TestDirectiveLockMessages: a lock made by //fencelint:acquire names the
// token it hands out, or says it has none.
func TestDirectiveLockMessages(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/dirlock")
}

// TestGuards: checks in Go that guard nothing (an error check after a
// fenced write, a zero-token test) leave the next write unfencedwrite's.
func TestGuards(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/guards")
}

// TestLuaRecord: a script that never records the fence it compares is
// unfenced (found by the Redis proof).
func TestLuaRecord(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/luarecord")
}

// TestDeclaredScopes: //fencelint:lease, //fencelint:token PARAM,
// //fencelint:holds and directives on func values (issue 18 item 5).
func TestDeclaredScopes(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/declared")
}

// TestDeclaredScopesAcrossPackages: declared lease types and func values
// reach importers as facts.
func TestDeclaredScopesAcrossPackages(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/declaredx/app")
}

// TestDirectiveWriteTokens: a //fencelint:write without token= does not
// take a random key or a timestamp in the payload for the token.
func TestDirectiveWriteTokens(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/dirtoken")
}

// TestReleaseShapes: releases through closures, returned unlock funcs and
// wrappers that hold the lock end the scope (issue 18 item 6).
func TestReleaseShapes(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/releases")
}

// TestLeaseFixtures: a lease a test builds with a constructor is a fixture,
// not a held lock; a lease from a lock service's acquire still is.
func TestLeaseFixtures(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/leasefixture")
}

// TestLeaseTables: SQL lease tables used as locks (claims, releases,
// renewals, tokens minted by the claim) and the look-alikes that are not.
func TestLeaseTables(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/leasetable")
}

// TestLeaseTableFacts: an application's lease-table lock package makes
// its claims acquires (with or without a token) and its releases releases
// in the packages that call it.
func TestLeaseTableFacts(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/leasetable/app", "unfencedwrite/leasetable/locks")
}

// TestLuaConstArgv: a script comparing only an ARGV bound to a constant
// is unfenced; one comparing an untraceable value stays unknown.
func TestLuaConstArgv(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/luaconst")
}

// TestContentAddressedKeys: a key carrying a digest of the value written
// is not a protected write; a digest of an ID is.
func TestContentAddressedKeys(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/contentkey")
}

// TestRetryRunners: a lock taken or released inside the function a retry
// runner runs (go-retry, cenkalti/backoff v4 and v5, avast/retry-go) is
// taken or released at the runner's call, also through a wrapper.
func TestRetryRunners(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/retry")
}

// TestRunners: locks taken and released through the application's own
// runners, and writes through the session that holds an advisory lock.
func TestRunners(t *testing.T) {
	analysistest.Run(t, testdata(), unfencedwrite.Analyzer, "unfencedwrite/runners", "unfencedwrite/runners/util")
}
