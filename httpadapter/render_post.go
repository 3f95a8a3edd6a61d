package httpadapter

import (
	"slices"
	"strconv"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// optStr writes key: s unless s is empty (venues and organizers leave out
// every empty value, wire §3).
func optStr(e *enc, key, s string) {
	if s != "" {
		e.key(key)
		e.str(s)
	}
}

// postHead writes the fields venues and organizers share at their start.
func (l *links) postHead(e *enc, id, author int64, st calendar.Status, d, m time.Time) {
	e.key("id")
	e.int(id)
	if author != 0 {
		e.key("author")
		e.str(strconv.FormatInt(author, 10))
	}
	optStr(e, "status", string(st))
	if !d.IsZero() {
		e.key("date")
		e.time(d)
		e.key("date_utc")
		e.time(d.UTC())
	}
	if !m.IsZero() {
		e.key("modified")
		e.time(m)
		e.key("modified_utc")
		e.time(m.UTC())
	}
}

// venue writes a venue per wire §3; withLD adds json_ld (single GET).
func (l *links) venue(e *enc, v *calendar.Venue, withLD bool) {
	e.open('{')
	l.postHead(e, v.ID, v.Author, v.Status, v.Date, v.Modified)
	if v.Slug != "" {
		e.key("url")
		l.pageURL(e, "/venue/", v.Slug)
	}
	optStr(e, "venue", v.Name)
	optStr(e, "description", v.Description)
	optStr(e, "excerpt", v.Excerpt)
	optStr(e, "slug", v.Slug)
	if v.Image != nil && v.Image.URL != "" {
		e.key("image")
		image(e, v.Image)
	}
	optStr(e, "address", v.Address)
	optStr(e, "city", v.City)
	optStr(e, "country", v.Country)
	optStr(e, "province", v.Province)
	optStr(e, "state", v.State)
	optStr(e, "zip", v.Zip)
	optStr(e, "phone", v.Phone)
	optStr(e, "website", v.Website)
	optStr(e, "stateprovince", v.DisplayStateProvince())
	if v.GeoLat != nil && v.GeoLng != nil {
		e.key("geo_lat")
		e.float(*v.GeoLat)
		e.key("geo_lng")
		e.float(*v.GeoLng)
	}
	e.key("show_map")
	e.boolPtr(v.ShowMap)
	e.key("show_map_link")
	e.boolPtr(v.ShowMapLink)
	l.globalIDs(e, v.ID)
	if withLD {
		e.key("json_ld")
		l.venueLD(e, v, true)
	}
	e.close('}')
}

// organizer writes an organizer per wire §3; withLD adds json_ld (single GET).
func (l *links) organizer(e *enc, o *calendar.Organizer, withLD bool) {
	e.open('{')
	l.postHead(e, o.ID, o.Author, o.Status, o.Date, o.Modified)
	if o.Slug != "" {
		e.key("url")
		l.pageURL(e, "/organizer/", o.Slug)
	}
	optStr(e, "organizer", o.Name)
	optStr(e, "description", o.Description)
	optStr(e, "excerpt", o.Excerpt)
	optStr(e, "slug", o.Slug)
	if o.Image != nil && o.Image.URL != "" {
		e.key("image")
		image(e, o.Image)
	}
	optStr(e, "phone", o.Phone)
	optStr(e, "website", o.Website)
	optStr(e, "email", o.Email)
	l.globalIDs(e, o.ID)
	if withLD {
		e.key("json_ld")
		l.organizerLD(e, o, true)
	}
	e.close('}')
}

// termCollection is the endpoint collection of a taxonomy.
func termCollection(tax calendar.Taxonomy) string {
	if tax == calendar.TaxonomyTag {
		return "/tags"
	}
	return "/categories"
}

// termPage is the public archive section of a taxonomy.
func termPage(tax calendar.Taxonomy) string {
	if tax == calendar.TaxonomyTag {
		return "/events/tag/"
	}
	return "/events/category/"
}

func (l *links) termURLs(e *enc, t *calendar.Term) {
	coll := termCollection(t.Taxonomy)
	e.open('{')
	e.key("self")
	l.restURL(e, coll, t.ID)
	e.key("collection")
	e.strs(l.rest, coll)
	if t.Parent != 0 {
		e.key("up")
		l.restURL(e, coll, t.Parent)
	}
	e.close('}')
}

// term writes the endpoint form of a category or tag.
func (l *links) term(e *enc, t *calendar.Term) {
	e.open('{')
	e.key("id")
	e.int(t.ID)
	e.key("count")
	e.int(int64(t.Count))
	e.key("description")
	e.str(t.Description)
	e.key("name")
	e.str(t.Name)
	e.key("slug")
	e.str(t.Slug)
	e.key("taxonomy")
	e.str(string(t.Taxonomy))
	if t.Taxonomy.Hierarchical() {
		e.key("parent")
		e.int(t.Parent)
	}
	e.key("meta")
	e.open('[')
	e.close(']')
	e.key("url")
	l.pageURL(e, termPage(t.Taxonomy), t.Slug)
	e.key("urls")
	l.termURLs(e, t)
	e.close('}')
}

// embeddedTerm writes the form of a term inside an event.
func (l *links) embeddedTerm(e *enc, t *calendar.Term) {
	e.open('{')
	e.key("name")
	e.str(t.Name)
	e.key("slug")
	e.str(t.Slug)
	e.key("term_group")
	e.int(0)
	e.key("term_taxonomy_id")
	e.int(t.ID)
	e.key("taxonomy")
	e.str(string(t.Taxonomy))
	e.key("description")
	e.str(t.Description)
	e.key("parent")
	e.int(t.Parent)
	e.key("count")
	e.int(int64(t.Count))
	e.key("filter")
	e.str("raw")
	e.key("id")
	e.int(t.ID)
	e.key("urls")
	l.termURLs(e, t)
	e.close('}')
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
