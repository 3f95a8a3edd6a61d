package httpadapter

import (
	"context"

	"github.com/eventcal/eventcal/calendar"
)

// The three post kinds: which calendar call, decoder and writer each
// handler of postKind uses for events, venues and organizers.

// listVia adapts a Calendar list method to postKind.list; page picks the
// records and the paging numbers out of the kind's page type.
func listVia[Q, P, V any](list func(calendar.Calendar, context.Context, Q) (*P, error), page func(*P) ([]V, pageInfo)) func(calendar.Calendar, context.Context, Q) ([]V, pageInfo, error) {
	return func(c calendar.Calendar, ctx context.Context, q Q) ([]V, pageInfo, error) {
		p, err := list(c, ctx, q)
		if err != nil {
			return nil, pageInfo{}, err
		}
		items, pg := page(p)
		return items, pg, nil
	}
}

// eventKind binds the post handlers to the event calls.
func eventKind() *postKind[calendar.Event, calendar.EventInput, calendar.EventQuery] {
	return &postKind[calendar.Event, calendar.EventInput, calendar.EventQuery]{
		name: "event", plural: "events", letter: 'e', pwd: true,
		qread: readEventQuery,
		qlang: func(q *calendar.EventQuery) *calendar.Lang { return &q.Lang },
		list: listVia(calendar.Calendar.ListEvents, func(p *calendar.EventPage) ([]calendar.Event, pageInfo) {
			return p.Events, pageInfo{p.Total, p.TotalPages, p.Page, p.PerPage}
		}),
		get:     calendar.Calendar.GetEvent,
		create:  calendar.Calendar.CreateEvent,
		update:  calendar.Calendar.UpdateEvent,
		del:     calendar.Calendar.DeleteEvent,
		decode:  decodeEvent,
		render:  (*links).event,
		version: func(v *calendar.Event) (int64, int64) { return v.ID, v.Version },
		views:   true,
	}
}

// venueKind binds the post handlers to the venue calls.
func venueKind() *postKind[calendar.Venue, calendar.VenueInput, calendar.VenueQuery] {
	return &postKind[calendar.Venue, calendar.VenueInput, calendar.VenueQuery]{
		name: "venue", plural: "venues", letter: 'v',
		qread: readVenueQuery,
		qlang: func(q *calendar.VenueQuery) *calendar.Lang { return &q.Lang },
		list: listVia(calendar.Calendar.ListVenues, func(p *calendar.VenuePage) ([]calendar.Venue, pageInfo) {
			return p.Venues, pageInfo{p.Total, p.TotalPages, p.Page, p.PerPage}
		}),
		get:     calendar.Calendar.GetVenue,
		create:  calendar.Calendar.CreateVenue,
		update:  calendar.Calendar.UpdateVenue,
		del:     calendar.Calendar.DeleteVenue,
		decode:  topLevel(decodeVenue),
		render:  (*links).venue,
		version: func(v *calendar.Venue) (int64, int64) { return v.ID, v.Version },
	}
}

// organizerKind binds the post handlers to the organizer calls.
func organizerKind() *postKind[calendar.Organizer, calendar.OrganizerInput, calendar.OrganizerQuery] {
	return &postKind[calendar.Organizer, calendar.OrganizerInput, calendar.OrganizerQuery]{
		name: "organizer", plural: "organizers", letter: 'o',
		qread: readOrganizerQuery,
		qlang: func(q *calendar.OrganizerQuery) *calendar.Lang { return &q.Lang },
		list: listVia(calendar.Calendar.ListOrganizers, func(p *calendar.OrganizerPage) ([]calendar.Organizer, pageInfo) {
			return p.Organizers, pageInfo{p.Total, p.TotalPages, p.Page, p.PerPage}
		}),
		get:     calendar.Calendar.GetOrganizer,
		create:  calendar.Calendar.CreateOrganizer,
		update:  calendar.Calendar.UpdateOrganizer,
		del:     calendar.Calendar.DeleteOrganizer,
		decode:  topLevel(decodeOrganizer),
		render:  (*links).organizer,
		version: func(v *calendar.Organizer) (int64, int64) { return v.ID, v.Version },
	}
}
