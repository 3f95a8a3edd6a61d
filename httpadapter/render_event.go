package httpadapter

import (
	"net/url"
	"slices"
	"strconv"

	"github.com/eventcal/eventcal/calendar"
)

// links holds the URL parts of one request that representations need.
type links struct {
	site string // public site URL, no trailing slash (option or the request origin)
	host string // host of the site, for global ids
	rest string // absolute URL of the namespace as requested (scheme, host, lang, root, ns)
	// query is "?translation_language=xx" when the request named a language,
	// so item rest_urls read back in that language (wire §6).
	query string
	// cache holds the Handler's encoded events (nil: write every event).
	cache *renderCache
}

func (l *links) globalID(e *enc, id int64) {
	e.sep()
	e.b = append(e.b, '"')
	e.b = append(e.b, l.host...)
	e.b = append(e.b, "?id="...)
	e.b = strconv.AppendInt(e.b, id, 10)
	e.b = append(e.b, '"')
}

// globalIDs writes global_id and global_id_lineage.
func (l *links) globalIDs(e *enc, id int64) {
	e.key("global_id")
	l.globalID(e, id)
	e.key("global_id_lineage")
	e.open('[')
	l.globalID(e, id)
	e.close(']')
}

// pageURL writes "<site><section><slug>/".
func (l *links) pageURL(e *enc, section, slug string) {
	e.strs(l.site, section, url.PathEscape(slug), "/") // a valid URI even for non-ASCII slugs
}

func (l *links) restURL(e *enc, collection string, id int64) {
	e.sep()
	e.b = append(e.b, '"')
	e.b = appendEscaped(e.b, l.rest)
	e.b = append(e.b, collection...)
	e.b = append(e.b, '/')
	e.b = strconv.AppendInt(e.b, id, 10)
	e.b = append(e.b, l.query...)
	e.b = append(e.b, '"')
}

// event writes an event per wire §3; withLD adds json_ld (single GET). An
// event read under the request's viewHook is either the cached bytes
// (ev.Cached) or a view with its key, written and kept (see renderCache).
func (l *links) event(e *enc, ev *calendar.Event, withLD bool) {
	if b, ok := ev.Cached.(*[]byte); ok {
		e.sep()
		e.b = append(e.b, *b...)
		return
	}
	if l.cache == nil || ev.ViewKey == nil {
		l.writeEvent(e, ev, withLD)
		return
	}
	e.sep()
	e.comma = false // the object's own bytes follow
	start := len(e.b)
	l.writeEvent(e, ev, withLD)
	e.ckey = append(appendRequestKey(e.ckey[:0], l, withLD), ev.ViewKey...)
	body := append([]byte(nil), e.b[start:]...)
	l.cache.put(e.ckey, &body)
}

// writeEvent writes an event per wire §3.
func (l *links) writeEvent(e *enc, ev *calendar.Event, withLD bool) {
	e.open('{')
	e.key("id")
	e.int(ev.ID)
	l.globalIDs(e, ev.ID)
	e.key("author")
	e.str(strconv.FormatInt(ev.Author, 10))
	e.key("status")
	e.str(string(ev.Status))
	e.localAndUTC("date", "date_utc", ev.Date)
	e.localAndUTC("modified", "modified_utc", ev.Modified)
	e.key("url")
	l.pageURL(e, "/event/", ev.Slug)
	e.key("rest_url")
	l.restURL(e, "/events", ev.ID)
	e.key("title")
	e.str(ev.Title)
	e.key("description")
	e.str(ev.Description)
	e.key("excerpt")
	e.str(ev.Excerpt)
	e.key("slug")
	e.str(ev.Slug)
	e.key("image")
	image(e, ev.Image)
	e.key("all_day")
	if ev.Protected {
		e.null()
	} else {
		e.bool(ev.AllDay)
	}
	e.timeAndDetails("start_date", "start_date_details", ev.Start)
	e.timeAndDetails("end_date", "end_date_details", ev.End)
	e.timeAndDetails("utc_start_date", "utc_start_date_details", ev.Start.UTC())
	e.timeAndDetails("utc_end_date", "utc_end_date_details", ev.End.UTC())
	e.key("timezone")
	e.str(ev.TimeZone)
	e.key("timezone_abbr")
	e.timeFormat(ev.Start, "MST")
	c := parseCost(ev.Cost)
	e.key("cost")
	e.str(c.display)
	e.key("cost_details")
	c.write(e)
	e.key("website")
	switch {
	case ev.Website != "":
		e.str(ev.Website)
	case ev.Protected:
		e.str("")
	default:
		l.pageURL(e, "/event/", ev.Slug)
	}
	e.key("show_map")
	e.boolPtr(ev.ShowMap)
	e.key("show_map_link")
	e.boolPtr(ev.ShowMapLink)
	e.key("hide_from_listings")
	e.boolPtr(ev.HideFromListings)
	e.key("sticky")
	e.boolPtr(ev.Sticky)
	e.key("featured")
	e.boolPtr(ev.Featured)
	l.embeddedTerms(e, "categories", ev.Categories)
	l.embeddedTerms(e, "tags", ev.Tags)
	e.key("venue")
	switch len(ev.Venues) {
	case 0:
		e.open('[')
		e.close(']')
	case 1:
		l.venue(e, &ev.Venues[0], false)
	default:
		e.open('[')
		for i := range ev.Venues {
			l.venue(e, &ev.Venues[i], false)
		}
		e.close(']')
	}
	e.key("organizer")
	e.open('[')
	for i := range ev.Organizers {
		l.organizer(e, &ev.Organizers[i], false)
	}
	e.close(']')
	l.seriesMembers(e, ev)
	if withLD {
		e.key("json_ld")
		l.eventLD(e, ev, &c)
	}
	e.close('}')
}

// image writes an Image or false.
func image(e *enc, img *calendar.Image) {
	if img == nil || img.URL == "" {
		e.bool(false)
		return
	}
	e.open('{')
	e.key("url")
	e.str(img.URL)
	e.key("id")
	e.int(img.ID)
	optStr(e, "extension", img.Extension)
	if img.Width > 0 {
		e.key("width")
		e.int(int64(img.Width))
	}
	if img.Height > 0 {
		e.key("height")
		e.int(int64(img.Height))
	}
	if len(img.Sizes) > 0 {
		e.key("sizes")
		e.open('{')
		for _, name := range sortedKeys(img.Sizes) {
			s := img.Sizes[name]
			e.keyString(name)
			e.open('{')
			e.key("width")
			e.int(int64(s.Width))
			e.key("height")
			e.int(int64(s.Height))
			e.key("mime-type")
			e.str(s.MimeType)
			e.key("url")
			e.str(s.URL)
			e.close('}')
		}
		e.close('}')
	}
	e.close('}')
}

// sortedKeys returns the keys of m in order, so image sizes are written
// the same way every time.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
