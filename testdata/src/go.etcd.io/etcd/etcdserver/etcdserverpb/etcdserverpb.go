// Package etcdserverpb is a stub of go.etcd.io/etcd/etcdserver/etcdserverpb (go.etcd.io/etcd@v0.0.0-20200520232829-54ba9589114f), the etcd client before the 3.5 module split, for fencelint's
// analysistest cases: API only, a subset of the real declarations,
// written by hand from the declarations of go.etcd.io/etcd/client/v3's stub and
// checked against the real old module (testdata/realapi/etcd34) by
// TestStubsMatchRealModules in analyzer/internal/fencetest. rules/ knows
// it by its new path (rules.LibPath).
package etcdserverpb

import (
	"go.etcd.io/etcd/mvcc/mvccpb"
)

type ResponseHeader struct {
	ClusterId uint64
	MemberId  uint64
	Revision  int64
	RaftTerm  uint64
}

type RangeResponse struct {
	Header *ResponseHeader
	Kvs    []*mvccpb.KeyValue
	Count  int64
}

type PutResponse struct {
	Header *ResponseHeader
}

type DeleteRangeResponse struct {
	Header *ResponseHeader
}

type ResponseOp struct{}

type TxnResponse struct {
	Header    *ResponseHeader
	Succeeded bool
	Responses []*ResponseOp
}

type CompactionResponse struct{}

type LeaseRevokeResponse struct{}
