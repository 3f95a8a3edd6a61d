package calendar_test

import (
	"errors"
	"math"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// Status values are exact lower-case words, in writes and list filters.
func TestStatusIsExact(t *testing.T) {
	f := newFixture(t)
	for _, st := range []calendar.Status{"PUBLISH", "Draft", " publish"} {
		in := eventIn("Exact", "2026-12-01 10:00", "2026-12-01 11:00")
		in.Status = calendar.Some(st)
		_, err := f.cal.CreateEvent(as(admin), in, calendar.WriteOptions{})
		var ce *calendar.Error
		if !errors.As(err, &ce) || ce.Params["status"] == "" {
			t.Errorf("status %q: %v", st, err)
		}
		if st == " publish" {
			continue // list items are trimmed (comma lists)
		}
		_, err = f.cal.ListEvents(as(admin), calendar.EventQuery{Status: []string{string(st)}})
		if !errors.As(err, &ce) || ce.Params["status"] == "" {
			t.Errorf("list status %q: %v", st, err)
		}
	}
}

// Any page number is valid; one past every list is a page that does not
// exist, not a bad argument.
func TestHugePageIsEmpty(t *testing.T) {
	f := newFixture(t)
	f.mustEvent(as(admin), eventIn("One", "2026-12-01 10:00", "2026-12-01 11:00"))
	p, err := f.cal.ListEvents(as(admin), calendar.EventQuery{Page: math.MaxInt, PerPage: math.MaxInt, StartDate: "2000-01-01"})
	if !errors.Is(err, calendar.ErrNotFound) || len(p.Events) != 0 || p.Total != 1 {
		t.Fatalf("huge page: %+v %v", p, err)
	}
}

// A required argument sent with a bad value is reported invalid, not missing.
func TestInvalidIsNotMissing(t *testing.T) {
	var v calendar.Validation
	v.Add("start_date", "start_date is not of type string.")
	v.Missing("start_date")
	v.Missing("title")
	var ce *calendar.Error
	if !errors.As(v.Err(), &ce) || len(ce.Missing) != 1 || ce.Missing[0] != "title" {
		t.Fatalf("%#v", v.Err())
	}
	var w calendar.Validation
	w.Add("start_date", "start_date is not of type string.")
	w.Missing("start_date")
	if !errors.As(w.Err(), &ce) || ce.Reason != "rest_invalid_param" {
		t.Fatalf("%#v", w.Err())
	}
}
