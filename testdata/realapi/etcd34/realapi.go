// Package etcd34 pins the etcd client of before the 3.5 module split
// (import path go.etcd.io/etcd/clientv3, gRPC 1.26) and the
// github.com/coreos/etcd/clientv3 of etcd 3.3 before it, whose stubs in ../../src
// mirror it. It is a module of its own because that client does not build
// with the gRPC the newer modules of ../ require.
// fencetest.TestStubsMatchRealModules loads the old packages from here.
package etcd34

import (
	_ "github.com/coreos/etcd/clientv3"
	_ "github.com/coreos/etcd/clientv3/concurrency"
	_ "go.etcd.io/etcd/clientv3"
	_ "go.etcd.io/etcd/clientv3/concurrency"
	_ "go.etcd.io/etcd/etcdserver/etcdserverpb"
	_ "go.etcd.io/etcd/mvcc/mvccpb"
)
