package redisstore

import (
	"strconv"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// keys builds the key names of one calendar; see the package documentation
// for the layout. Every name starts with the hash tag "{prefix}:".
type keys struct{ tag string }

func newKeys(prefix string) keys { return keys{tag: "{" + prefix + "}:"} }

func (k keys) format() string                      { return k.tag + "format" }
func (k keys) postSeq() string                     { return k.tag + "seq:post" }
func (k keys) termSeq() string                     { return k.tag + "seq:term" }
func (k keys) postPrefix() string                  { return k.tag + "post:" }
func (k keys) termPrefix() string                  { return k.tag + "term:" }
func (k keys) post(id int64) string                { return k.postPrefix() + itoa(id) }
func (k keys) term(id int64) string                { return k.termPrefix() + itoa(id) }
func (k keys) slugs(kind calendar.Kind) string     { return k.tag + "slug:" + kind.String() }
func (k keys) kindIndex(kind calendar.Kind) string { return k.tag + "idx:" + kind.String() }
func (k keys) meta() string                        { return k.tag + "meta" }
func (k keys) evStart() string                     { return k.tag + "ev:start" }
func (k keys) evEnd() string                       { return k.tag + "ev:end" }
func (k keys) evDur() string                       { return k.tag + "ev:dur" }
func (k keys) evStatus(s calendar.Status) string   { return k.tag + "ev:st:" + string(s) }
func (k keys) evFeatured() string                  { return k.tag + "ev:featured" }
func (k keys) evHidden() string                    { return k.tag + "ev:hidden" }
func (k keys) evParent(id int64) string            { return k.tag + "ev:parent:" + itoa(id) }
func (k keys) children(id int64) string            { return k.tag + "cat:children:" + itoa(id) }

// evLink is the index of events linked to term or post id of the given kind.
func (k keys) evLink(kind calendar.Kind, id int64) string {
	var n string
	switch kind {
	case calendar.KindVenue:
		n = "venue"
	case calendar.KindOrganizer:
		n = "org"
	case calendar.KindCategory:
		n = "cat"
	case calendar.KindTag:
		n = "tag"
	}
	return k.tag + "ev:" + n + ":" + itoa(id)
}

// linkKinds are the kinds an event links to, each with its own index.
var linkKinds = [...]calendar.Kind{calendar.KindVenue, calendar.KindOrganizer, calendar.KindCategory, calendar.KindTag}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }

// zentry is one sorted-set membership of a record: in key, at score.
// The score is a decimal string; "" stands for the record's own id, which a
// create only learns inside the commit script.
type zentry struct {
	key   string
	score string
}

func score(t time.Time) string { return formatScore(storage.TimeScoreMicro(t)) }

func formatScore(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// durScore is the score of an event in the duration index: score(End) −
// score(Start) in microseconds, exact, when Start ≤ End and both lie where
// scores are exact (see safeFrom); "+inf" otherwise. The exact window path
// (window.go) relies on every finite duration bounding how far End lies after
// Start, so anything else is marked "+inf" and always checked on its meta.
func durScore(p *calendar.PostRecord) string {
	if p.End.Before(p.Start) || !exactScore(p.Start) || !exactScore(p.End) {
		return "+inf"
	}
	return formatScore(storage.TimeScoreMicro(p.End) - storage.TimeScoreMicro(p.Start))
}

// postEntries lists every index entry of post p.
func (k keys) postEntries(p *calendar.PostRecord) []zentry {
	if p.Kind != calendar.KindEvent {
		return []zentry{{k.kindIndex(p.Kind), score(p.Date)}}
	}
	st := score(p.Start)
	out := []zentry{{k.evStart(), st}, {k.evEnd(), score(p.End)}, {k.evDur(), durScore(p)}, {k.evStatus(p.Status), st}}
	if p.Featured {
		out = append(out, zentry{k.evFeatured(), st})
	}
	if p.HideFromListings {
		out = append(out, zentry{k.evHidden(), st})
	}
	if p.PostParent != 0 {
		out = append(out, zentry{k.evParent(p.PostParent), st})
	}
	for _, lk := range linkKinds {
		for _, id := range p.Links(lk) {
			out = append(out, zentry{k.evLink(lk, id), st})
		}
	}
	return out
}

// termEntries lists every index entry of term t.
func (k keys) termEntries(t *calendar.TermRecord) []zentry {
	id := ""
	if t.ID != 0 {
		id = itoa(t.ID)
	}
	out := []zentry{{k.kindIndex(t.Taxonomy.Kind()), id}}
	if t.Parent != 0 {
		out = append(out, zentry{k.children(t.Parent), id})
	}
	return out
}
