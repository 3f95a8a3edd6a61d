package tectest

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// GenerateOptions size the data Generate makes.
type GenerateOptions struct {
	Seed                                         uint64
	Events, Venues, Organizers, Categories, Tags int
	// Broken adds a few records that no importer can take as they are (an
	// end before the start, an unknown zone, a wrong JSON type, an empty
	// title, a zero date, bad coordinates, a script URL, a bad email, an
	// empty term name, a numeric slug). No event links a broken record.
	Broken bool
}

// DefaultGenerate is hundreds of records of every kind, a few broken.
var DefaultGenerate = GenerateOptions{Seed: 1, Events: 600, Venues: 150, Organizers: 120, Categories: 60, Tags: 200, Broken: true}

// Generated tells a test what Generate made.
type Generated struct {
	BrokenPosts []int64 // events, venues and organizers served broken
	BrokenTerms []int64
}

var (
	words = []string{"Jazz", "Night", "Market", "Café", "Müller", "Rock", "Roll", "Open", "Air", "Festival", "Workshop",
		"Choir", "Garden", "Tour", "Lecture", "Poetry", "Cinema", "Brunch", "Dance", "Yoga", "Quiz", "Crafts",
		"Harbour", "Lights", "Winter", "Summer", "Kids", "Science", "Wine", "Tasting"}
	titleForms = []string{"%s %s", "%s & %s", "%s – %s", "%s’s %s", "“%s” %s", "%s… %s", "%s %s <Live>", "Концерт %s %s", "東京 %s %s"}
	zones      = []string{"America/New_York", "Europe/Paris", "Asia/Tokyo", "UTC", "UTC+2", "America/Los_Angeles", ""}
	cities     = [][3]string{{"Boston", "MA", "United States"}, {"Lyon", "", "France"}, {"Toronto", "ON", "Canada"}, {"Kraków", "", "Poland"}}
)

// wpSlug makes a slug the way WordPress stores it: lower case, Latin
// accents removed, other letters percent-encoded, the rest "-".
func wpSlug(title string) string {
	fold := map[rune]string{'é': "e", 'è': "e", 'ü': "u", 'ö': "o", 'ä': "a", 'à': "a", 'ç': "c", 'ñ': "n", 'ó': "o", 'ł': "l"}
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		var out string
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			out = string(r)
		case fold[r] != "":
			out = fold[r]
		case r >= utf8.RuneSelf && (r >= 'а' && r <= 'я' || r >= 0x4E00 && r <= 0x9FFF):
			for _, c := range []byte(string(r)) {
				out += fmt.Sprintf("%%%02x", c)
			}
		default:
			dash = b.Len() > 0
			continue
		}
		if dash {
			b.WriteByte('-')
			dash = false
		}
		b.WriteString(out)
	}
	return b.String()
}

