package calendar_test

import (
	"context"
	"fmt"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/memstore"
)

// A mirror starts from the current cursor, then reads what changed after it.
func ExampleService_Changes() {
	cal := calendar.New(memstore.New())
	ctx := calendar.WithPrincipal(context.Background(), calendar.System)
	start, _ := cal.Changes(ctx, "", 0)

	tag, _ := cal.CreateTerm(ctx, calendar.TaxonomyTag, calendar.TermInput{Name: calendar.Some("Jazz")}, calendar.WriteOptions{})
	cal.DeleteTerm(ctx, calendar.TaxonomyTag, tag.ID, calendar.DeleteOptions{Force: true})

	page, _ := cal.Changes(ctx, start.Next, 10)
	for _, c := range page.Changes {
		fmt.Println(c.Seq, c.Kind, c.ID, c.Action, c.Version)
	}
	fmt.Println("more:", page.More)
	// Output:
	// 1 tag 1 created 1
	// 2 tag 1 deleted 1
	// more: false
}
