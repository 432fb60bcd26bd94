// Package clientv3 is a stub of go.etcd.io/etcd/clientv3 (go.etcd.io/etcd@v0.0.0-20200520232829-54ba9589114f), the etcd client before the 3.5 module split, for fencelint's
// analysistest cases: API only, a subset of the real declarations,
// written by hand from the declarations of go.etcd.io/etcd/client/v3's stub and
// checked against the real old module (testdata/realapi/etcd34) by
// TestStubsMatchRealModules in analyzer/internal/fencetest. rules/ knows
// it by its new path (rules.LibPath).
package clientv3

import (
	"context"
	"time"

	pb "go.etcd.io/etcd/etcdserver/etcdserverpb"
)

type Client struct {
	KV
	Lease
}

func (c *Client) Close() error { panic("stub") }

func (c *Client) Ctx() context.Context { panic("stub") }

func New(cfg Config) (*Client, error) { panic("stub") }

type CompactOp struct{}

type CompactOption func(*CompactOp)

type Cmp struct{}

func Compare(cmp Cmp, result string, v interface{}) Cmp { panic("stub") }

func Value(key string) Cmp { panic("stub") }

func Version(key string) Cmp { panic("stub") }

func CreateRevision(key string) Cmp { panic("stub") }

func ModRevision(key string) Cmp { panic("stub") }

func LeaseValue(key string) Cmp { panic("stub") }

type Config struct {
	Endpoints   []string
	DialTimeout time.Duration
}

type CompactResponse pb.CompactionResponse

type PutResponse pb.PutResponse

type GetResponse pb.RangeResponse

type DeleteResponse pb.DeleteRangeResponse

type TxnResponse pb.TxnResponse

type KV interface {
	Compact(ctx context.Context, rev int64, opts ...CompactOption) (*CompactResponse, error)
	Delete(ctx context.Context, key string, opts ...OpOption) (*DeleteResponse, error)
	Do(ctx context.Context, op Op) (OpResponse, error)
	Get(ctx context.Context, key string, opts ...OpOption) (*GetResponse, error)
	Put(ctx context.Context, key string, val string, opts ...OpOption) (*PutResponse, error)
	Txn(ctx context.Context) Txn
}

type OpResponse struct{}

type LeaseRevokeResponse pb.LeaseRevokeResponse

type LeaseID int64

type LeaseGrantResponse struct {
	ID  LeaseID
	TTL int64
}

type LeaseKeepAliveResponse struct{}

const NoLease LeaseID = 0

type Lease interface {
	Close() error
	Grant(ctx context.Context, ttl int64) (*LeaseGrantResponse, error)
	KeepAlive(ctx context.Context, id LeaseID) (<-chan *LeaseKeepAliveResponse, error)
	KeepAliveOnce(ctx context.Context, id LeaseID) (*LeaseKeepAliveResponse, error)
	Revoke(ctx context.Context, id LeaseID) (*LeaseRevokeResponse, error)
}

type Op struct{}

func OpGet(key string, opts ...OpOption) Op { panic("stub") }

func OpDelete(key string, opts ...OpOption) Op { panic("stub") }

func OpPut(key string, val string, opts ...OpOption) Op { panic("stub") }

type OpOption func(*Op)

func WithLease(leaseID LeaseID) OpOption { panic("stub") }

func WithPrefix() OpOption { panic("stub") }

type Txn interface {
	Commit() (*TxnResponse, error)
	Else(ops ...Op) Txn
	If(cs ...Cmp) Txn
	Then(ops ...Op) Txn
}
