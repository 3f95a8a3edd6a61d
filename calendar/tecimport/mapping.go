package tecimport

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/eventcal/eventcal/calendar"
)

// mapper turns the original's representations into calendar records. Link
// ids in the records it returns are the site's ids; the importer maps them.
type mapper struct {
	lang     calendar.Lang
	authors  func(int64) int64
	siteZone *time.Location // zone of dates the site sends only in local time
	host     string         // host of global ids the site left out
}

// decodeText undoes the HTML entities WordPress formatting adds to titles
// and names (&#8211; → –, &amp; → &), so the calendar stores the characters
// the original shows.
func decodeText(s string) string { return html.UnescapeString(s) }

// decodeSlug turns WordPress's stored form of a non-ASCII slug
// (percent-encoded UTF-8) into its characters.
func decodeSlug(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	d, err := url.PathUnescape(s)
	if err != nil || !utf8.ValidString(d) {
		return s
	}
	return strings.ToLower(d)
}

func (m *mapper) text(s string) calendar.Text {
	if s == "" {
		return nil
	}
	return calendar.Text{m.lang: s}
}

// uid is the record's global id, or the one the original would give it.
func (m *mapper) uid(p *sourcePost) string {
	if g := strings.TrimSpace(string(p.GlobalID)); g != "" {
		return g
	}
	return m.host + "?id=" + strconv.FormatInt(int64(p.ID), 10)
}

// when reads a UTC date, else the same date in site time, else zero (the
// calendar then takes "now"). Drafts never published carry WordPress's zero
// date in date_utc, so the local one is the fallback.
func (m *mapper) when(utc, local flexString) time.Time {
	if t, err := parseUTC("date", string(utc)); err == nil {
		return t
	}
	if t, err := parseIn("date", string(local), m.siteZone); err == nil {
		return t
	}
	return time.Time{}
}

// post fills what every post kind shares.
func (m *mapper) post(kind calendar.Kind, p *sourcePost, name string) (*calendar.PostRecord, error) {
	if p.ID <= 0 {
		return nil, errors.New("the record has no id")
	}
	rec := &calendar.PostRecord{
		ID: int64(p.ID), Kind: kind, Status: calendar.Status(strings.ToLower(strings.TrimSpace(string(p.Status)))),
		Date: m.when(p.DateUTC, p.Date), Modified: m.when(p.ModifiedUTC, p.Modified),
		Slug: decodeSlug(string(p.Slug)), Lang: m.lang, UID: m.uid(p),
		Title: m.text(decodeText(name)), Description: m.text(string(p.Description)), Excerpt: m.text(string(p.Excerpt)),
		Image: strings.TrimSpace(p.Image.URL),
	}
	if rec.Status == "" {
		rec.Status = calendar.StatusPublish
	}
	if m.authors != nil {
		rec.Author = m.authors(int64(p.Author))
	}
	return rec, nil
}

func flag(f flexBool) *bool {
	if !f.Set {
		return nil
	}
	v := f.Value
	return &v
}

// eventLinks are the records an event embeds, by the site's ids.
type eventLinks struct {
	venues     []sourceVenue
	organizers []sourceOrganizer
	categories []sourceTerm
	tags       []sourceTerm
}

// event maps one event; links hold the site's ids.
func (m *mapper) event(raw json.RawMessage) (*calendar.PostRecord, *eventLinks, error) {
	var e sourceEvent
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, nil, err
	}
	rec, err := m.post(calendar.KindEvent, &e.sourcePost, string(e.Title))
	if err != nil {
		return nil, nil, err
	}
	rec.TimeZone = strings.TrimSpace(string(e.TimeZone))
	loc := m.siteZone
	if rec.TimeZone != "" {
		if loc, err = calendar.ParseZone(rec.TimeZone); err != nil {
			return nil, nil, fmt.Errorf("timezone %q is not a time zone", rec.TimeZone)
		}
	}
	for _, d := range []struct {
		utc, local flexString
		field      string
		dst        *time.Time
	}{{e.UTCStartDate, e.StartDate, "start_date", &rec.Start}, {e.UTCEndDate, e.EndDate, "end_date", &rec.End}} {
		t, err := parseUTC(d.field, string(d.utc))
		if err != nil && strings.TrimSpace(string(d.utc)) == "" {
			t, err = parseIn(d.field, string(d.local), loc)
		}
		if err != nil {
			return nil, nil, err
		}
		*d.dst = t
	}
	rec.AllDay = e.AllDay.Value
	rec.Cost = costValues(string(e.Cost), e.CostDetails)
	if w := strings.TrimSpace(string(e.Website)); w != strings.TrimSpace(string(e.URL)) {
		rec.Website = w // the original shows the event's own page when it has no website
	}
	rec.ShowMap, rec.ShowMapLink = flag(e.ShowMap), flag(e.ShowMapLink)
	rec.HideFromListings, rec.Sticky, rec.Featured = e.HideFromListings.Value, e.Sticky.Value, e.Featured.Value
	links := &eventLinks{venues: e.Venue, organizers: e.Organizer, categories: e.Categories, tags: e.Tags}
	for _, v := range e.Venue {
		rec.VenueIDs = append(rec.VenueIDs, int64(v.ID))
	}
	for _, o := range e.Organizer {
		rec.OrganizerIDs = append(rec.OrganizerIDs, int64(o.ID))
	}
	for _, t := range e.Categories {
		rec.CategoryIDs = append(rec.CategoryIDs, int64(t.ID))
	}
	for _, t := range e.Tags {
		rec.TagIDs = append(rec.TagIDs, int64(t.ID))
	}
	return rec, links, nil
}

