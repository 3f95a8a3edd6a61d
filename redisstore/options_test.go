package redisstore

import (
	"testing"

	"github.com/redis/go-redis/v9"
)

func TestOptions(t *testing.T) {
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"}) // never dialled
	defer c.Close()
	s, err := New(c)
	if err != nil || s.Prefix() != "{eventcal}:*" {
		t.Fatalf("default store: %v, prefix %q", err, s.Prefix())
	}
	s, err = New(c, WithPrefix(`cal*[1]?\`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{cal\*\[1\]\?\\}:*`; s.Prefix() != want {
		t.Fatalf("Prefix() = %q, want %q", s.Prefix(), want)
	}
	if got := s.k.post(42); got != `{cal*[1]?\}:post:42` {
		t.Fatalf("post key %q", got)
	}
	for _, bad := range []Option{WithPrefix(""), WithPrefix("a{b"), WithPrefix("}"), WithFetchBatch(0)} {
		if _, err := New(c, bad); err == nil {
			t.Error("bad option accepted")
		}
	}
	if _, err := New(nil); err == nil {
		t.Error("nil client accepted")
	}
}
