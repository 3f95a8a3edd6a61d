package httpadapter

import (
	"strconv"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// postView holds what venues and organizers have in common, so their
// endpoint and json_ld writers share one head (wire §3).
type postView struct {
	section string // public page section: "/venue/", "/organizer/"
	nameKey string // member holding the name: "venue", "organizer"

	id, author     int64
	status         calendar.Status
	date, modified time.Time

	slug, name, description, excerpt string
	image                            *calendar.Image
}

// venueView is the shared part of a venue.
func venueView(v *calendar.Venue) postView {
	return postView{section: "/venue/", nameKey: "venue",
		id: v.ID, author: v.Author, status: v.Status, date: v.Date, modified: v.Modified,
		slug: v.Slug, name: v.Name, description: v.Description, excerpt: v.Excerpt, image: v.Image}
}

// organizerView is the shared part of an organizer.
func organizerView(o *calendar.Organizer) postView {
	return postView{section: "/organizer/", nameKey: "organizer",
		id: o.ID, author: o.Author, status: o.Status, date: o.Date, modified: o.Modified,
		slug: o.Slug, name: o.Name, description: o.Description, excerpt: o.Excerpt, image: o.Image}
}

// postHead writes the members venues and organizers share at their start,
// up to the image; empty values are left out.
func (l *links) postHead(e *enc, p *postView) {
	e.key("id")
	e.int(p.id)
	if p.author != 0 {
		e.key("author")
		e.str(strconv.FormatInt(p.author, 10))
	}
	optStr(e, "status", string(p.status))
	if !p.date.IsZero() {
		e.localAndUTC("date", "date_utc", p.date)
	}
	if !p.modified.IsZero() {
		e.localAndUTC("modified", "modified_utc", p.modified)
	}
	if p.slug != "" {
		e.key("url")
		l.pageURL(e, p.section, p.slug)
	}
	optStr(e, p.nameKey, p.name)
	optStr(e, "description", p.description)
	optStr(e, "excerpt", p.excerpt)
	optStr(e, "slug", p.slug)
	if p.image != nil && p.image.URL != "" {
		e.key("image")
		image(e, p.image)
	}
}

// ldHead opens the json_ld object of a venue or organizer and writes its
// shared members; top adds @context (the object stands alone, not inside an
// event's json_ld).
func (l *links) ldHead(e *enc, typ string, top bool, p *postView) {
	e.open('{')
	if top {
		e.key("@context")
		e.str("http://schema.org")
	}
	e.key("@type")
	e.str(typ)
	e.key("name")
	e.str(p.name)
	optStr(e, "description", p.description)
	if p.slug != "" {
		e.key("url")
		l.pageURL(e, p.section, p.slug)
	}
}