// costValues rebuilds the stored cost values from what the original shows:
// each numeric value with the currency symbol where the site puts it (so
// the calendar shows the same cost and cost_details), else the cost text.
func costValues(cost string, d costDetails) []string {
	sym := strings.TrimSpace(decodeText(string(d.CurrencySymbol)))
	var out []string
	for _, v := range d.Values {
		v := strings.TrimSpace(string(v))
		switch {
		case v == "":
		case sym == "":
			out = append(out, v)
		case string(d.CurrencyPosition) == "postfix":
			out = append(out, v+sym)
		default:
			out = append(out, sym+v)
		}
	}
	if len(out) == 0 {
		if c := strings.TrimSpace(decodeText(cost)); c != "" {
			out = []string{c}
		}
	}
	return out
}

// venue maps one venue (a list item or the object embedded in an event).
func (m *mapper) venue(v *sourceVenue) (*calendar.PostRecord, error) {
	rec, err := m.post(calendar.KindVenue, &v.sourcePost, string(v.Venue))
	if err != nil {
		return nil, err
	}
	rec.Address, rec.City, rec.Country = string(v.Address), string(v.City), string(v.Country)
	rec.Province, rec.State, rec.Zip = string(v.Province), string(v.State), string(v.Zip)
	rec.Phone, rec.Website = string(v.Phone), string(v.Website)
	// The original shows a derived stateprovince when none is stored; keep
	// only one that differs from what eventcal derives the same way.
	view := calendar.Venue{State: rec.State, Province: rec.Province, Country: rec.Country}
	if sp := string(v.StateProvince); sp != view.DisplayStateProvince() {
		rec.StateProvince = sp
	}
	switch {
	case v.GeoLat.Set && v.GeoLng.Set:
		lat, lng := v.GeoLat.Value, v.GeoLng.Value
		rec.GeoLat, rec.GeoLng = &lat, &lng
	case v.GeoLat.Set || v.GeoLng.Set:
		return nil, errors.New("geo_lat and geo_lng come together")
	}
	rec.ShowMap, rec.ShowMapLink = flag(v.ShowMap), flag(v.ShowMapLink)
	return rec, nil
}

// organizer maps one organizer.
func (m *mapper) organizer(o *sourceOrganizer) (*calendar.PostRecord, error) {
	rec, err := m.post(calendar.KindOrganizer, &o.sourcePost, string(o.Organizer))
	if err != nil {
		return nil, err
	}
	rec.Phone, rec.Website, rec.Email = string(o.Phone), string(o.Website), string(o.Email)
	return rec, nil
}

// term maps one category or tag; its Parent is the site's id.
func (m *mapper) term(tax calendar.Taxonomy, t *sourceTerm) (*calendar.TermRecord, error) {
	if t.ID <= 0 {
		return nil, errors.New("the term has no id")
	}
	if got := calendar.Taxonomy(t.Taxonomy); got != "" && got != tax {
		return nil, fmt.Errorf("taxonomy %q where %q was expected", got, tax)
	}
	rec := &calendar.TermRecord{ID: int64(t.ID), Taxonomy: tax, Slug: decodeSlug(string(t.Slug)), Lang: m.lang,
		Name: m.text(decodeText(string(t.Name))), Description: m.text(string(t.Description))}
	if tax.Hierarchical() {
		rec.Parent = int64(t.Parent)
	}
	return rec, nil
}

// decodeTerm decodes and maps a term list item.
func (m *mapper) decodeTerm(tax calendar.Taxonomy, raw json.RawMessage) (*calendar.TermRecord, error) {
	var t sourceTerm
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, err
	}
	return m.term(tax, &t)
}

// decodeVenue decodes and maps a venue list item.
func (m *mapper) decodeVenue(raw json.RawMessage) (*calendar.PostRecord, error) {
	var v sourceVenue
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return m.venue(&v)
}

// decodeOrganizer decodes and maps an organizer list item.
func (m *mapper) decodeOrganizer(raw json.RawMessage) (*calendar.PostRecord, error) {
	var o sourceOrganizer
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, err
	}
	return m.organizer(&o)
}

// itemID reads the id of a list item that may not decode otherwise, for reports.
func itemID(raw json.RawMessage) int64 {
	var head struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(raw, &head) != nil {
		return 0
	}
	var id flexInt
	if json.Unmarshal(head.ID, &id) != nil {
		return 0
	}
	return int64(id)
}
