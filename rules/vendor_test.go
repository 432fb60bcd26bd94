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
	} {
		if got := LibPath(in); got != want {
			t.Errorf("LibPath(%q) = %q, want %q", in, got, want)
		}
	}
}
