// Package mvccpb is a stub of go.etcd.io/etcd/mvcc/mvccpb (go.etcd.io/etcd@v0.0.0-20200520232829-54ba9589114f), the etcd client before the 3.5 module split, for fencelint's
// analysistest cases: API only, a subset of the real declarations,
// written by hand from the declarations of go.etcd.io/etcd/client/v3's stub and
// checked against the real old module (testdata/realapi/etcd34) by
// TestStubsMatchRealModules in analyzer/internal/fencetest. rules/ knows
// it by its new path (rules.LibPath).
package mvccpb

type KeyValue struct {
	Key            []byte
	CreateRevision int64
	ModRevision    int64
	Version        int64
	Value          []byte
	Lease          int64
}
