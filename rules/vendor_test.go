package rules

import "testing"

func TestLibPath(t *testing.T) {
	for in, want := range map[string]string{
		"github.com/hashicorp/consul/api":                                              "github.com/hashicorp/consul/api",
		"example.com/app/vendor/github.com/hashicorp/consul/api":                       "github.com/hashicorp/consul/api",
		"vendor/github.com/redis/go-redis/v9":                                          "github.com/redis/go-redis/v9",
		"example.com/app/Godeps/_workspace/src/github.com/samuel/go-zookeeper/zk":      "github.com/samuel/go-zookeeper/zk",
		"example.com/app/vendor/example.com/lib/Godeps/_workspace/src/go.etcd.io/etcd": "go.etcd.io/etcd",
		"example.com/vendorlib/api":                                                    "example.com/vendorlib/api",
		"go.etcd.io/etcd/clientv3":                                                     "go.etcd.io/etcd/client/v3",
		"go.etcd.io/etcd/clientv3/concurrency":                                         "go.etcd.io/etcd/client/v3/concurrency",
		"go.etcd.io/etcd/etcdserver/etcdserverpb":                                      "go.etcd.io/etcd/api/v3/etcdserverpb",
		"go.etcd.io/etcd/mvcc/mvccpb":                                                  "go.etcd.io/etcd/api/v3/mvccpb",
		"github.com/coreos/etcd/clientv3/concurrency":                                  "go.etcd.io/etcd/client/v3/concurrency",
		"example.com/app/vendor/github.com/coreos/etcd/clientv3":                       "go.etcd.io/etcd/client/v3",
		"go.etcd.io/etcd/clientv3/leasing":                                             "go.etcd.io/etcd/clientv3/leasing",
		"go.etcd.io/etcd/client":                                                       "go.etcd.io/etcd/client",
		"github.com/coreos/etcdx/clientv3":                                             "github.com/coreos/etcdx/clientv3",
	} {
		if got := LibPath(in); got != want {
			t.Errorf("LibPath(%q) = %q, want %q", in, got, want)
		}
	}
}
