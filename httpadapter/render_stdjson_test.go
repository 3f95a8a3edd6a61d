package httpadapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// The hand-written JSON writer (jsonenc.go) is kept only because it clearly
// beats encoding/json on whole responses (docs/benchmarks.md, "Rendering").
// This file is the other side of that comparison: the same representations
// as adapter structs marshalled by encoding/json, checked byte for byte
// against the writer, and benchmarked beside it on a single event and on a
// page of 50.

type jDetails struct {
	Year    string `json:"year"`
	Month   string `json:"month"`
	Day     string `json:"day"`
	Hour    string `json:"hour"`
	Minutes string `json:"minutes"`
	Seconds string `json:"seconds"`
}

type jCost struct {
	Symbol   string   `json:"currency_symbol"`
	Code     string   `json:"currency_code"`
	Position string   `json:"currency_position"`
	Values   []string `json:"values"`
}

type jSize struct {
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	MimeType string `json:"mime-type"`
	URL      string `json:"url"`
}

type jImage struct {
	URL       string           `json:"url"`
	ID        int64            `json:"id"`
	Extension string           `json:"extension,omitempty"`
	Width     int              `json:"width,omitempty"`
	Height    int              `json:"height,omitempty"`
	Sizes     map[string]jSize `json:"sizes,omitempty"`
}

type jTermURLs struct {
	Self       string `json:"self"`
	Collection string `json:"collection"`
	Up         string `json:"up,omitempty"`
}

type jTerm struct {
	Name           string    `json:"name"`
	Slug           string    `json:"slug"`
	TermGroup      int       `json:"term_group"`
	TermTaxonomyID int64     `json:"term_taxonomy_id"`
	Taxonomy       string    `json:"taxonomy"`
	Description    string    `json:"description"`
	Parent         int64     `json:"parent"`
	Count          int       `json:"count"`
	Filter         string    `json:"filter"`
	ID             int64     `json:"id"`
	URLs           jTermURLs `json:"urls"`
}

// jPostHead is what venues and organizers start with (postHead).
type jPostHead struct {
	ID          int64   `json:"id"`
	Author      string  `json:"author,omitempty"`
	Status      string  `json:"status,omitempty"`
	Date        string  `json:"date,omitempty"`
	DateUTC     string  `json:"date_utc,omitempty"`
	Modified    string  `json:"modified,omitempty"`
	ModifiedUTC string  `json:"modified_utc,omitempty"`
	URL         string  `json:"url,omitempty"`
	Venue       string  `json:"venue,omitempty"`
	Organizer   string  `json:"organizer,omitempty"`
	Description string  `json:"description,omitempty"`
	Excerpt     string  `json:"excerpt,omitempty"`
	Slug        string  `json:"slug,omitempty"`
	Image       *jImage `json:"image,omitempty"`
}

type jVenue struct {
	jPostHead
	Address         string   `json:"address,omitempty"`
	City            string   `json:"city,omitempty"`
	Country         string   `json:"country,omitempty"`
	Province        string   `json:"province,omitempty"`
	State           string   `json:"state,omitempty"`
	Zip             string   `json:"zip,omitempty"`
	Phone           string   `json:"phone,omitempty"`
	Website         string   `json:"website,omitempty"`
	StateProvince   string   `json:"stateprovince,omitempty"`
	GeoLat          *float64 `json:"geo_lat,omitempty"`
	GeoLng          *float64 `json:"geo_lng,omitempty"`
	ShowMap         *bool    `json:"show_map"`
	ShowMapLink     *bool    `json:"show_map_link"`
	GlobalID        string   `json:"global_id"`
	GlobalIDLineage []string `json:"global_id_lineage"`
}

type jOrganizer struct {
	jPostHead
	Phone           string   `json:"phone,omitempty"`
	Website         string   `json:"website,omitempty"`
	Email           string   `json:"email,omitempty"`
	GlobalID        string   `json:"global_id"`
	GlobalIDLineage []string `json:"global_id_lineage"`
}

type jSeries struct {
	ID              int64  `json:"id"`
	RestURL         string `json:"rest_url"`
	RecurrenceID    string `json:"recurrence_id"`
	RecurrenceIDUTC string `json:"recurrence_id_utc"`
	Detached        bool   `json:"detached"`
}

type jAddress struct {
	Type     string `json:"@type"`
	Street   string `json:"streetAddress,omitempty"`
	Locality string `json:"addressLocality,omitempty"`
	Region   string `json:"addressRegion,omitempty"`
	Postal   string `json:"postalCode,omitempty"`
	Country  string `json:"addressCountry,omitempty"`
}

