package boltstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// TestBackupWhileWriting backs up a store while a writer keeps creating
// events, restores the copy by opening it, and checks it: consistent
// indexes, every write acknowledged before the backup started, nothing
// that was not acknowledged by the time it ended.
func TestBackupWhileWriting(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	seedBulk(t, s, 3000, 90*24*time.Hour)
	v := mustCreate(t, s, post(calendar.KindVenue, "hall", base))

	var acked atomic.Int64 // highest acknowledged id: ids grow with time
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			e := event(fmt.Sprint("live-", i), base.Add(time.Duration(i)*time.Hour))
			e.VenueIDs = []int64{v.ID}
			p, err := s.CreatePost(ctx, e)
			if err != nil {
				t.Error(err)
				return
			}
			acked.Store(p.ID)
		}
	}()
	for acked.Load() < v.ID+5 { // let the writer get going
		time.Sleep(time.Millisecond)
	}

	path := filepath.Join(t.TempDir(), "backup.db")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	before := acked.Load()
	n, err := s.Backup(ctx, slowWriter{f}) // slow, so that writes overlap it
	after := acked.Load()
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Size() != n {
		t.Errorf("Backup reported %d bytes, file has %d", n, fi.Size())
	}

	restored, err := Open(path)
	if err != nil {
		t.Fatalf("open the backup: %v", err)
	}
	defer restored.Close()
	mustCheck(t, restored)
	page, err := restored.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, VenueIDs: []int64{v.ID}, CountOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if min, max := int(before-v.ID), int(after-v.ID); page.Total < min || page.Total > max+1 {
		t.Errorf("backup holds %d live events; %d were acknowledged before it started, %d by its end", page.Total, min, max)
	}
	if _, err := restored.GetPost(ctx, before); err != nil {
		t.Errorf("event %d, acknowledged before the backup, missing from it: %v", before, err)
	}
	t.Logf("backup: %d bytes, %d live events (acknowledged: %d before, %d after)", n, page.Total, before-v.ID, after-v.ID)
}

func TestBackupCancelled(t *testing.T) {
	s := openTemp(t)
	seedBulk(t, s, 500, 24*time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	w := &cancelOnWrite{cancel: cancel}
	if _, err := s.Backup(ctx, w); !errors.Is(err, context.Canceled) {
		t.Errorf("Backup cancelled mid-copy: %v, want context.Canceled", err)
	}
	if w.writes > 1 {
		t.Errorf("%d writes after cancellation; want the copy to stop", w.writes-1)
	}
}

// cancelOnWrite cancels its context on the first write.
type cancelOnWrite struct {
	cancel context.CancelFunc
	writes int
}

func (c *cancelOnWrite) Write(p []byte) (int, error) {
	c.writes++
	c.cancel()
	return io.Discard.Write(p)
}

// slowWriter pauses on each write, stretching a backup so that the writer
// goroutine commits while it runs.
type slowWriter struct{ w io.Writer }

func (s slowWriter) Write(p []byte) (int, error) {
	time.Sleep(2 * time.Millisecond)
	return s.w.Write(p)
}
