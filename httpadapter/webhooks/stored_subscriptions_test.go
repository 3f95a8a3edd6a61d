package webhooks

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/eventcal/eventcal/boltstore"
	"github.com/eventcal/eventcal/memstore"
)

// The stored subscriptions behave like the in-memory ones on every driver's
// Documents, and on bbolt they survive closing and reopening the file.
func TestStoredSubscriptions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "subs.db")
	bolt, err := boltstore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, docs := range map[string]Documents{"memstore": memstore.New().Documents("webhooks"), "boltstore": bolt.Documents("webhooks")} {
		t.Run(name, func(t *testing.T) { testStoredSubscriptions(t, docs) })
	}
	subs, err := NewStoredSubscriptions(bolt.Documents("webhooks"), TargetPolicy{}).List(context.Background())
	if err != nil || len(subs) != 1 {
		t.Fatalf("before reopening: %v, %v", subs, err)
	}
	if err := bolt.Close(); err != nil {
		t.Fatal(err)
	}
	bolt, err = boltstore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer bolt.Close()
	again, err := NewStoredSubscriptions(bolt.Documents("webhooks"), TargetPolicy{}).List(context.Background())
	if err != nil || len(again) != 1 || again[0].URL != subs[0].URL || again[0].Secret != subs[0].Secret || again[0].Cursor != subs[0].Cursor {
		t.Fatalf("after reopening: %+v, %v; want %+v", again, err, subs)
	}
}

func testStoredSubscriptions(t *testing.T, docs Documents) {
	ctx := context.Background()
	st := NewStoredSubscriptions(docs, TargetPolicy{})
	if _, err := st.Create(ctx, Subscription{URL: "http://example.com/hook", Types: []string{TypeAll}}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("http target under the default policy: %v", err)
	}
	a, err := st.Create(ctx, Subscription{URL: "https://example.com/a", Types: []string{"event.created"},
		Filter: Filter{Venues: []int64{4}}, Progress: Progress{Cursor: 7}})
	if err != nil || a.ID == 0 || a.Secret == "" {
		t.Fatalf("create: %+v, %v", a, err)
	}
	b, err := st.Create(ctx, Subscription{URL: "https://example.com/b", Types: []string{TypeAll}})
	if err != nil || b.ID == a.ID {
		t.Fatalf("second create: %+v, %v", b, err)
	}
	got, err := st.Subscription(ctx, a.ID)
	if err != nil || got.URL != a.URL || got.Secret != a.Secret || got.Cursor != 7 || len(got.Filter.Venues) != 1 || got.Types[0] != "event.created" {
		t.Fatalf("read back: %+v, %v", got, err)
	}
	if err := st.SaveProgress(ctx, a.ID, Progress{Cursor: 9, Attempts: 2, LastError: "503"}); err != nil {
		t.Fatal(err)
	}
	if err := st.SaveProgress(ctx, a.ID, Progress{Cursor: 8}); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.Subscription(ctx, a.ID); got.Cursor != 9 {
		t.Fatalf("a late save moved the cursor back to %d", got.Cursor)
	}
	if err := st.Disable(ctx, b.ID, Progress{Cursor: 3, Attempts: 40}, "dead"); err != nil {
		t.Fatal(err)
	}
	if act, err := st.ActiveSubscriptions(ctx); err != nil || len(act) != 1 || act[0].ID != a.ID {
		t.Fatalf("active: %+v, %v", act, err)
	}
	en, err := st.Enable(ctx, b.ID)
	if err != nil || en.Disabled || en.DisabledReason != "" || en.Attempts != 0 || en.Cursor != 3 {
		t.Fatalf("enable: %+v, %v", en, err)
	}
	if _, err := st.Update(ctx, a.ID, func(s *Subscription) { s.URL = "ftp://x" }); !errors.Is(err, ErrInvalid) {
		t.Fatalf("invalid update: %v", err)
	}
	if got, _ := st.Subscription(ctx, a.ID); got.URL != a.URL {
		t.Fatalf("an invalid update changed the URL to %q", got.URL)
	}
	if err := st.Delete(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Subscription(ctx, b.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted: %v", err)
	}
	if err := st.Delete(ctx, b.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted twice: %v", err)
	}
	if err := st.SaveProgress(ctx, b.ID, Progress{}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("progress of a deleted one: %v", err)
	}
}
