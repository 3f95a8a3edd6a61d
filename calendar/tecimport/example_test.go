package tecimport_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/tecimport"
	"github.com/eventcal/eventcal/calendar/tecimport/tectest"
	"github.com/eventcal/eventcal/memstore"
)

// Run imports a site of the original plugin — here a test site — into an
// empty calendar, keeping its ids; a second run finds nothing to change.
func ExampleRun() {
	site := tectest.New(time.UTC)
	site.Users["admin"] = "app password"
	site.Generate(tectest.GenerateOptions{Seed: 1, Events: 40, Venues: 6, Organizers: 5, Categories: 4, Tags: 8})
	srv := httptest.NewServer(site)
	defer srv.Close()

	cal := calendar.New(memstore.New())
	ctx := calendar.WithPrincipal(context.Background(), calendar.System)
	for range 2 {
		sum, err := tecimport.Run(ctx, cal, srv.URL, tecimport.WithCredentials("admin", "app password"))
		if err != nil {
			fmt.Println(err)
			return
		}
		t := sum.Total()
		fmt.Printf("read %d, created %d, unchanged %d, ids kept: %v\n", t.Read, t.Created, t.Unchanged, sum.KeptIDs)
	}
	// Output:
	// read 63, created 63, unchanged 0, ids kept: true
	// read 63, created 0, unchanged 63, ids kept: false
}
