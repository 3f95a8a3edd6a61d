package redisstore

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Two instances (separate clients) contend for one lease: one holds it,
// the other is refused until the holder releases it or stops renewing it
// and it expires.
func TestLeaserAcrossInstances(t *testing.T) {
	t.Run("single", func(t *testing.T) { testLeaser(t, singleClient) })
	t.Run("cluster", func(t *testing.T) { testLeaser(t, clusterClient) })
}

func testLeaser(t *testing.T, connect func(testing.TB) redis.UniversalClient) {
	ctx := context.Background()
	c1, c2 := connect(t), connect(t)
	prefix := testPrefix(t, c1)
	s1, err := New(c1, WithPrefix(prefix))
	if err != nil {
		t.Fatal(err)
	}
	s2, err := New(c2, WithPrefix(prefix))
	if err != nil {
		t.Fatal(err)
	}
	a, b := s1.NewLeaser(), s2.NewLeaser()
	const ttl = 300 * time.Millisecond
	check := func(what string, got bool, err error, want bool) {
		t.Helper()
		if err != nil || got != want {
			t.Fatalf("%s: %v, %v; want %v", what, got, err, want)
		}
	}
	ok, err := a.Acquire(ctx, "sub:1", "A", ttl)
	check("A acquires", ok, err, true)
	ok, err = b.Acquire(ctx, "sub:1", "B", ttl)
	check("B acquires A's lease", ok, err, false)
	ok, err = b.Renew(ctx, "sub:1", "B", ttl)
	check("B renews A's lease", ok, err, false)
	ok, err = a.Renew(ctx, "sub:1", "A", ttl)
	check("A renews", ok, err, true)
	ok, err = a.Acquire(ctx, "sub:1", "A", ttl)
	check("A re-acquires its own", ok, err, true)
	if err := b.Release(ctx, "sub:1", "B"); err != nil {
		t.Fatal(err)
	}
	ok, err = b.Acquire(ctx, "sub:1", "B", ttl)
	check("B acquires after releasing a lease it did not hold", ok, err, false)
	if err := a.Release(ctx, "sub:1", "A"); err != nil {
		t.Fatal(err)
	}
	ok, err = b.Acquire(ctx, "sub:1", "B", ttl)
	check("B acquires after A released", ok, err, true)
	// B dies (stops renewing): the lease expires and A takes over.
	deadline := time.Now().Add(5 * time.Second)
	for {
		ok, err = a.Acquire(ctx, "sub:1", "A", ttl)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("B's lease never expired")
		}
		time.Sleep(50 * time.Millisecond)
	}
	ok, err = b.Renew(ctx, "sub:1", "B", ttl)
	check("B renews after its lease expired and A took it", ok, err, false)
}
