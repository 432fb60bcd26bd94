package rules

import (
	"strings"
	"testing"
)

func TestGormEcosystemIsLibrary(t *testing.T) {
	for _, p := range []string{"gorm.io/gorm", "gorm.io/gen", "gorm.io/gen/field", "gorm.io/plugin/dbresolver"} {
		if !IsLibraryPackage(p) {
			t.Errorf("IsLibraryPackage(%q) = false: a gorm library would get write facts from chains it cannot see whole", p)
		}
	}
	if IsLibraryPackage("gorm.iox/app") || IsLibraryPackage("example.com/gorm.io") {
		t.Error("IsLibraryPackage matches beyond the gorm.io module path")
	}
}

// TestAppsInLibraryModules: only a library's own packages are library
// code; the programs in its module (contrib, examples, cmd, tools) are not.
func TestAppsInLibraryModules(t *testing.T) {
	for path, want := range map[string]bool{
		"go.etcd.io/etcd/client/v3":                      true,
		"go.etcd.io/etcd/client/v3/concurrency":          true,
		"go.etcd.io/etcd/server/v3/etcdserver":           true,
		"github.com/go-co-op/gocron/v2":                  true,
		"go.etcd.io/etcd/contrib/lock":                   false,
		"go.etcd.io/etcd/etcdctl/v3/ctlv3/command":       false,
		"go.etcd.io/etcd/tools/v3/benchmark/cmd":         false,
		"github.com/go-redsync/redsync/v4/examples/pg":   false,
		"github.com/go-co-op/gocron/v2/examples":         false,
		"github.com/go-co-op/gocron/v2/examples/elector": false,
		"github.com/go-co-op/gocron/v2/mocks":            true,
		"go.etcd.io/etcd/clientv3/concurrency":           true,
		"go.etcd.io/etcd/etcdctl/ctlv3/command":          false, // etcd 3.4's etcdctl
		"github.com/coreos/etcd/clientv3":                true,
		"github.com/coreos/etcd/contrib/recipes":         false,
		"k8s.io/apimachinery/pkg/api/errors":             true,
		"gorm.io/gen/examples":                           true, // gorm: the whole ecosystem
		"example.com/app":                                false,
	} {
		if got := IsLibraryPackage(path); got != want {
			t.Errorf("IsLibraryPackage(%q) = %t, want %t", path, got, want)
		}
	}
}

// TestAdvisoryLock: advisory-lock SQL is recognised in any letter case,
// and only the pg_ advisory functions and MySQL's named-lock functions
// count (called, not named in a column or as part of another function).
func TestAdvisoryLock(t *testing.T) {
	for _, c := range []struct {
		sql                    string
		acquire, release, xact bool
	}{
		{"SELECT pg_advisory_lock($1)", true, false, false},
		{"select PG_TRY_ADVISORY_LOCK(42)", true, false, false},
		{"SELECT pg_advisory_xact_lock(hashtext($1))", true, false, true},
		{"SELECT Pg_Try_Advisory_Xact_Lock($1)", true, false, true},
		{"SELECT pg_advisory_unlock($1)", false, true, false},
		{"SELECT PG_ADVISORY_UNLOCK_ALL()", false, true, false},
		{"UPDATE t SET advisory_note = $1", false, false, false},
		{"SELECT my_advisory_lock($1)", false, false, false},
		{"", false, false, false},
		// MySQL and MariaDB named locks: session-level only.
		{"SELECT GET_LOCK(?, 10)", true, false, false},
		{"select get_lock (concat('job:', ?), -1)", true, false, false},
		{"DO GET_LOCK(?, 0)", true, false, false},
		{"SELECT RELEASE_LOCK(?)", false, true, false},
		{"SELECT release_all_locks()", false, true, false},
		{"SELECT IS_FREE_LOCK(?)", false, false, false},
		{"SELECT IS_USED_LOCK(?)", false, false, false},
		{"SELECT my_get_lock(?)", false, false, false},
		{"UPDATE jobs SET get_lock_at = now() WHERE id = ?", false, false, false},
		{"SELECT util.get_lock(?)", false, false, false},
	} {
		l := AdvisoryLock(c.sql)
		if l.Acquire != c.acquire || l.Release != c.release || l.Xact != c.xact {
			t.Errorf("AdvisoryLock(%q) = %+v; want acquire %v, release %v, xact %v", c.sql, l, c.acquire, c.release, c.xact)
		}
		wantKind := ""
		switch {
		case !c.acquire && !c.release:
		case strings.Contains(strings.ToLower(c.sql), "get_lock") || strings.Contains(strings.ToLower(c.sql), "release_"):
			wantKind = MySQLNamedLock
		default:
			wantKind = AdvisoryLockName
		}
		if l.Kind != wantKind {
			t.Errorf("AdvisoryLock(%q).Kind = %q, want %q", c.sql, l.Kind, wantKind)
		}
	}
}

func TestIsTestDoubleName(t *testing.T) {
	for name, want := range map[string]bool{
		"mockStore": true, "MockStore": true, "FakeClient": true, "fake": true, "noopLocker": true,
		"NopStore": true, "nullLocker": true, "storeMock": true, "StoreFake": true, "stubLocker": true,
		"storetest": true, "mocks": true, "fakes": true, "testutil": true, "TestStore": true,
		"LockNoop": true, "lockNoop": true, "locknoop": true,
		// real implementations
		"Store": false, "pgStore": false, "Notifier": false, "Nominal": false, "nopeStore": false,
		"Mocker": false, "Testament": false, "redisLocker": false, "etcdStore": false, "Contest": false,
		"Snoop": false, "LockSnoop": false,
	} {
		if got := IsTestDoubleName(name); got != want {
			t.Errorf("IsTestDoubleName(%q) = %t, want %t", name, got, want)
		}
	}
}

// TestRetryRunnerNames: the name filter of RetryRunnerArg lets every
// runner through.
func TestRetryRunnerNames(t *testing.T) {
	for key := range RetryRunners {
		name := key[strings.LastIndexByte(key, '.')+1:]
		if !retryRunnerNames[name] {
			t.Errorf("RetryRunners key %s: name %s missing from retryRunnerNames", key, name)
		}
	}
}
