package httpadapter

import "github.com/eventcal/eventcal/calendar"

// postInput points at the write fields events, venues and organizers have
// in common, so one reader fills them for all three input types.
type postInput struct {
	name, description, excerpt, slug *calendar.Opt[string]
	status                           *calendar.Opt[calendar.Status]
	author                           *calendar.Opt[int64]
	date, dateUTC, image             *calendar.Opt[string]
}

// post reads the shared write fields; nameKey is the argument holding the
// name ("title", "venue", "organizer"). On by-slug routes the slug names the
// record, so it is not read as a write field there.
func (r *inputReader) post(nameKey string, bySlug bool, f postInput) {
	r.str(nameKey, f.name)
	r.str("description", f.description)
	r.str("excerpt", f.excerpt)
	if !bySlug {
		r.str("slug", f.slug)
	}
	var st calendar.Opt[string]
	if r.str("status", &st); st.Set {
		*f.status = calendar.Some(calendar.Status(st.Value))
	}
	r.int("author", f.author)
	r.str("date", f.date)
	r.str("date_utc", f.dateUTC)
	r.image("image", f.image)
}
