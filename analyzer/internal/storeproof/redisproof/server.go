package redisproof

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/fencelint/fencelint/analyzer/internal/storeproof"
	"github.com/redis/go-redis/v9"
)

// Server is one redis-server process.
type Server struct {
	Addr string
	cmd  *exec.Cmd
}

// binary finds redis-server, or skips (fails under
// FENCELINT_INTEGRATION=require).
func binary(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		if storeproof.Require() {
			t.Fatalf("redis-server not found but FENCELINT_INTEGRATION=require: install it (apt-get install -y redis-server; .ci/test.sh does)")
		}
		t.Skip("redis-server not found; install it: apt-get install -y redis-server")
	}
	return path
}

// StartRedis starts redis-server on a free loopback port with no
// persistence and its own directory; extra are more config arguments
// ("--replicaof", host, port). It is killed when the test ends.
func StartRedis(t testing.TB, extra ...string) *Server {
	t.Helper()
	bin := binary(t)
	dir := t.TempDir()
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		port := freePort(t)
		args := append([]string{
			"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
			"--save", "", "--appendonly", "no", "--dir", dir,
			"--daemonize", "no", "--protected-mode", "no",
			"--logfile", filepath.Join(dir, fmt.Sprintf("redis-%d.log", port)),
		}, extra...)
		cmd := exec.Command(bin, args...)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatalf("redisproof: starting %s: %v", bin, err)
		}
		s := &Server{Addr: fmt.Sprintf("127.0.0.1:%d", port), cmd: cmd}
		t.Cleanup(s.Kill)
		if err := s.waitReady(); err != nil {
			lastErr = err
			s.Kill()
			continue
		}
		return s
	}
	t.Fatalf("redisproof: redis-server did not start: %v", lastErr)
	return nil
}

// Kill stops the server (idempotent).
func (s *Server) Kill() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

func (s *Server) waitReady() error {
	c := redis.NewClient(&redis.Options{Addr: s.Addr})
	defer c.Close()
	var err error
	for i := 0; i < 100; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err = c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return err
}

// Client connects to s, closed when the test ends.
func (s *Server) Client(t testing.TB) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: s.Addr, MaxRetries: -1})
	t.Cleanup(func() { c.Close() })
	return c
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
