package tecimport

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

func TestFlexTypes(t *testing.T) {
	var v struct {
		I flexInt    `json:"i"`
		B flexBool   `json:"b"`
		F flexFloat  `json:"f"`
		S flexString `json:"s"`
	}
	for _, c := range []struct {
		in   string
		want string // "ok" or "err"
		i    int64
		b    flexBool
		f    flexFloat
		s    string
	}{
		{`{"i":12,"b":true,"f":1.5,"s":"x"}`, "ok", 12, flexBool{true, true}, flexFloat{true, 1.5}, "x"},
		{`{"i":"12","b":"1","f":"-73.25","s":7}`, "ok", 12, flexBool{true, true}, flexFloat{true, -73.25}, "7"},
		{`{"i":"","b":"no","f":"","s":null}`, "ok", 0, flexBool{true, false}, flexFloat{}, ""},
		{`{"b":null,"s":false}`, "ok", 0, flexBool{}, flexFloat{}, ""},
		{`{"i":"seventeen"}`, "err", 0, flexBool{}, flexFloat{}, ""},
		{`{"b":"maybe"}`, "err", 0, flexBool{}, flexFloat{}, ""},
		{`{"f":"north"}`, "err", 0, flexBool{}, flexFloat{}, ""},
		{`{"s":{"a":1}}`, "err", 0, flexBool{}, flexFloat{}, ""},
	} {
		v.I, v.B, v.F, v.S = 0, flexBool{}, flexFloat{}, ""
		err := json.Unmarshal([]byte(c.in), &v)
		if (err != nil) != (c.want == "err") {
			t.Errorf("%s: err = %v", c.in, err)
			continue
		}
		if err == nil && (int64(v.I) != c.i || v.B != c.b || v.F != c.f || string(v.S) != c.s) {
			t.Errorf("%s: got %+v", c.in, v)
		}
	}
}

func TestDecodeTextAndSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Rock &amp; Roll &#8211; Night": "Rock & Roll – Night",
		"It&#8217;s &#8220;on&#8221;":   "It’s “on”",
		"&lt;Live&gt; &hellip;":         "<Live> …",
		"plain":                         "plain",
	} {
		if got := decodeText(in); got != want {
			t.Errorf("decodeText(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"%d0%ba%d0%be%d0%bd%d1%86%d0%b5%d1%80%d1%82-7": "концерт-7",
		"%E6%9D%B1%E4%BA%AC-jazz":                      "東京-jazz",
		"jazz-night":                                   "jazz-night",
		"100%-fun":                                     "100%-fun", // not an escape: kept
	} {
		if got := decodeSlug(in); got != want {
			t.Errorf("decodeSlug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCostValues(t *testing.T) {
	d := func(sym, pos string, vals ...string) costDetails {
		c := costDetails{CurrencySymbol: flexString(sym), CurrencyPosition: flexString(pos)}
		for _, v := range vals {
			c.Values = append(c.Values, flexString(v))
		}
		return c
	}
	for _, c := range []struct {
		cost string
		d    costDetails
		want []string
	}{
		{"", d("", ""), nil},
		{"Donation", d("", ""), []string{"Donation"}},
		{"$10", d("$", "prefix", "10"), []string{"$10"}},
		{"Free", d("$", "prefix", "0"), []string{"$0"}},
		{"8€ – 30€", d("€", "postfix", "8", "12.50", "30"), []string{"8€", "12.50€", "30€"}},
		{"&#36;5", d("&#36;", "prefix", "5"), []string{"$5"}},
		{"10", d("", "", "10"), []string{"10"}},
	} {
		if got := costValues(c.cost, c.d); !slices.Equal(got, c.want) {
			t.Errorf("costValues(%q, %+v) = %q, want %q", c.cost, c.d, got, c.want)
		}
	}
}

func TestMapEvent(t *testing.T) {
	m := &mapper{lang: "en", siteZone: time.UTC, host: "example.org"}
	raw := []byte(`{"id":"12","author":"3","status":"publish","date":"2025-01-02 10:00:00","date_utc":"0000-00-00 00:00:00",
		"modified_utc":"2025-01-03 10:00:00","url":"https://example.org/event/a/","title":"A &amp; B","description":"<p>x</p>",
		"slug":"a","image":{"url":"https://example.org/i.png","id":5},"all_day":"","start_date":"2025-02-01 20:00:00",
		"utc_start_date":"","end_date":"2025-02-01 22:00:00","utc_end_date":"2025-02-01 21:00:00","timezone":"Europe/Paris",
		"website":"https://example.org/event/a/","show_map":"1","show_map_link":null,"hide_from_listings":false,
		"sticky":0,"featured":1,"cost":"","cost_details":[],"categories":[{"id":4,"name":"C"}],"tags":[],
		"venue":{"id":7,"venue":"V"},"organizer":[{"id":8,"organizer":"O"},{"id":9,"organizer":"P"}]}`)
	rec, links, err := m.event(raw)
	if err != nil {
		t.Fatal(err)
	}
	paris, _ := time.LoadLocation("Europe/Paris")
	want := time.Date(2025, 2, 1, 20, 0, 0, 0, paris)
	switch {
	case rec.ID != 12 || rec.UID != "example.org?id=12":
		t.Errorf("id/uid: %d %q", rec.ID, rec.UID)
	case rec.Title["en"] != "A & B" || rec.Description["en"] != "<p>x</p>":
		t.Errorf("texts: %v %v", rec.Title, rec.Description)
	case !rec.Date.Equal(time.Date(2025, 1, 2, 10, 0, 0, 0, time.UTC)):
		t.Errorf("a zero date_utc falls back to date in site time: %v", rec.Date)
	case !rec.Start.Equal(want) || !rec.End.Equal(time.Date(2025, 2, 1, 21, 0, 0, 0, time.UTC)):
		t.Errorf("start %v (want %v), end %v", rec.Start, want, rec.End)
	case rec.Website != "":
		t.Errorf("the event's own page taken as its website: %q", rec.Website)
	case rec.ShowMap == nil || !*rec.ShowMap || rec.ShowMapLink != nil || !rec.Featured || rec.Sticky:
		t.Errorf("flags: %+v", rec)
	case !slices.Equal(rec.VenueIDs, []int64{7}) || !slices.Equal(rec.OrganizerIDs, []int64{8, 9}) || !slices.Equal(rec.CategoryIDs, []int64{4}):
		t.Errorf("links: %v %v %v", rec.VenueIDs, rec.OrganizerIDs, rec.CategoryIDs)
	case len(links.venues) != 1 || len(links.organizers) != 2:
		t.Errorf("embedded: %+v", links)
	case rec.Image != "https://example.org/i.png" || rec.Author != 0:
		t.Errorf("image %q, author %d (default mapping is the importing user)", rec.Image, rec.Author)
	}
}

func TestMapVenueStateProvince(t *testing.T) {
	m := &mapper{lang: "en", siteZone: time.UTC}
	for _, c := range []struct {
		json string
		want string
	}{
		{`{"id":1,"venue":"V","state":"MA","country":"United States","stateprovince":"MA"}`, ""},
		{`{"id":1,"venue":"V","province":"ON","country":"Canada","stateprovince":"ON"}`, ""},
		{`{"id":1,"venue":"V","province":"ON","country":"Canada","stateprovince":"Ontario"}`, "Ontario"},
	} {
		rec, err := m.decodeVenue([]byte(c.json))
		if err != nil || rec.StateProvince != c.want {
			t.Errorf("%s: %q, %v", c.json, rec.StateProvince, err)
		}
	}
	if _, err := m.decodeVenue([]byte(`{"id":1,"venue":"V","geo_lat":"40.1"}`)); err == nil {
		t.Error("a latitude without longitude was taken")
	}
}

// FuzzMapRecords feeds arbitrary JSON to every mapping: it may refuse a
// record, never panic, and what it accepts has an id and a kind.
func FuzzMapRecords(f *testing.F) {
	f.Add([]byte(`{"id":1,"title":"x","utc_start_date":"2025-01-01 10:00:00","utc_end_date":"2025-01-01 11:00:00","venue":[],"organizer":{}}`))
	f.Add([]byte(`{"id":"2","venue":"V","geo_lat":"1","geo_lng":2,"image":false}`))
	f.Add([]byte(`{"id":3,"name":"&amp;","slug":"%d0%ba","parent":"0"}`))
	f.Add([]byte(`{"id":4,"cost_details":{"values":["1",2]},"categories":[{"id":"x"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m := &mapper{lang: "en", siteZone: time.UTC, host: "h"}
		if rec, _, err := m.event(b); err == nil && (rec.ID <= 0 || rec.Kind != calendar.KindEvent) {
			t.Errorf("event accepted without id: %+v", rec)
		}
		if rec, err := m.decodeVenue(b); err == nil && rec.ID <= 0 {
			t.Errorf("venue accepted without id")
		}
		if rec, err := m.decodeOrganizer(b); err == nil && rec.ID <= 0 {
			t.Errorf("organizer accepted without id")
		}
		if rec, err := m.decodeTerm(calendar.TaxonomyCategory, b); err == nil && rec.ID <= 0 {
			t.Errorf("term accepted without id")
		}
		decodePage("events", b)
		itemID(b)
	})
}
