package redisstore_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/redisstore"
	"github.com/redis/go-redis/v9"
)

// Two application instances share one calendar by using the same Redis and
// the same prefix; another calendar on the same server uses another prefix.
// (No Output comment: the example needs a running Redis, so it is compiled
// but not run by go test.)
func ExampleNew() {
	opt, err := redis.ParseURL("redis://127.0.0.1:6379/0")
	if err != nil {
		log.Fatal(err)
	}
	opt.ContextTimeoutEnabled = true // let context deadlines interrupt round trips
	client := redis.NewClient(opt)   // or redis.NewClusterClient / redis.NewUniversalClient
	defer client.Close()

	store, err := redisstore.New(client, redisstore.WithPrefix("mycalendar"))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	start := time.Date(2026, 6, 21, 19, 0, 0, 0, time.UTC)
	ev, err := store.CreatePost(ctx, &calendar.PostRecord{
		Kind: calendar.KindEvent, Status: calendar.StatusPublish, Date: start.AddDate(0, -1, 0),
		Slug: "fete-de-la-musique", Lang: "fr", Title: calendar.Text{"fr": "Fête de la musique"},
		Start: start, End: start.Add(5 * time.Hour), TimeZone: "Europe/Paris",
	})
	if err != nil {
		log.Fatal(err) // errors.Is(err, calendar.ErrUnavailable) when Redis is down
	}
	page, err := store.ListPosts(ctx, &calendar.PostQuery{
		Kind:  calendar.KindEvent,
		Start: calendar.TimeRange{From: start.Add(-time.Hour), To: start.Add(time.Hour)},
		Limit: 10,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ev.Slug, page.Total)
}
