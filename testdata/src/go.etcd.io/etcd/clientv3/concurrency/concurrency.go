// Package concurrency is a stub of go.etcd.io/etcd/clientv3/concurrency (go.etcd.io/etcd@v0.0.0-20200520232829-54ba9589114f), the etcd client before the 3.5 module split, for fencelint's
// analysistest cases: API only, a subset of the real declarations,
// written by hand from the declarations of go.etcd.io/etcd/client/v3's stub and
// checked against the real old module (testdata/realapi/etcd34) by
// TestStubsMatchRealModules in analyzer/internal/fencetest. rules/ knows
// it by its new path (rules.LibPath).
package concurrency

import (
	"context"
	"errors"
	"sync"

	pb "go.etcd.io/etcd/etcdserver/etcdserverpb"
	v3 "go.etcd.io/etcd/clientv3"
)

var ErrElectionNotLeader = errors.New("election: not leader")

type Election struct{}

func (e *Election) Campaign(ctx context.Context, val string) error { panic("stub") }

func (e *Election) Proclaim(ctx context.Context, val string) error { panic("stub") }

func (e *Election) Resign(ctx context.Context) (err error) { panic("stub") }

func (e *Election) Leader(ctx context.Context) (*v3.GetResponse, error) { panic("stub") }

func (e *Election) Observe(ctx context.Context) <-chan v3.GetResponse { panic("stub") }

func (e *Election) Key() string { panic("stub") }

func (e *Election) Rev() int64 { panic("stub") }

func (e *Election) Header() *pb.ResponseHeader { panic("stub") }

func NewElection(s *Session, pfx string) *Election { panic("stub") }

func ResumeElection(s *Session, pfx string, leaderKey string, leaderRev int64) *Election {
	panic("stub")
}

type Mutex struct{}

func (m *Mutex) Lock(ctx context.Context) error { panic("stub") }

func (m *Mutex) Unlock(ctx context.Context) error { panic("stub") }

func (m *Mutex) IsOwner() v3.Cmp { panic("stub") }

func (m *Mutex) Key() string { panic("stub") }

func (m *Mutex) Header() *pb.ResponseHeader { panic("stub") }

func NewMutex(s *Session, pfx string) *Mutex { panic("stub") }

func NewLocker(s *Session, pfx string) sync.Locker { panic("stub") }

type Session struct{}

func (s *Session) Client() *v3.Client { panic("stub") }

func (s *Session) Lease() v3.LeaseID { panic("stub") }

func (s *Session) Done() <-chan struct{} { panic("stub") }

func (s *Session) Close() error { panic("stub") }

func NewSession(client *v3.Client, opts ...SessionOption) (*Session, error) { panic("stub") }

type sessionOptions struct{}

type SessionOption func(*sessionOptions)

func WithTTL(ttl int) SessionOption { panic("stub") }

func WithContext(ctx context.Context) SessionOption { panic("stub") }
