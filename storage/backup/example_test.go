package backup_test

import (
	"bytes"
	"context"
	"fmt"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
	"github.com/eventcal/eventcal/storage/backup"
)

// Export writes a calendar as newline-delimited JSON; Import reads it into
// another, empty store (any driver).
func ExampleExport() {
	ctx := context.Background()
	src := memstore.New()
	cal := calendar.New(src)
	sys := calendar.WithPrincipal(ctx, calendar.System)
	cal.CreateEvent(sys, calendar.EventInput{Title: calendar.Some("Jazz Night"), StartDate: calendar.Some("2026-03-13 20:00"),
		EndDate: calendar.Some("2026-03-13 23:00"), Tags: calendar.Some([]calendar.TermRef{{Name: "jazz"}})}, calendar.WriteOptions{})

	var file bytes.Buffer
	st, err := backup.Export(ctx, src, &file)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("exported", st.Records, "records in", bytes.Count(file.Bytes(), []byte("\n")), "lines")

	dst := memstore.New()
	if _, err := backup.Import(ctx, dst, &file); err != nil {
		fmt.Println(err)
		return
	}
	ev, _ := calendar.New(dst).GetEvent(sys, calendar.BySlug("jazz-night"), calendar.ReadOptions{})
	fmt.Println(ev.ID, ev.Title, ev.Tags[0].Name)
	// Output:
	// exported 2 records in 4 lines
	// 1 Jazz Night jazz
}