// Generate fills the site with o's records, reproducibly for one seed.
// Dates spread two years around the site's clock; statuses, zones, costs,
// flags, images, links and titles vary.
func (s *Site) Generate(o GenerateOptions) Generated {
	rng := rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15))
	now := s.now().UTC().Truncate(time.Second)
	slugs := map[string]bool{}
	unique := func(kind, base string) string {
		if base == "" {
			base = kind
		}
		sl := base
		for n := 2; slugs[kind+"/"+sl]; n++ {
			sl = base + "-" + strconv.Itoa(n)
		}
		slugs[kind+"/"+sl] = true
		return sl
	}
	title := func(i int) string {
		f := titleForms[rng.IntN(len(titleForms))]
		return strings.TrimSpace(fmt.Sprintf(f, words[rng.IntN(len(words))], words[rng.IntN(len(words))]) + " " + strconv.Itoa(i))
	}
	status := func() string {
		switch n := rng.IntN(20); {
		case n < 14:
			return "publish"
		case n < 16:
			return "draft"
		case n < 17:
			return "pending"
		case n < 18:
			return "private"
		default:
			return "future"
		}
	}
	post := func(kind string, i int, name string) Post {
		st := status()
		date := now.Add(-time.Duration(rng.IntN(700*24)) * time.Hour)
		if st == "future" {
			date = now.Add(time.Duration(1+rng.IntN(60*24)) * time.Hour)
		}
		p := Post{Author: int64(1 + rng.IntN(5)), Status: st, Date: date, Modified: date.Add(time.Duration(rng.IntN(100)) * time.Hour),
			Slug: unique(kind, wpSlug(name)), Title: name}
		if rng.IntN(3) > 0 {
			p.Description = fmt.Sprintf("About %s: <strong>bring a friend</strong> &amp; a smile.", name)
		}
		if rng.IntN(3) == 0 {
			p.Excerpt = "In short: " + strings.ToLower(words[rng.IntN(len(words))]) + "."
		}
		if rng.IntN(4) == 0 {
			p.Image = &Image{ID: int64(9000 + i), URL: fmt.Sprintf("https://cdn.example.org/uploads/2024/05/%s-%d.jpg", kind, i)}
			if rng.IntN(2) == 0 {
				p.Image.Width, p.Image.Height = 1200, 800
			}
		}
		return p
	}
	var g Generated

	// Terms: categories with parents (one re-parented under a later one), then tags.
	var cats, tags []int64
	for i := range o.Categories {
		t := Term{Taxonomy: "tribe_events_cat", Name: fmt.Sprintf("%s %s %d", words[rng.IntN(len(words))], words[rng.IntN(len(words))], i)}
		if i%7 == 3 {
			t.Name = fmt.Sprintf("Arts & Crafts – %d", i)
		}
		t.Slug = unique("cat", wpSlug(t.Name))
		if rng.IntN(2) == 0 {
			t.Description = "Events about " + t.Name
		}
		if len(cats) > 0 && rng.IntN(2) == 0 {
			t.Parent = cats[rng.IntN(len(cats))]
		}
		cats = append(cats, s.AddTerm(t))
	}
	if len(cats) > 4 {
		last := cats[len(cats)-1]
		s.UpdateTerm(last, func(t *Term) { t.Parent = 0 })
		s.UpdateTerm(cats[1], func(t *Term) { t.Parent = last })
	}
	for i := range o.Tags {
		t := Term{Taxonomy: "post_tag", Name: fmt.Sprintf("%s %d", strings.ToLower(words[rng.IntN(len(words))]), i)}
		t.Slug = unique("tag", wpSlug(t.Name))
		tags = append(tags, s.AddTerm(t))
	}

	// Venues and organizers; two venues share a name (WordPress allows it).
	var venues, orgs []int64
	for i := range o.Venues {
		name := fmt.Sprintf("%s Hall %d", words[rng.IntN(len(words))], i)
		if i == 1 && len(venues) == 1 {
			name = s.Venues()[0].Title
		}
		c := cities[rng.IntN(len(cities))]
		v := Venue{Post: post("venue", i, name), Address: fmt.Sprintf("%d Main Street", 1+rng.IntN(200)), City: c[0],
			Country: c[2], Zip: fmt.Sprintf("%05d", rng.IntN(99999)), ShowMap: rng.IntN(4) > 0, ShowMapLink: rng.IntN(4) > 0}
		if c[2] == "United States" {
			v.State = c[1]
		} else {
			v.Province = c[1]
		}
		if rng.IntN(2) == 0 {
			v.Phone = fmt.Sprintf("+1 555 %04d", rng.IntN(10000))
		}
		if rng.IntN(2) == 0 {
			v.Website = fmt.Sprintf("https://venue%d.example.org/", i)
		}
		if rng.IntN(3) > 0 {
			lat, lng := float64(rng.IntN(18000))/100-90, float64(rng.IntN(36000))/100-180
			v.GeoLat, v.GeoLng = &lat, &lng
		}
		venues = append(venues, s.AddVenue(v))
	}
	for i := range o.Organizers {
		name := fmt.Sprintf("%s Society %d", words[rng.IntN(len(words))], i)
		og := Organizer{Post: post("organizer", i, name)}
		if rng.IntN(2) == 0 {
			og.Phone = fmt.Sprintf("+44 20 %04d %04d", rng.IntN(10000), rng.IntN(10000))
		}
		if rng.IntN(2) == 0 {
			og.Website = fmt.Sprintf("https://org%d.example.org/", i)
		}
		if rng.IntN(2) == 0 {
			og.Email = fmt.Sprintf("org%d@example.org", i)
		}
		orgs = append(orgs, s.AddOrganizer(og))
	}
	pick := func(from []int64, n int) []int64 {
		var out []int64
		for range n {
			if len(from) == 0 {
				break
			}
			id := from[rng.IntN(len(from))]
			if !containsID(out, id) {
				out = append(out, id)
			}
		}
		return out
	}
	brokenPost := 0
	for i := range o.Events {
		e := Event{Post: post("event", i, title(i)), TimeZone: zones[rng.IntN(len(zones))]}
		loc := zone(e.TimeZone, s.Zone)
		start := now.Add(time.Duration(rng.IntN(4*365*24)-2*365*24) * time.Hour).In(loc)
		start = time.Date(start.Year(), start.Month(), start.Day(), start.Hour(), 30*rng.IntN(2), 0, 0, loc)
		e.Start, e.End = start, start.Add(time.Duration(1+rng.IntN(5))*time.Hour)
		if rng.IntN(8) == 0 {
			e.AllDay = true
			y, m, d := start.Date()
			e.Start = time.Date(y, m, d, 0, 0, 0, 0, loc)
			e.End = time.Date(y, m, d+rng.IntN(3), 23, 59, 59, 0, loc)
		}
		e.Start, e.End = e.Start.UTC(), e.End.UTC()
		switch rng.IntN(6) {
		case 1:
			e.CostText = "Donation"
		case 2:
			e.CostValues, e.CurrencySymbol, e.CurrencyCode, e.CurrencyPosition = []string{strconv.Itoa(5 + rng.IntN(40))}, "$", "USD", "prefix"
		case 3:
			e.CostValues, e.CurrencySymbol, e.CurrencyCode, e.CurrencyPosition = []string{"0"}, "$", "USD", "prefix"
		case 4:
			e.CostValues, e.CurrencySymbol, e.CurrencyCode, e.CurrencyPosition = []string{"12.50", "30", "8"}, "€", "EUR", "postfix"
		case 5:
			e.CostValues, e.CurrencySymbol, e.CurrencyCode, e.CurrencyPosition = []string{"0", "15"}, "£", "GBP", "prefix"
		}
		if rng.IntN(3) == 0 {
			e.Website = fmt.Sprintf("https://tickets.example.org/e/%d", i)
		}
		e.ShowMap, e.ShowMapLink = rng.IntN(4) > 0, rng.IntN(4) > 0
		e.HideFromListings = rng.IntN(40) == 0
		e.Sticky, e.Featured = rng.IntN(10) == 0, rng.IntN(6) == 0
		e.Categories, e.Tags = pick(cats, rng.IntN(4)), pick(tags, rng.IntN(5))
		e.Venues = pick(venues, min(rng.IntN(4), 2))
		e.Organizers = pick(orgs, rng.IntN(4))
		if i%97 == 50 {
			e.Status = "trash"
		}
		id := s.AddEvent(e)
		if o.Broken && e.Status == "publish" && !e.HideFromListings && brokenPost < len(eventBreaks) {
			// A broken event is never imported: it links no term, so
			// the term counts of both sides still agree.
			s.UpdateEvent(id, func(e *Event) { e.Categories, e.Tags = nil, nil })
			s.BreakPost(id, eventBreaks[brokenPost])
			g.BrokenPosts = append(g.BrokenPosts, id)
			brokenPost++
		}
	}
	if o.Broken {
		for i, p := range []Patch{
			func(o *Object) { o.Set("geo_lat", "north"); o.Set("geo_lng", "west") },
			func(o *Object) { o.Set("website", "javascript:alert(1)") },
		} {
			id := s.AddVenue(Venue{Post: post("venue", 1000+i, fmt.Sprintf("Broken Venue %d", i)), ShowMap: true, ShowMapLink: true})
			s.UpdateVenue(id, func(v *Venue) { v.Status = "publish"; v.Date = now.Add(-time.Hour) })
			s.BreakPost(id, p)
			g.BrokenPosts = append(g.BrokenPosts, id)
		}
		id := s.AddOrganizer(Organizer{Post: post("organizer", 1000, "Broken Organizer")})
		s.UpdateOrganizer(id, func(o *Organizer) { o.Status = "publish"; o.Date = now.Add(-time.Hour) })
		s.BreakPost(id, func(o *Object) { o.Set("email", "nobody-at-all") })
		g.BrokenPosts = append(g.BrokenPosts, id)
		cat := s.AddTerm(Term{Taxonomy: "tribe_events_cat", Name: "Broken Category", Slug: "broken-category"})
		s.BreakTerm(cat, func(o *Object) { o.Set("name", "") })
		tag := s.AddTerm(Term{Taxonomy: "post_tag", Name: "broken tag", Slug: "broken-tag"})
		s.BreakTerm(tag, func(o *Object) { o.Set("slug", 42) })
		g.BrokenTerms = append(g.BrokenTerms, cat, tag)
	}
	return g
}

// eventBreaks are the ways Generate breaks events.
var eventBreaks = []Patch{
	func(o *Object) { // ends before it starts
		o.Set("end_date", "2001-01-01 10:00:00")
		o.Set("utc_end_date", "2001-01-01 10:00:00")
		o.Set("start_date", "2001-01-02 10:00:00")
		o.Set("utc_start_date", "2001-01-02 10:00:00")
	},
	func(o *Object) { o.Set("timezone", "Mars/Olympus_Mons") },
	func(o *Object) { o.Set("all_day", "maybe") },
	func(o *Object) { o.Set("title", "") },
	func(o *Object) {
		o.Set("start_date", "0000-00-00 00:00:00")
		o.Set("utc_start_date", "0000-00-00 00:00:00")
	},
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
