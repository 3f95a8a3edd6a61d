package httpadapter

import (
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentRequests runs creates, reads and lists in parallel (run with
// -race): the handler shares its decoder, buffers and route table.
func TestConcurrentRequests(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				r := e.do("POST", testNS+"/events", map[string]any{"title": "Same Title", "start_date": fmt.Sprintf("2026-12-%02d 10:00", 1+i),
					"end_date": fmt.Sprintf("2026-12-%02d 11:00", 1+i), "categories": []any{f.jazz}}, user("editor"))
				if r.Code != 201 {
					errs <- fmt.Sprintf("create: %d %s", r.Code, r.Raw)
				}
				if r := e.do("GET", fmt.Sprintf("%s/events/%d", testNS, f.event), nil); r.Code != 200 {
					errs <- fmt.Sprintf("get: %d", r.Code)
				}
				if r := e.do("GET", testNS+"/events?per_page=5&categories=jazz", nil); r.Code != 200 {
					errs <- fmt.Sprintf("list: %d", r.Code)
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	r := e.do("GET", testNS+"/events?search=same&per_page=50&start_date=2026-01-01", nil).must(t, 200)
	slugs := map[any]bool{}
	for _, ev := range r.obj()["events"].([]any) {
		slugs[ev.(map[string]any)["slug"]] = true
	}
	if r.obj()["total"] != float64(80) || len(slugs) != 50 {
		t.Errorf("total %v, distinct slugs on the page %d", r.obj()["total"], len(slugs))
	}
}
