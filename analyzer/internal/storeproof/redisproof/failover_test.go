package redisproof

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// relay forwards a replica's connection to its primary on loopback. Once
// stalled, it drops what the primary sends: the replica stops receiving
// the replication stream, as a lagging or cut-off replica does.
type relay struct {
	ln      net.Listener
	target  string
	stalled atomic.Bool
	mu      sync.Mutex
	conns   []net.Conn
}

func startRelay(t *testing.T, target string) *relay {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &relay{ln: ln, target: target}
	t.Cleanup(r.close)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			d, err := net.DialTimeout("tcp", target, 5*time.Second)
			if err != nil {
				c.Close()
				continue
			}
			r.mu.Lock()
			r.conns = append(r.conns, c, d)
			r.mu.Unlock()
			go func() { _, _ = io.Copy(d, c) }() // replica -> primary
			go r.down(c, d)                      // primary -> replica
		}
	}()
	return r
}

// down copies the primary's stream to the replica until stalled, then
// drops it.
func (r *relay) down(replica, primary net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := primary.Read(buf)
		if n > 0 && !r.stalled.Load() {
			if _, werr := replica.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (r *relay) port() string { return fmt.Sprint(r.ln.Addr().(*net.TCPAddr).Port) }

func (r *relay) close() {
	r.ln.Close()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.conns {
		c.Close()
	}
	r.conns = nil
}

// TestRedisTokenRegressesAfterFailover shows what weaktoken reports for
// Redis INCR tokens: asynchronous replication lets a promoted replica
// reissue a token the old primary already granted.
func TestRedisTokenRegressesAfterFailover(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	primary := StartRedis(t)
	rel := startRelay(t, primary.Addr)
	replica := StartRedis(t, "--replicaof", "127.0.0.1", rel.port())
	p, r := primary.Client(t), replica.Client(t)
	waitFor(t, "the replica's link to come up", func() bool {
		info, err := r.Info(ctx, "replication").Result()
		return err == nil && strings.Contains(info, "master_link_status:up")
	})

	keys := []string{"{res}:lock", "{res}:fence"}
	acquire := func(c *redis.Client, holder string, ttl time.Duration) int64 {
		t.Helper()
		tok, err := acquireScript.Run(ctx, c, keys, holder, ttl.Milliseconds()).Int64()
		if err != nil || tok == 0 {
			t.Fatalf("%s acquiring: token %d, %v", holder, tok, err)
		}
		return tok
	}
	// A is granted a token and the replica receives it.
	tokA := acquire(p, "A", 200*time.Millisecond)
	waitFor(t, "the replica to receive A's INCR", func() bool {
		v, err := r.Get(ctx, keys[1]).Int64()
		return err == nil && v == tokA
	})
	// A's lease expires; the replica falls behind (its stream is
	// stalled); B is granted the next token by the primary, which does
	// not wait for the replica.
	waitFor(t, "A's lock to expire", func() bool {
		n, err := p.Exists(ctx, keys[0]).Result()
		return err == nil && n == 0
	})
	rel.stalled.Store(true)
	tokB := acquire(p, "B", 30*time.Second)
	if tokB <= tokA {
		t.Fatalf("B's token %d is not above A's %d on the primary", tokB, tokA)
	}
	time.Sleep(200 * time.Millisecond) // the stream would have arrived by now
	if v, err := r.Get(ctx, keys[1]).Int64(); err != nil || v != tokA {
		t.Fatalf("the stalled replica's counter is %d (%v), want A's %d", v, err, tokA)
	}
	// Failover: the primary dies, the replica is promoted before it
	// received B's INCR.
	primary.Kill()
	rel.close()
	if err := r.ReplicaOf(ctx, "NO", "ONE").Err(); err != nil {
		t.Fatal(err)
	}
	// C acquires on the new primary: B's lock never reached it, and the
	// counter hands out B's token again.
	tokC := acquire(r, "C", 30*time.Second)
	if tokC != tokB {
		t.Fatalf("after the failover C got token %d; B holds %d: no reissue shown", tokC, tokB)
	}
	msg := fmt.Sprintf("redisproof: failover reissued token %d (A %d, B %d on the old primary, C %d on the promoted replica)", tokC, tokA, tokB, tokC)
	t.Log(msg)
	fmt.Println(msg)
}

// waitFor polls cond every 20ms for at most 10 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}
