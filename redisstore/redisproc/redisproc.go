// Package redisproc starts private redis-server processes for tests that
// must stop, pause or kill the server under a Store: outages, deadlines,
// readiness. The shared server at 127.0.0.1:6379 must never be killed, so
// those tests own one of these instead, on a free loopback port.
//
// It is test support: only tests import it.
package redisproc

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Server is a redis-server a test owns. Addr stays the same across
// Kill and Start, and so does the directory of its files.
type Server struct {
	Addr string
	path string
	dir  string
	args []string
	cmd  *exec.Cmd
}

// Start runs a redis-server on a free loopback port with args added to its
// command line (for example "--appendonly", "yes"), waits until it answers,
// and kills it when the test ends. By default it keeps nothing on disk.
// Without redis-server on PATH the test is skipped, or fails under CI
// (CI=true) or with EVENTCAL_REQUIRE_REDIS=1, where Redis tests may not
// skip.
func Start(t testing.TB, args ...string) *Server {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" || os.Getenv("EVENTCAL_REQUIRE_REDIS") == "1" {
			t.Fatal("redis-server not on PATH")
		}
		t.Skip("redis-server not on PATH: install it (apt-get install redis-server) to run this test")
	}
	s := &Server{Addr: "127.0.0.1:" + FreePort(t), path: path, dir: t.TempDir(), args: args}
	s.Start(t)
	t.Cleanup(s.Kill)
	return s
}

// Start starts the server again after Kill, on the same port and files.
func (s *Server) Start(t testing.TB) {
	t.Helper()
	_, port, _ := net.SplitHostPort(s.Addr)
	args := append([]string{"--port", port, "--bind", "127.0.0.1", "--dir", s.dir,
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", filepath.Join(s.dir, "redis.log")}, s.args...)
	s.cmd = exec.Command(s.path, args...)
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(&redis.Options{Addr: s.Addr, MaxRetries: -1})
	defer c.Close()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if err := c.Ping(context.Background()).Err(); err == nil {
			return
		} else if time.Now().After(deadline) {
			t.Fatalf("redis-server on %s did not start: %v", s.Addr, err)
		}
	}
}

// Kill kills the server with SIGKILL and waits for it to exit; a killed
// server is left alone.
func (s *Server) Kill() {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
		s.cmd = nil
	}
}

// Pause stops the process (SIGSTOP): connections stay open and nothing is
// answered, as with a server that hangs. Resume continues it.
func (s *Server) Pause() { s.signal(syscall.SIGSTOP) }

// Resume continues a paused server (SIGCONT).
func (s *Server) Resume() { s.signal(syscall.SIGCONT) }

func (s *Server) signal(sig os.Signal) {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Signal(sig)
	}
}

// FreePort returns a loopback TCP port free at the time of the call.
func FreePort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}
