package rules

import "strings"

// LibPath maps the import path of a package to the path rules/ knows it
// by. Two kinds of path are mapped:
//
//   - vendored copies (issue 13 item 4): GOPATH-era vendor directories
//     ("example.com/app/vendor/github.com/hashicorp/consul/api") and godep's
//     rewritten imports ("example.com/app/Godeps/_workspace/src/github.com/...").
//     Module-mode vendoring keeps the original path and needs nothing;
//   - the old import paths of a library whose API fencelint relies on did
//     not change when its path did (oldPaths): etcd's clientv3 before the
//     3.5 module split. They are declared once, under the new path.
//
// Other paths are returned unchanged, without allocating.
func LibPath(path string) string {
	// Most paths have neither marker: one forward search each (vectorised)
	// instead of the backward searches below, on every rule lookup; such a
	// path may still be an old etcd path (two prefix compares).
	if !strings.Contains(path, "vendor/") && !strings.Contains(path, "Godeps/_workspace/src/") {
		return newPath(path)
	}
	if i := strings.LastIndex(path, "/Godeps/_workspace/src/"); i >= 0 {
		path = path[i+len("/Godeps/_workspace/src/"):]
	} else if rest, ok := strings.CutPrefix(path, "Godeps/_workspace/src/"); ok {
		path = rest
	} else if i := strings.LastIndex(path, "/vendor/"); i >= 0 {
		path = path[i+len("/vendor/"):]
	} else if rest, ok := strings.CutPrefix(path, "vendor/"); ok {
		path = rest
	}
	return newPath(path)
}

// oldPaths maps the packages of etcd's client before the 3.5 module split
// to their path since: go.etcd.io/etcd/clientv3 (etcd 3.4, one
// go.etcd.io/etcd module) and github.com/coreos/etcd/clientv3 (etcd 3.3 and
// before). The declarations fencelint uses (Mutex.Lock, Election.Campaign
// and Rev, Session.Lease, KV.Put/Delete/Get, Txn.Commit, Compare,
// TxnResponse.Succeeded, the revisions of ResponseHeader and KeyValue) kept
// their names, receivers and meaning; the stubs of both old paths are
// checked against the real old modules (testdata/realapi/etcd34). 3.4 has
// no Mutex.TryLock, which the key table then simply never meets.
var oldPaths = map[string]string{
	"clientv3":                etcdV3,
	"clientv3/concurrency":    etcdConc,
	"etcdserver/etcdserverpb": etcdPB,
	"mvcc/mvccpb":             etcdMVCC,
}

// oldModules are the module paths oldPaths' keys are relative to.
var oldModules = [...]string{"go.etcd.io/etcd/", "github.com/coreos/etcd/"}

// newPath returns the path rules/ declares path's package under: its new
// path if it is one of oldPaths, else path itself.
func newPath(path string) string {
	for _, m := range oldModules {
		if rest, ok := strings.CutPrefix(path, m); ok {
			if p, ok := oldPaths[rest]; ok {
				return p
			}
			return path
		}
	}
	return path
}
