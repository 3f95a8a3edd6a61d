package redisstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// The tests run against real servers. REDIS_URL names the single node
// (default redis://127.0.0.1:6379/0) and REDIS_CLUSTER_ADDRS the cluster
// (default 127.0.0.1:7000,127.0.0.1:7001,127.0.0.1:7002). A server that is
// not reachable skips the tests, except under EVENTCAL_REQUIRE_REDIS=1 (set by .ci/run), where it fails them.

func redisURL() string {
	if u := os.Getenv("REDIS_URL"); u != "" {
		return u
	}
	return "redis://127.0.0.1:6379/0"
}

func clusterAddrs() []string {
	if a := os.Getenv("REDIS_CLUSTER_ADDRS"); a != "" {
		return strings.Split(a, ",")
	}
	return []string{"127.0.0.1:7000", "127.0.0.1:7001", "127.0.0.1:7002"}
}

// unreachable skips tb, or fails it when EVENTCAL_REQUIRE_REDIS=1.
func unreachable(tb testing.TB, what, howto string, err error) {
	tb.Helper()
	if os.Getenv("EVENTCAL_REQUIRE_REDIS") == "1" {
		tb.Fatalf("%s not reachable with EVENTCAL_REQUIRE_REDIS=1: %v", what, err)
	}
	tb.Skipf("%s not reachable (%v); %s", what, err, howto)
}

// singleClient connects to REDIS_URL; the client is closed at cleanup.
func singleClient(tb testing.TB) redis.UniversalClient {
	tb.Helper()
	opt, err := redis.ParseURL(redisURL())
	if err != nil {
		tb.Fatalf("REDIS_URL: %v", err)
	}
	opt.ContextTimeoutEnabled = true
	c := redis.NewClient(opt)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		c.Close()
		unreachable(tb, "Redis at "+redisURL(), "start one with `redis-server --daemonize yes` or set REDIS_URL", err)
	}
	tb.Cleanup(func() { c.Close() })
	return c
}

// clusterClient connects to REDIS_CLUSTER_ADDRS and checks that the cluster
// serves every slot; the client is closed at cleanup.
func clusterClient(tb testing.TB) redis.UniversalClient {
	tb.Helper()
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: clusterAddrs(), ContextTimeoutEnabled: true})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	info, err := c.ClusterInfo(ctx).Result()
	if err == nil && !strings.Contains(info, "cluster_state:ok") {
		err = errClusterNotOK
	}
	if err != nil {
		c.Close()
		unreachable(tb, "Redis Cluster at "+strings.Join(clusterAddrs(), ","), "start one with `.ci/redis-cluster.sh start` or set REDIS_CLUSTER_ADDRS", err)
	}
	tb.Cleanup(func() { c.Close() })
	return c
}

type testError string

func (e testError) Error() string { return string(e) }

const errClusterNotOK = testError("cluster_state is not ok")

// testPrefix returns a fresh random key prefix and deletes its keys at
// cleanup, so that tests sharing a server never see each other's data.
func testPrefix(tb testing.TB, c redis.UniversalClient) string {
	tb.Helper()
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		tb.Fatal(err)
	}
	prefix := "test-" + hex.EncodeToString(b[:])
	tb.Cleanup(func() {
		if err := deleteKeys(c, "{"+prefix+"}:*"); err != nil { // random hex: no glob characters
			tb.Errorf("cleanup of %s: %v", prefix, err)
		}
	})
	return prefix
}

// deleteKeys removes every key matching pattern with SCAN (never KEYS), on
// every master of a cluster.
func deleteKeys(c redis.UniversalClient, pattern string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return scanEach(ctx, c, pattern, func(ctx context.Context, n redis.Cmdable, ks []string) error {
		if len(ks) == 0 {
			return nil
		}
		return n.Unlink(ctx, ks...).Err()
	})
}

// scanEach runs SCAN for pattern on c, or on every master of a cluster
// (concurrently), and hands each batch of keys to do with the node that
// holds them.
func scanEach(ctx context.Context, c redis.UniversalClient, pattern string, do func(ctx context.Context, n redis.Cmdable, ks []string) error) error {
	scan := func(ctx context.Context, n redis.Cmdable) error {
		var cursor uint64
		for {
			ks, next, err := n.Scan(ctx, cursor, pattern, 1000).Result()
			if err != nil {
				return err
			}
			if err := do(ctx, n, ks); err != nil {
				return err
			}
			if cursor = next; cursor == 0 {
				return nil
			}
		}
	}
	if cc, ok := c.(*redis.ClusterClient); ok {
		return cc.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error { return scan(ctx, n) })
	}
	return scan(ctx, c)
}

// newTestStore returns a Store on c under a fresh prefix.
func newTestStore(tb testing.TB, c redis.UniversalClient, opts ...Option) *Store {
	tb.Helper()
	s, err := New(c, append([]Option{WithPrefix(testPrefix(tb, c))}, opts...)...)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}
