package webhooks

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/eventcal/eventcal/boltstore"
	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
	"github.com/eventcal/eventcal/redisstore"
)

// The dispatcher delivers a real calendar's change log: every change of
// every write, in order, signed, with the Seq the log gave it.
func TestDeliversCalendarChangeLog(t *testing.T) {
	bolt, err := boltstore.Open(filepath.Join(t.TempDir(), "cal.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bolt.Close() })
	for name, repo := range map[string]interface {
		calendar.Repository
		calendar.ChangeLog
	}{"memstore": memstore.New(), "boltstore": bolt} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			src := NewCalendarChanges(repo)
			store := NewMemorySubscriptions(TargetPolicy{AllowHTTP: true, AllowPrivate: true})
			rc := newReceiver(t, nil)
			mustCreate(t, store, Subscription{URL: rc.url(), Secret: rc.secret, Types: []string{TypeAll}})
			start(t, New(src, store, testOptions()...))
			cal := calendar.New(repo)
			sys := calendar.WithPrincipal(ctx, calendar.System)
			var wantN int
			for i := range 5 {
				tag, err := cal.CreateTerm(sys, calendar.TaxonomyTag, calendar.TermInput{Name: calendar.Some(fmt.Sprint("tag ", i))}, calendar.WriteOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := cal.DeleteTerm(sys, calendar.TaxonomyTag, tag.ID, calendar.DeleteOptions{Force: true}); err != nil {
					t.Fatal(err)
				}
				wantN += 2
			}
			waitFor(t, "every change", func() bool { return len(rc.acked()) >= wantN })
			want, err := src.Changes(ctx, 0, 100)
			if err != nil || len(want) != wantN {
				t.Fatalf("log: %d changes, %v", len(want), err)
			}
			for i, d := range rc.all() {
				c := want[i]
				if d.VerifyErr != nil || d.Seq != c.Seq || d.Payload.Data.Kind != KindTag || d.Payload.Data.ID != c.ID || d.Payload.Data.Action != c.Action {
					t.Fatalf("delivery %d: %+v, want %+v", i, d, c)
				}
			}
		})
	}
}

func TestCalendarChangesExpired(t *testing.T) {
	repo := memstore.New(memstore.WithChangeRetention(calendar.ChangeRetention{MaxCount: 1}))
	for i := range 3 {
		if _, err := repo.CreateTerm(context.Background(), &calendar.TermRecord{Taxonomy: calendar.TaxonomyTag, Slug: fmt.Sprint("t", i)}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := NewCalendarChanges(repo).Changes(context.Background(), 0, 10)
	if !errors.Is(err, ErrCursorExpired) || !errors.Is(err, calendar.ErrChangesExpired) {
		t.Fatalf("expired cursor: %v", err)
	}
}

// The Redis driver's leaser is the one several instances share.
var _ Leaser = (*redisstore.Leaser)(nil)
