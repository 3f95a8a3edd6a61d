package backup_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
	"github.com/eventcal/eventcal/storage/backup"
)

// The header carries the change log's end as the export started, so a
// restored copy knows where to replay changes from; WithCursor overrides it.
func TestExportHeaderCursor(t *testing.T) {
	ctx := context.Background()
	repo := memstore.New()
	fill(t, repo, 20)
	last, err := repo.LastChangeSeq(ctx)
	if err != nil || last == 0 {
		t.Fatalf("the filled store's log ends at %d (%v)", last, err)
	}
	header := func(opts ...backup.Option) backup.Header {
		var buf bytes.Buffer
		if _, err := backup.Export(ctx, repo, &buf, opts...); err != nil {
			t.Fatal(err)
		}
		var h backup.Header
		if err := json.NewDecoder(&buf).Decode(&h); err != nil {
			t.Fatal(err)
		}
		return h
	}
	if h := header(); h.Cursor != calendar.ChangeCursor(last) {
		t.Errorf("cursor %q, want %q (seq %d)", h.Cursor, calendar.ChangeCursor(last), last)
	}
	if h := header(backup.WithCursor("given")); h.Cursor != "given" {
		t.Errorf("WithCursor: %q", h.Cursor)
	}
}