type jGeo struct {
	Type string  `json:"@type"`
	Lat  float64 `json:"latitude"`
	Lng  float64 `json:"longitude"`
}

type jPlaceLD struct {
	Context     string    `json:"@context,omitempty"`
	Type        string    `json:"@type"`
	Name        string    `json:"name"`
	Description string    `json:"description,omitempty"`
	URL         string    `json:"url,omitempty"`
	Address     *jAddress `json:"address,omitempty"`
	Geo         *jGeo     `json:"geo,omitempty"`
	Telephone   string    `json:"telephone,omitempty"`
	Email       string    `json:"email,omitempty"`
	SameAs      string    `json:"sameAs,omitempty"`
}

type jOffer struct {
	Type     string `json:"@type"`
	Price    string `json:"price"`
	Currency string `json:"priceCurrency,omitempty"`
	URL      string `json:"url"`
}

type jEventLD struct {
	Context     string    `json:"@context"`
	Type        string    `json:"@type"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Image       string    `json:"image,omitempty"`
	URL         string    `json:"url"`
	StartDate   string    `json:"startDate"`
	EndDate     string    `json:"endDate"`
	Location    *jPlaceLD `json:"location,omitempty"`
	Organizer   any       `json:"organizer,omitempty"` // one object or an array
	Offers      *jOffer   `json:"offers,omitempty"`
}

type jEvent struct {
	ID                  int64        `json:"id"`
	GlobalID            string       `json:"global_id"`
	GlobalIDLineage     []string     `json:"global_id_lineage"`
	Author              string       `json:"author"`
	Status              string       `json:"status"`
	Date                string       `json:"date"`
	DateUTC             string       `json:"date_utc"`
	Modified            string       `json:"modified"`
	ModifiedUTC         string       `json:"modified_utc"`
	URL                 string       `json:"url"`
	RestURL             string       `json:"rest_url"`
	Title               string       `json:"title"`
	Description         string       `json:"description"`
	Excerpt             string       `json:"excerpt"`
	Slug                string       `json:"slug"`
	Image               any          `json:"image"` // false or *jImage
	AllDay              *bool        `json:"all_day"`
	StartDate           string       `json:"start_date"`
	StartDateDetails    jDetails     `json:"start_date_details"`
	EndDate             string       `json:"end_date"`
	EndDateDetails      jDetails     `json:"end_date_details"`
	UTCStartDate        string       `json:"utc_start_date"`
	UTCStartDateDetails jDetails     `json:"utc_start_date_details"`
	UTCEndDate          string       `json:"utc_end_date"`
	UTCEndDateDetails   jDetails     `json:"utc_end_date_details"`
	Timezone            string       `json:"timezone"`
	TimezoneAbbr        string       `json:"timezone_abbr"`
	Cost                string       `json:"cost"`
	CostDetails         jCost        `json:"cost_details"`
	Website             string       `json:"website"`
	ShowMap             *bool        `json:"show_map"`
	ShowMapLink         *bool        `json:"show_map_link"`
	HideFromListings    *bool        `json:"hide_from_listings"`
	Sticky              *bool        `json:"sticky"`
	Featured            *bool        `json:"featured"`
	Categories          []jTerm      `json:"categories"`
	Tags                []jTerm      `json:"tags"`
	Venue               any          `json:"venue"` // [], one object or an array
	Organizer           []jOrganizer `json:"organizer"`
	Recurrence          []string     `json:"recurrence"`
	Series              *jSeries     `json:"series"`
	JSONLD              *jEventLD    `json:"json_ld,omitempty"`
}

type jEventList struct {
	Events      []jEvent `json:"events"`
	RestURL     string   `json:"rest_url"`
	NextRestURL string   `json:"next_rest_url,omitempty"`
	PrevRestURL string   `json:"previous_rest_url,omitempty"`
	Total       int      `json:"total"`
	TotalPages  int      `json:"total_pages"`
}

const layoutWire = "2006-01-02 15:04:05"

func jDetailsOf(t time.Time) jDetails {
	p := func(n, w int) string { return fmt.Sprintf("%0*d", w, n) }
	return jDetails{p(t.Year(), 4), p(int(t.Month()), 2), p(t.Day(), 2), p(t.Hour(), 2), p(t.Minute(), 2), p(t.Second(), 2)}
}

func (l *links) jPage(section, slug string) string {
	return l.site + section + url.PathEscape(slug) + "/"
}

func (l *links) jRest(collection string, id int64) string {
	return l.rest + collection + "/" + strconv.FormatInt(id, 10) + l.query
}

func (l *links) jGlobal(id int64) (string, []string) {
	g := l.host + "?id=" + strconv.FormatInt(id, 10)
	return g, []string{g}
}

func jImageOf(img *calendar.Image) *jImage {
	if img == nil || img.URL == "" {
		return nil
	}
	out := &jImage{URL: img.URL, ID: img.ID, Extension: img.Extension, Width: img.Width, Height: img.Height}
	if len(img.Sizes) > 0 {
		out.Sizes = make(map[string]jSize, len(img.Sizes))
		for k, s := range img.Sizes {
			out.Sizes[k] = jSize{s.Width, s.Height, s.MimeType, s.URL}
		}
	}
	return out
}

func (l *links) jHead(p *postView) jPostHead {
	h := jPostHead{ID: p.id, Status: string(p.status), Description: p.description, Excerpt: p.excerpt, Slug: p.slug, Image: jImageOf(p.image)}
	if p.author != 0 {
		h.Author = strconv.FormatInt(p.author, 10)
	}
	if !p.date.IsZero() {
		h.Date, h.DateUTC = p.date.Format(layoutWire), p.date.UTC().Format(layoutWire)
	}
	if !p.modified.IsZero() {
		h.Modified, h.ModifiedUTC = p.modified.Format(layoutWire), p.modified.UTC().Format(layoutWire)
	}
	if p.slug != "" {
		h.URL = l.jPage(p.section, p.slug)
	}
	if p.nameKey == "venue" {
		h.Venue = p.name
	} else {
		h.Organizer = p.name
	}
	return h
}

func (l *links) jVenueOf(v *calendar.Venue) jVenue {
	p := venueView(v)
	out := jVenue{jPostHead: l.jHead(&p), Address: v.Address, City: v.City, Country: v.Country, Province: v.Province,
		State: v.State, Zip: v.Zip, Phone: v.Phone, Website: v.Website, StateProvince: v.DisplayStateProvince(),
		ShowMap: v.ShowMap, ShowMapLink: v.ShowMapLink}
	if v.GeoLat != nil && v.GeoLng != nil {
		out.GeoLat, out.GeoLng = v.GeoLat, v.GeoLng
	}
	out.GlobalID, out.GlobalIDLineage = l.jGlobal(v.ID)
	return out
}

func (l *links) jOrganizerOf(o *calendar.Organizer) jOrganizer {
	p := organizerView(o)
	out := jOrganizer{jPostHead: l.jHead(&p), Phone: o.Phone, Website: o.Website, Email: o.Email}
	out.GlobalID, out.GlobalIDLineage = l.jGlobal(o.ID)
	return out
}

func (l *links) jTermOf(t *calendar.Term) jTerm {
	coll := termCollection(t.Taxonomy)
	u := jTermURLs{Self: l.jRest(coll, t.ID), Collection: l.rest + coll + l.query}
	if t.Parent != 0 {
		u.Up = l.jRest(coll, t.Parent)
	}
	return jTerm{Name: t.Name, Slug: t.Slug, TermTaxonomyID: t.ID, Taxonomy: string(t.Taxonomy), Description: t.Description,
		Parent: t.Parent, Count: t.Count, Filter: "raw", ID: t.ID, URLs: u}
}

func (l *links) jLDHead(typ string, top bool, p *postView) jPlaceLD {
	out := jPlaceLD{Type: typ, Name: p.name, Description: p.description}
	if top {
		out.Context = "http://schema.org"
	}
	if p.slug != "" {
		out.URL = l.jPage(p.section, p.slug)
	}
	return out
}

func (l *links) jVenueLD(v *calendar.Venue) *jPlaceLD {
	p := venueView(v)
	out := l.jLDHead("Place", false, &p)
	if sp := v.DisplayStateProvince(); v.Address != "" || v.City != "" || v.Zip != "" || v.Country != "" || sp != "" {
		out.Address = &jAddress{"PostalAddress", v.Address, v.City, sp, v.Zip, v.Country}
	}
	if v.GeoLat != nil && v.GeoLng != nil {
		out.Geo = &jGeo{"GeoCoordinates", *v.GeoLat, *v.GeoLng}
	}
	out.Telephone, out.SameAs = v.Phone, v.Website
	return &out
}

func (l *links) jOrganizerLD(o *calendar.Organizer) *jPlaceLD {
	p := organizerView(o)
	out := l.jLDHead("Person", false, &p)
	out.Telephone, out.Email, out.SameAs = o.Phone, o.Email, o.Website
	return &out
}

func (l *links) jEventOf(ev *calendar.Event, withLD bool) jEvent {
	out := jEvent{ID: ev.ID, Author: strconv.FormatInt(ev.Author, 10), Status: string(ev.Status),
		Date: ev.Date.Format(layoutWire), DateUTC: ev.Date.UTC().Format(layoutWire),
		Modified: ev.Modified.Format(layoutWire), ModifiedUTC: ev.Modified.UTC().Format(layoutWire),
		URL: l.jPage("/event/", ev.Slug), RestURL: l.jRest("/events", ev.ID),
		Title: ev.Title, Description: ev.Description, Excerpt: ev.Excerpt, Slug: ev.Slug, Image: false,
		StartDate: ev.Start.Format(layoutWire), StartDateDetails: jDetailsOf(ev.Start),
		EndDate: ev.End.Format(layoutWire), EndDateDetails: jDetailsOf(ev.End),
		UTCStartDate: ev.Start.UTC().Format(layoutWire), UTCStartDateDetails: jDetailsOf(ev.Start.UTC()),
		UTCEndDate: ev.End.UTC().Format(layoutWire), UTCEndDateDetails: jDetailsOf(ev.End.UTC()),
		Timezone: ev.TimeZone, TimezoneAbbr: ev.Start.Format("MST"),
		ShowMap: ev.ShowMap, ShowMapLink: ev.ShowMapLink, HideFromListings: ev.HideFromListings, Sticky: ev.Sticky, Featured: ev.Featured,
		Categories: []jTerm{}, Tags: []jTerm{}, Organizer: []jOrganizer{}, Recurrence: []string{},
	}
	out.GlobalID, out.GlobalIDLineage = l.jGlobal(ev.ID)
	if img := jImageOf(ev.Image); img != nil {
		out.Image = img
	}
	if !ev.Protected {
		out.AllDay = &ev.AllDay
	}
	c := parseCost(ev.Cost)
	out.Cost = c.display
	out.CostDetails = jCost{c.symbol, c.code, c.position, append([]string{}, c.values...)}
	switch {
	case ev.Website != "":
		out.Website = ev.Website
	case ev.Protected:
	default:
		out.Website = out.URL
	}
	for i := range ev.Categories {
		out.Categories = append(out.Categories, l.jTermOf(&ev.Categories[i]))
	}
	for i := range ev.Tags {
		out.Tags = append(out.Tags, l.jTermOf(&ev.Tags[i]))
	}
	switch len(ev.Venues) {
	case 0:
		out.Venue = []jVenue{}
	case 1:
		out.Venue = l.jVenueOf(&ev.Venues[0])
	default:
		vs := make([]jVenue, len(ev.Venues))
		for i := range ev.Venues {
			vs[i] = l.jVenueOf(&ev.Venues[i])
		}
		out.Venue = vs
	}
	for i := range ev.Organizers {
		out.Organizer = append(out.Organizer, l.jOrganizerOf(&ev.Organizers[i]))
	}
	out.Recurrence = append(out.Recurrence, ev.Recurrence...)
	if ev.Series != nil {
		rid := ev.Series.RecurrenceID.In(ev.Date.Location())
		out.Series = &jSeries{ID: ev.Series.ID, RestURL: l.jRest("/events", ev.Series.ID),
			RecurrenceID: rid.Format(layoutWire), RecurrenceIDUTC: rid.UTC().Format(layoutWire), Detached: ev.Series.Detached}
	}
	if withLD {
		ld := &jEventLD{Context: "http://schema.org", Type: "Event", Name: ev.Title, Description: ev.Description,
			URL: out.URL, StartDate: ev.Start.Format(time.RFC3339), EndDate: ev.End.Format(time.RFC3339)}
		if ev.Image != nil {
			ld.Image = ev.Image.URL
		}
		if len(ev.Venues) > 0 {
			ld.Location = l.jVenueLD(&ev.Venues[0])
		}
		switch len(ev.Organizers) {
		case 0:
		case 1:
			ld.Organizer = l.jOrganizerLD(&ev.Organizers[0])
		default:
			os := make([]*jPlaceLD, len(ev.Organizers))
			for i := range ev.Organizers {
				os[i] = l.jOrganizerLD(&ev.Organizers[i])
			}
			ld.Organizer = os
		}
		if c.min != "" {
			ld.Offers = &jOffer{Type: "Offer", Price: c.min, Currency: c.code, URL: out.URL}
		}
		out.JSONLD = ld
	}
	return out
}

// stdBufs pools the encoding/json side's buffers, as encPool does for the
// hand-written side, so the comparison is of encoders only.
var stdBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// stdJSON marshals v like the wire wants it (no HTML escaping), without
// encoding/json's trailing newline.
func stdJSON(buf *bytes.Buffer, v any) []byte {
	buf.Reset()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func handEvent(l *links, e *enc, ev *calendar.Event) []byte {
	l.event(e, ev, true)
	return e.b
}

func handList(l *links, e *enc, evs []calendar.Event, total, pages int, self, next string) []byte {
	e.open('{')
	e.key("events")
	e.open('[')
	for i := range evs {
		l.event(e, &evs[i], false)
	}
	e.close(']')
	e.key("rest_url")
	e.str(self)
	if next != "" {
		e.key("next_rest_url")
		e.str(next)
	}
	e.key("total")
	e.int(int64(total))
	e.key("total_pages")
	e.int(int64(pages))
	e.close('}')
	return e.b
}

func stdList(l *links, buf *bytes.Buffer, evs []calendar.Event, total, pages int, self, next string) []byte {
	out := jEventList{Events: make([]jEvent, len(evs)), RestURL: self, NextRestURL: next, Total: total, TotalPages: pages}
	for i := range evs {
		out.Events[i] = l.jEventOf(&evs[i], false)
	}
	return stdJSON(buf, &out)
}

// compareSetup returns the links of a request and the views the comparison
// renders: one event (the benchmark calendar's) and a page of 50.
func compareSetup(tb *testing.B) (*links, *calendar.Event, []calendar.Event) {
	benchSetup(tb)
	ctx := as(0)
	ev, err := benchH.cal.GetEvent(ctx, calendar.ByID(benchID), calendar.ReadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	page, err := benchH.cal.ListEvents(ctx, calendar.EventQuery{PerPage: 50})
	if err != nil {
		tb.Fatal(err)
	}
	if len(page.Events) != 50 {
		tb.Fatalf("page of %d events", len(page.Events))
	}
	l := &links{site: "http://" + testHost, host: testHost, rest: "http://" + testHost + testNS}
	return l, ev, page.Events
}

const (
	cmpSelf = "http://" + testHost + testNS + "/events?page=1&per_page=50"
	cmpNext = "http://" + testHost + testNS + "/events?page=2&per_page=50"
)

// TestStdJSONMatchesWriter proves the two sides of the comparison write the
// same bytes, so the benchmark compares equal work.
func TestStdJSONMatchesWriter(t *testing.T) {
	e := newEnv(t)
	f := e.fixture()
	ev, err := e.cal.GetEvent(as(idAuthor), calendar.ByID(f.event), calendar.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l := &links{site: "http://" + testHost, host: testHost, rest: "http://" + testHost + testNS, query: "?translation_language=fr"}
	hand := handEvent(l, &enc{}, ev)
	std := stdJSON(new(bytes.Buffer), l.jEventOf(ev, true))
	if !bytes.Equal(hand, std) {
		t.Errorf("single event differs:\nhand %s\nstd  %s", hand, std)
	}
	evs := []calendar.Event{*ev, *ev}
	hand = handList(l, &enc{}, evs, 60, 2, cmpSelf, cmpNext)
	std = stdList(l, new(bytes.Buffer), evs, 60, 2, cmpSelf, cmpNext)
	if !bytes.Equal(hand, std) {
		t.Errorf("list differs:\nhand %s\nstd  %s", hand, std)
	}
}

// BenchmarkRenderEvent writes the body of a single GET (with json_ld) from
// the calendar's view, by the hand-written writer and by encoding/json.
func BenchmarkRenderEvent(b *testing.B) {
	l, ev, _ := compareSetup(b)
	b.Run("writer", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			e := getEnc()
			b.SetBytes(int64(len(handEvent(l, e, ev))))
			putEnc(e)
		}
	})
	b.Run("encoding_json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf := stdBufs.Get().(*bytes.Buffer)
			b.SetBytes(int64(len(stdJSON(buf, l.jEventOf(ev, true)))))
			stdBufs.Put(buf)
		}
	})
}

// BenchmarkRenderList50 writes the body of a page of 50 events.
func BenchmarkRenderList50(b *testing.B) {
	l, _, evs := compareSetup(b)
	b.Run("writer", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			e := getEnc()
			b.SetBytes(int64(len(handList(l, e, evs, benchEvents, benchEvents/50, cmpSelf, cmpNext))))
			putEnc(e)
		}
	})
	b.Run("encoding_json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf := stdBufs.Get().(*bytes.Buffer)
			b.SetBytes(int64(len(stdList(l, buf, evs, benchEvents, benchEvents/50, cmpSelf, cmpNext))))
			stdBufs.Put(buf)
		}
	})
}
