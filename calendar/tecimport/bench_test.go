package tecimport_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/calendar/tecimport"
	"github.com/eventcal/eventcal/calendar/tecimport/tectest"
	"github.com/eventcal/eventcal/memstore"
)

// benchStores are the stores the import rate is measured into; the driver
// files of this package's tests add bolt and Redis.
var benchStores = map[string]func(b *testing.B) calendar.Repository{
	"memstore": func(*testing.B) calendar.Repository { return memstore.New() },
}

// BenchmarkImportTEC imports a site of 2,000 events, 200 venues, 150
// organizers, 40 categories and 300 tags (all statuses, read with
// credentials) over a real listener into an empty store, and reports
// records per second. The read-only run (every list page fetched and
// decoded, nothing stored) is the baseline the store runs compare with.
func BenchmarkImportTEC(b *testing.B) {
	site := tectest.New(time.UTC)
	site.Now = now
	site.Users[siteUser] = sitePass
	site.Generate(tectest.GenerateOptions{Seed: 11, Events: 2000, Venues: 200, Organizers: 150, Categories: 40, Tags: 300})
	srv := httptest.NewServer(site)
	defer srv.Close()
	records := float64(2000 + 200 + 150 + 40 + 300)

	b.Run("read-only", func(b *testing.B) {
		ctx := context.Background()
		for b.Loop() {
			c, err := tecimport.Connect(ctx, srv.URL, tecimport.WithCredentials(siteUser, sitePass))
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for _, coll := range []string{"categories", "tags", "venues", "organizers", "events"} {
				for _, st := range []string{"publish", "future", "draft", "pending", "private", "trash"} {
					args := map[string][]string{"status": {st}, "hide_empty": {"false"}, "start_date": {"1900-01-01"}, "end_date": {"2200-12-31"}}
					if coll == "categories" || coll == "tags" {
						if st != "publish" {
							continue
						}
						delete(args, "status")
					}
					for p, err := range c.Pages(ctx, coll, args) {
						if err != nil {
							b.Fatal(err)
						}
						n += len(p.Items)
					}
				}
			}
			if n < int(records)*9/10 {
				b.Fatalf("read %d items", n)
			}
		}
		b.ReportMetric(records*float64(b.N)/b.Elapsed().Seconds(), "records/s")
	})
	for name, open := range benchStores {
		b.Run("store="+name, func(b *testing.B) {
			for b.Loop() {
				svc := calendar.New(open(b), calendar.WithClock(now))
				sum, err := tecimport.Run(system(), svc, srv.URL, tecimport.WithCredentials(siteUser, sitePass))
				if err != nil {
					b.Fatal(err)
				}
				if got := sum.Total().Created; got != int(records) {
					b.Fatalf("created %d of %v", got, records)
				}
			}
			b.ReportMetric(records*float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}
