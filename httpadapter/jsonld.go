package httpadapter

import (
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// The json_ld members of single GETs: schema.org objects search engines read.

func (l *links) eventLD(e *enc, ev *calendar.Event, c *costInfo) {
	e.open('{')
	e.key("@context")
	e.str("http://schema.org")
	e.key("@type")
	e.str("Event")
	e.key("name")
	e.str(ev.Title)
	e.key("description")
	e.str(ev.Description)
	if ev.Image != nil && ev.Image.URL != "" {
		e.key("image")
		e.str(ev.Image.URL)
	}
	e.key("url")
	l.pageURL(e, "/event/", ev.Slug)
	e.key("startDate")
	e.timeFormat(ev.Start, time.RFC3339)
	e.key("endDate")
	e.timeFormat(ev.End, time.RFC3339)
	if len(ev.Venues) > 0 {
		e.key("location")
		l.venueLD(e, &ev.Venues[0], false)
	}
	if len(ev.Organizers) > 0 {
		e.key("organizer")
		if len(ev.Organizers) == 1 {
			l.organizerLD(e, &ev.Organizers[0], false)
		} else {
			e.open('[')
			for i := range ev.Organizers {
				l.organizerLD(e, &ev.Organizers[i], false)
			}
			e.close(']')
		}
	}
	if c.min != "" {
		e.key("offers")
		e.open('{')
		e.key("@type")
		e.str("Offer")
		e.key("price")
		e.str(c.min)
		if c.code != "" {
			e.key("priceCurrency")
			e.str(c.code)
		}
		e.key("url")
		l.pageURL(e, "/event/", ev.Slug)
		e.close('}')
	}
	e.close('}')
}

func (l *links) venueLD(e *enc, v *calendar.Venue, top bool) {
	p := venueView(v)
	l.ldHead(e, "Place", top, &p)
	if v.Address != "" || v.City != "" || v.Zip != "" || v.Country != "" || v.DisplayStateProvince() != "" {
		e.key("address")
		e.open('{')
		e.key("@type")
		e.str("PostalAddress")
		optStr(e, "streetAddress", v.Address)
		optStr(e, "addressLocality", v.City)
		optStr(e, "addressRegion", v.DisplayStateProvince())
		optStr(e, "postalCode", v.Zip)
		optStr(e, "addressCountry", v.Country)
		e.close('}')
	}
	if v.GeoLat != nil && v.GeoLng != nil {
		e.key("geo")
		e.open('{')
		e.key("@type")
		e.str("GeoCoordinates")
		e.key("latitude")
		e.float(*v.GeoLat)
		e.key("longitude")
		e.float(*v.GeoLng)
		e.close('}')
	}
	optStr(e, "telephone", v.Phone)
	optStr(e, "sameAs", v.Website)
	e.close('}')
}

func (l *links) organizerLD(e *enc, o *calendar.Organizer, top bool) {
	p := organizerView(o)
	l.ldHead(e, "Person", top, &p)
	optStr(e, "telephone", o.Phone)
	optStr(e, "email", o.Email)
	optStr(e, "sameAs", o.Website)
	e.close('}')
}
