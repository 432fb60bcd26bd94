package etcdproof

import (
	"fmt"
	"net"
	"net/url"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// StartEtcd starts a one-member etcd on loopback with its data in a
// temporary directory, stopped when the test ends, and returns its client
// URL. Heartbeat and election timeouts are short so that the shortest
// lease (1s) expires promptly.
func StartEtcd(t testing.TB) string {
	t.Helper()
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		client, peer, err := freeURL(), freeURL(), error(nil)
		if client == nil || peer == nil {
			t.Fatal("etcdproof: no free loopback port")
		}
		cfg := embed.NewConfig()
		cfg.Name = "etcdproof"
		cfg.Dir = t.TempDir()
		cfg.ListenClientUrls = []url.URL{*client}
		cfg.AdvertiseClientUrls = []url.URL{*client}
		cfg.ListenPeerUrls = []url.URL{*peer}
		cfg.AdvertisePeerUrls = []url.URL{*peer}
		cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
		cfg.ListenMetricsUrls = nil
		cfg.TickMs = 20
		cfg.ElectionMs = 200
		cfg.LogLevel = "error"
		cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
		e, err := embed.StartEtcd(cfg)
		if err != nil {
			lastErr = err
			continue
		}
		select {
		case <-e.Server.ReadyNotify():
		case <-time.After(60 * time.Second):
			e.Close()
			t.Fatal("etcdproof: etcd did not become ready in 60s")
		}
		t.Cleanup(e.Close)
		return client.String()
	}
	t.Fatalf("etcdproof: starting etcd: %v", lastErr)
	return ""
}

// freeURL returns http://127.0.0.1:port for a port free a moment ago.
func freeURL() *url.URL {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil
	}
	defer l.Close()
	return &url.URL{Scheme: "http", Host: l.Addr().String()}
}

// NewClient connects to endpoint, closed when the test ends.
func NewClient(t testing.TB, endpoint string) *clientv3.Client {
	t.Helper()
	cli, err := clientv3.New(clientv3.Config{
		Endpoints:   []string{endpoint},
		DialTimeout: 10 * time.Second,
		Logger:      zap.NewNop(),
	})
	if err != nil {
		t.Fatal(fmt.Errorf("etcdproof: client: %w", err))
	}
	t.Cleanup(func() { cli.Close() })
	return cli
}
