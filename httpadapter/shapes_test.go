package httpadapter

import (
	"fmt"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/google/go-cmp/cmp"
)

func TestVenueShapesAndDefaults(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	v2 := must[*calendar.Venue](t)(e.cal.CreateVenue(as(idAuthor), calendar.VenueInput{Name: calendar.Some("Annex"), Country: calendar.Some("Canada"),
		Province: calendar.Some("Ontario"), State: calendar.Some("XX")}, calendar.WriteOptions{}))
	none := e.mkEvent(idAuthor, "Bare", "2026-12-09 10:00", "", func(in *calendar.EventInput) { in.TimeZone = calendar.Some("UTC+5:30") })
	several := e.mkEvent(idAuthor, "Two Rooms", "2026-12-09 10:00", "", func(in *calendar.EventInput) {
		in.Venues = calendar.Some([]calendar.VenueRef{{ID: f.venue}, {ID: v2.ID}})
	})
	r := e.do("GET", fmt.Sprintf("%s/events/%d", testNS, none), nil).must(t, 200).obj()
	if fmt.Sprint(r["venue"]) != "[]" || fmt.Sprint(r["organizer"]) != "[]" || r["image"] != false || r["cost"] != "" {
		t.Errorf("bare event: venue %v organizer %v image %v cost %v", r["venue"], r["organizer"], r["image"], r["cost"])
	}
	if r["timezone"] != "UTC+5:30" || r["timezone_abbr"] != "UTC+5:30" || r["utc_start_date"] != "2026-12-09 04:30:00" {
		t.Errorf("offset zone: %v %v %v", r["timezone"], r["timezone_abbr"], r["utc_start_date"])
	}
	if diff := cmp.Diff(map[string]any{"currency_symbol": "", "currency_code": "", "currency_position": "", "values": []any{}}, r["cost_details"]); diff != "" {
		t.Errorf("empty cost details %s", diff)
	}
	if r["json_ld"].(map[string]any)["offers"] != nil || r["json_ld"].(map[string]any)["location"] != nil {
		t.Errorf("json_ld of a bare event %v", r["json_ld"])
	}
	r = e.do("GET", fmt.Sprintf("%s/events/%d", testNS, several), nil).must(t, 200).obj()
	vs, ok := r["venue"].([]any)
	if !ok || len(vs) != 2 {
		t.Fatalf("several venues: %v", r["venue"])
	}
	annex := vs[1].(map[string]any)
	if annex["stateprovince"] != "Ontario" || annex["country"] != "Canada" {
		t.Errorf("stateprovince outside the US: %v", annex)
	}
	for _, k := range []string{"address", "city", "zip", "phone", "website", "geo_lat", "geo_lng", "image", "description", "excerpt"} {
		if _, present := annex[k]; present {
			t.Errorf("empty %s not left out", k)
		}
	}
}

// A venue or organizer created inside an event write is one like any other:
// wire §3 lists modified/modified_utc for it.
func TestNestedVenueAndOrganizerHaveModified(t *testing.T) {
	e := newEnv(t)
	r := e.do("POST", testNS+"/events", map[string]any{"title": "Nest", "start_date": "2026-12-09 10:00", "end_date": "2026-12-09 11:00",
		"venue": map[string]any{"venue": "Nested Hall"}, "organizer": map[string]any{"organizer": "Nested Org"}}, user("admin")).must(t, 201).obj()
	for _, k := range []string{"venue", "organizer"} {
		var rec map[string]any
		switch x := r[k].(type) {
		case map[string]any:
			rec = x
		case []any:
			rec = x[0].(map[string]any)
		}
		got := e.do("GET", fmt.Sprintf("%s/%ss/%v", testNS, k, rec["id"]), nil).must(t, 200).obj()
		if got["modified"] != "2026-11-22 07:00:00" || got["modified_utc"] != "2026-11-22 12:00:00" {
			t.Errorf("%s created inside an event: modified %v, modified_utc %v", k, got["modified"], got["modified_utc"])
		}
	}
}

func TestCostFormatting(t *testing.T) {
	for _, c := range []struct {
		in                      []string
		display, sym, code, pos string
		values                  []string
	}{
		{nil, "", "", "", "", nil},
		{[]string{"25"}, "25", "", "", "", []string{"25"}},
		{[]string{"0"}, "Free", "", "", "", []string{"0"}},
		{[]string{"$15"}, "$15", "$", "USD", "prefix", []string{"15"}},
		{[]string{"$20", "$10", "$15"}, "$10 – $20", "$", "USD", "prefix", []string{"10", "15", "20"}},
		{[]string{"10 €", "5 €"}, "5€ – 10€", "€", "EUR", "postfix", []string{"5", "10"}},
		{[]string{"0", "$20"}, "Free – 20", "", "", "", []string{"0", "20"}},
		{[]string{"1,000.50 CHF", "12,5 CHF"}, "12.5CHF – 1000.50CHF", "CHF", "CHF", "postfix", []string{"12.5", "1000.50"}},
		{[]string{"Donation"}, "Donation", "", "", "", nil},
		{[]string{"Donation", "At the door"}, "Donation, At the door", "", "", "", nil},
		{[]string{"$10", "$10"}, "$10", "$", "USD", "prefix", []string{"10"}},
	} {
		got := parseCost(c.in)
		want := costInfo{display: c.display, symbol: c.sym, code: c.code, position: c.pos, values: c.values}
		if len(c.values) > 0 {
			want.min = c.values[0]
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(costInfo{})); diff != "" {
			t.Errorf("%q (-want +got):\n%s", c.in, diff)
		}
	}
}
