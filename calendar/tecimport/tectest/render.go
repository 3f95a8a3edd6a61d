package tectest

import (
	"fmt"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// wpTime is the original's date-time form.
const wpTime = "2006-01-02 15:04:05"

// view holds what a representation needs from the request.
type view struct {
	site    string // scheme and host, no trailing slash
	host    string // host of global ids
	restURL func(route string) string
	zone    *time.Location
	now     time.Time
	admin   bool
	counts  map[int64]int // published events per term, made on first use
}

// Entities encodes a plain title or name the way WordPress formatting serves
// it: &, <, > and typographic punctuation become HTML entities.
func Entities(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '–', '—', '‘', '’', '“', '”', '…', '×':
			fmt.Fprintf(&b, "&#%d;", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Paragraph is how WordPress formatting serves a description: wrapped in a
// paragraph (empty stays empty).
func Paragraph(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return "<p>" + s + "</p>\n"
}

func (v *view) globalID(id int64) string { return v.host + "?id=" + strconv.FormatInt(id, 10) }

func (v *view) pageURL(section, slug string) string { return v.site + section + slug + "/" }

func details(t time.Time) *Object {
	return NewObject().
		Set("year", fmt.Sprintf("%04d", t.Year())).
		Set("month", fmt.Sprintf("%02d", int(t.Month()))).
		Set("day", fmt.Sprintf("%02d", t.Day())).
		Set("hour", fmt.Sprintf("%02d", t.Hour())).
		Set("minutes", fmt.Sprintf("%02d", t.Minute())).
		Set("seconds", fmt.Sprintf("%02d", t.Second()))
}

// effectiveStatus: a future post whose date has passed is published.
func effectiveStatus(p *Post, now time.Time) string {
	if p.Status == "future" && !p.Date.After(now) {
		return "publish"
	}
	return p.Status
}

func (v *view) postHead(o *Object, p *Post, section, nameKey string) {
	o.Set("id", p.ID)
	o.Set("author", strconv.FormatInt(p.Author, 10))
	o.Set("status", effectiveStatus(p, v.now))
	o.Set("date", p.Date.In(v.zone).Format(wpTime))
	o.Set("date_utc", p.Date.UTC().Format(wpTime))
	o.Set("modified", p.Modified.In(v.zone).Format(wpTime))
	o.Set("modified_utc", p.Modified.UTC().Format(wpTime))
	o.Set("url", v.pageURL(section, p.Slug))
	if nameKey == "title" {
		o.Set("rest_url", v.restURL("/events/"+strconv.FormatInt(p.ID, 10)))
	}
	o.Set(nameKey, Entities(p.Title))
	o.Set("description", Paragraph(p.Description))
	o.Set("excerpt", p.Excerpt)
	o.Set("slug", p.Slug)
	o.Set("image", image(p.Image))
}

func image(img *Image) any {
	if img == nil {
		return false
	}
	o := NewObject().Set("url", img.URL).Set("id", img.ID)
	if ext := strings.TrimPrefix(path.Ext(img.URL), "."); ext != "" {
		o.Set("extension", strings.ToLower(ext))
	}
	if img.Width > 0 {
		o.Set("width", img.Width)
	}
	if img.Height > 0 {
		o.Set("height", img.Height)
	}
	if img.Width > 0 && img.Height > 0 {
		thumb := strings.TrimSuffix(img.URL, path.Ext(img.URL)) + "-150x150" + path.Ext(img.URL)
		o.Set("sizes", NewObject().Set("thumbnail", NewObject().
			Set("width", 150).Set("height", 150).Set("mime-type", "image/jpeg").Set("url", thumb)))
	}
	return o
}

func (v *view) globalIDs(o *Object, id int64) {
	o.Set("global_id", v.globalID(id))
	o.Set("global_id_lineage", []string{v.globalID(id)})
}

// zone resolves an event's zone name: IANA or UTC±H[:MM].
func zone(name string, site *time.Location) *time.Location {
	if name == "" {
		return site
	}
	if strings.HasPrefix(name, "UTC+") || strings.HasPrefix(name, "UTC-") {
		sign := 1
		if name[3] == '-' {
			sign = -1
		}
		h, m, _ := strings.Cut(name[4:], ":")
		hh, _ := strconv.Atoi(h)
		mm, _ := strconv.Atoi(m)
		return time.FixedZone(name, sign*(hh*3600+mm*60))
	}
	if loc, err := time.LoadLocation(name); err == nil {
		return loc
	}
	return site
}

func (s *Site) event(v *view, e *Event, single bool) *Object {
	o := NewObject()
	o.Set("id", e.ID)
	v.globalIDs(o, e.ID)
	v.postHead(o, &e.Post, "/event/", "title") // sets id again, in first place
	loc := zone(e.TimeZone, v.zone)
	o.Set("all_day", e.AllDay)
	for _, d := range []struct {
		key string
		t   time.Time
	}{{"start_date", e.Start.In(loc)}, {"end_date", e.End.In(loc)}, {"utc_start_date", e.Start.UTC()}, {"utc_end_date", e.End.UTC()}} {
		o.Set(d.key, d.t.Format(wpTime))
		o.Set(d.key+"_details", details(d.t))
	}
	tz := e.TimeZone
	if tz == "" {
		tz = v.zone.String()
	}
	o.Set("timezone", tz)
	o.Set("timezone_abbr", e.Start.In(loc).Format("MST"))
	cost, values := e.cost()
	o.Set("cost", cost)
	o.Set("cost_details", NewObject().Set("currency_symbol", e.CurrencySymbol).Set("currency_code", e.CurrencyCode).
		Set("currency_position", e.CurrencyPosition).Set("values", values))
	if e.Website != "" {
		o.Set("website", e.Website)
	} else {
		o.Set("website", v.pageURL("/event/", e.Slug))
	}
	o.Set("show_map", e.ShowMap)
	o.Set("show_map_link", e.ShowMapLink)
	o.Set("hide_from_listings", e.HideFromListings)
	o.Set("sticky", e.Sticky)
	o.Set("featured", e.Featured)
	o.Set("categories", s.embeddedTerms(v, e.Categories))
	o.Set("tags", s.embeddedTerms(v, e.Tags))
	var venues []any
	for _, id := range e.Venues {
		if vn, ok := s.venues[id]; ok && v.canRead(&vn.Post) {
			venues = append(venues, s.patchedPost(id, s.venue(v, vn, false)))
		}
	}
	switch len(venues) {
	case 0:
		o.Set("venue", []any{})
	case 1:
		o.Set("venue", venues[0])
	default:
		o.Set("venue", venues)
	}
	orgs := []any{}
	for _, id := range e.Organizers {
		if og, ok := s.organizers[id]; ok && v.canRead(&og.Post) {
			orgs = append(orgs, s.patchedPost(id, s.organizer(v, og, false)))
		}
	}
	o.Set("organizer", orgs)
	if single {
		ld := NewObject().Set("@context", "http://schema.org").Set("@type", "Event").
			Set("name", Entities(e.Title)).Set("description", Paragraph(e.Description)).
			Set("url", v.pageURL("/event/", e.Slug)).
			Set("startDate", e.Start.In(loc).Format(time.RFC3339)).Set("endDate", e.End.In(loc).Format(time.RFC3339))
		o.Set("json_ld", ld)
	}
	return o
}

// cost is the original's display string and the ascending numeric values.
func (e *Event) cost() (string, []string) {
	values := slices.Clone(e.CostValues)
	slices.SortFunc(values, func(a, b string) int {
		fa, _ := strconv.ParseFloat(a, 64)
		fb, _ := strconv.ParseFloat(b, 64)
		switch {
		case fa < fb:
			return -1
		case fa > fb:
			return 1
		}
		return 0
	})
	values = slices.Compact(values)
	if values == nil {
		values = []string{}
	}
	show := func(n string) string {
		if f, _ := strconv.ParseFloat(n, 64); f == 0 {
			return "Free"
		}
		if e.CurrencyPosition == "postfix" {
			return n + e.CurrencySymbol
		}
		return e.CurrencySymbol + n
	}
	switch len(values) {
	case 0:
		return e.CostText, values
	case 1:
		return show(values[0]), values
	}
	return show(values[0]) + " – " + show(values[len(values)-1]), values
}

func (s *Site) venue(v *view, vn *Venue, single bool) *Object {
	o := NewObject()
	v.postHead(o, &vn.Post, "/venue/", "venue")
	opt := func(k, val string) {
		if val != "" {
			o.Set(k, val)
		}
	}
	if vn.Post.Image == nil {
		o.Delete("image")
	}
	for _, k := range []string{"description", "excerpt"} {
		if val, _ := o.Get(k); val == "" {
			o.Delete(k)
		}
	}
	opt("address", vn.Address)
	opt("city", vn.City)
	opt("country", vn.Country)
	opt("province", vn.Province)
	opt("state", vn.State)
	opt("zip", vn.Zip)
	opt("phone", vn.Phone)
	opt("website", vn.Website)
	sp := vn.StateProvince
	if sp == "" {
		switch vn.Country {
		case "", "US", "USA", "United States", "United States of America":
			sp = vn.State
		default:
			sp = vn.Province
		}
	}
	opt("stateprovince", sp)
	if vn.GeoLat != nil && vn.GeoLng != nil {
		o.Set("geo_lat", *vn.GeoLat)
		o.Set("geo_lng", *vn.GeoLng)
	}
	o.Set("show_map", vn.ShowMap)
	o.Set("show_map_link", vn.ShowMapLink)
	v.globalIDs(o, vn.ID)
	if single {
		o.Set("json_ld", NewObject().Set("@context", "http://schema.org").Set("@type", "Place").Set("name", Entities(vn.Title)))
	}
	return o
}

func (s *Site) organizer(v *view, og *Organizer, single bool) *Object {
	o := NewObject()
	v.postHead(o, &og.Post, "/organizer/", "organizer")
	if og.Post.Image == nil {
		o.Delete("image")
	}
	for _, k := range []string{"description", "excerpt"} {
		if val, _ := o.Get(k); val == "" {
			o.Delete(k)
		}
	}
	for _, f := range [][2]string{{"phone", og.Phone}, {"website", og.Website}, {"email", og.Email}} {
		if f[1] != "" {
			o.Set(f[0], f[1])
		}
	}
	v.globalIDs(o, og.ID)
	if single {
		o.Set("json_ld", NewObject().Set("@context", "http://schema.org").Set("@type", "Person").Set("name", Entities(og.Title)))
	}
	return o
}

func collection(tax string) string {
	if tax == "post_tag" {
		return "/tags"
	}
	return "/categories"
}

func termSection(tax string) string {
	if tax == "post_tag" {
		return "/events/tag/"
	}
	return "/events/category/"
}

func (s *Site) termURLs(v *view, t *Term) *Object {
	coll := collection(t.Taxonomy)
	o := NewObject().Set("self", v.restURL(coll+"/"+strconv.FormatInt(t.ID, 10))).Set("collection", v.restURL(coll))
	if t.Parent != 0 {
		o.Set("up", v.restURL(coll+"/"+strconv.FormatInt(t.Parent, 10)))
	}
	return o
}

// term is the endpoint form of a category or tag.
func (s *Site) term(v *view, t *Term) *Object {
	o := NewObject().Set("id", t.ID).Set("count", s.termCount(v, t.ID)).Set("description", t.Description).
		Set("name", Entities(t.Name)).Set("slug", t.Slug).Set("taxonomy", t.Taxonomy)
	if t.Taxonomy == "tribe_events_cat" {
		o.Set("parent", t.Parent)
	}
	o.Set("meta", []any{})
	o.Set("url", v.pageURL(termSection(t.Taxonomy), t.Slug))
	o.Set("urls", s.termURLs(v, t))
	return s.patchedTerm(t.ID, o)
}

func (s *Site) embeddedTerms(v *view, ids []int64) []any {
	out := []any{}
	for _, id := range ids {
		t, ok := s.terms[id]
		if !ok {
			continue
		}
		o := NewObject().Set("name", Entities(t.Name)).Set("slug", t.Slug).Set("term_group", 0).
			Set("term_taxonomy_id", t.ID).Set("taxonomy", t.Taxonomy).Set("description", t.Description).
			Set("parent", t.Parent).Set("count", s.termCount(v, t.ID)).Set("filter", "raw").Set("id", t.ID).
			Set("urls", s.termURLs(v, t))
		out = append(out, s.patchedTerm(id, o))
	}
	return out
}

// termCount is the number of published events using term id (counted
// once per request).
func (s *Site) termCount(v *view, id int64) int {
	if v.counts == nil {
		v.counts = map[int64]int{}
		for _, e := range s.events {
			if effectiveStatus(&e.Post, v.now) == "publish" {
				for _, t := range e.Categories {
					v.counts[t]++
				}
				for _, t := range e.Tags {
					v.counts[t]++
				}
			}
		}
	}
	return v.counts[id]
}

func (s *Site) patchedPost(id int64, o *Object) *Object {
	if p := s.postPatch[id]; p != nil {
		p(o)
	}
	return o
}

func (s *Site) patchedTerm(id int64, o *Object) *Object {
	if p := s.termPatch[id]; p != nil {
		p(o)
	}
	return o
}

func (v *view) canRead(p *Post) bool {
	return v.admin || effectiveStatus(p, v.now) == "publish"
}

// queryURL re-encodes q onto base.
func queryURL(base string, q url.Values) string {
	if len(q) == 0 {
		return base
	}
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + q.Encode()
}
