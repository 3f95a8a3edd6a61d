package httpadapter

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// TestReadsShareRecordsWhileWriting reads an event, a list and their embedded
// venue and category over HTTP while other goroutines rewrite all of them
// (run with -race). The read path renders memstore's stored records without
// copying them (calendar.Service.reads), which is only safe if neither the
// store nor the calendar nor the adapter ever modifies a record once handed
// out: the race detector fails this test if one does. Every answer must be
// whole (a title, venue and category that were written), and once writing
// stops every read shows the last write.
func TestReadsShareRecordsWhileWriting(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	const rounds = 30
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	write := func(do func(i int) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 1; i <= rounds; i++ {
				if err := do(i); err != nil {
					errs <- err.Error()
					return
				}
			}
		}()
	}
	write(func(i int) error {
		_, err := e.cal.UpdateEvent(as(idAuthor), calendar.ByID(f.event),
			calendar.EventInput{Title: calendar.Some(fmt.Sprintf("Night %d", i)), Cost: calendar.Some([]string{fmt.Sprintf("$%d", i)})}, calendar.WriteOptions{})
		return err
	})
	write(func(i int) error {
		_, err := e.cal.UpdateVenue(as(idAuthor), calendar.ByID(f.venue),
			calendar.VenueInput{Name: calendar.Some(fmt.Sprintf("Hall %d", i)), City: calendar.Some(fmt.Sprintf("City %d", i))}, calendar.WriteOptions{})
		return err
	})
	write(func(i int) error {
		_, err := e.cal.UpdateTerm(as(idAuthor), calendar.TaxonomyCategory, f.jazz,
			calendar.TermInput{Name: calendar.Some(fmt.Sprintf("Jazz %d", i))}, calendar.WriteOptions{})
		return err
	})
	whole := func(ev map[string]any) error {
		title, _ := ev["title"].(string)
		venue, _ := ev["venue"].(map[string]any)
		cats, _ := ev["categories"].([]any)
		if title != "Jazz Night" && !strings.HasPrefix(title, "Night ") || venue == nil || len(cats) != 1 {
			return fmt.Errorf("torn event: title %q venue %v categories %v", title, venue, cats)
		}
		if n, _ := venue["venue"].(string); n != "Blue Hall" && !strings.HasPrefix(n, "Hall ") {
			return fmt.Errorf("torn venue %q", n)
		}
		return nil
	}
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				r := e.do("GET", fmt.Sprintf("%s/events/%d", testNS, f.event), nil)
				if r.Code != 200 {
					errs <- fmt.Sprintf("get: %d %s", r.Code, r.Raw)
					return
				}
				if err := whole(r.obj()); err != nil {
					errs <- err.Error()
				}
				r = e.do("GET", testNS+"/events?start_date=2026-01-01&per_page=50", nil)
				if r.Code != 200 {
					errs <- fmt.Sprintf("list: %d %s", r.Code, r.Raw)
					return
				}
				for _, ev := range r.obj()["events"].([]any) {
					if err := whole(ev.(map[string]any)); err != nil {
						errs <- err.Error()
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Error(msg)
	}
	last := fmt.Sprint(rounds)
	for _, ev := range []map[string]any{
		e.do("GET", fmt.Sprintf("%s/events/%d", testNS, f.event), nil).must(t, 200).obj(),
		e.do("GET", testNS+"/events?start_date=2026-01-01", nil).must(t, 200).obj()["events"].([]any)[0].(map[string]any),
	} {
		venue := ev["venue"].(map[string]any)
		cat := ev["categories"].([]any)[0].(map[string]any)
		if ev["title"] != "Night "+last || ev["cost"] != "$"+last || venue["venue"] != "Hall "+last || venue["city"] != "City "+last || cat["name"] != "Jazz "+last {
			t.Errorf("after the writes: title %v cost %v venue %v/%v category %v", ev["title"], ev["cost"], venue["venue"], venue["city"], cat["name"])
		}
	}
}
