package redisstore

import (
	"slices"
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
func (k keys) evSeries() string                    { return k.tag + "ev:series" }
func (k keys) evInstance() string                  { return k.tag + "ev:instance" }
func (k keys) evParent(id int64) string            { return k.evParentPrefix() + itoa(id) }
func (k keys) children(id int64) string            { return k.childrenPrefix() + itoa(id) }
func (k keys) childrenPrefix() string              { return k.tag + "cat:children:" }
func (k keys) evParentPrefix() string              { return k.tag + "ev:parent:" }
func (k keys) uids(kind calendar.Kind) string      { return k.tag + "uid:" + kind.String() }
func (k keys) migrating() string                   { return k.tag + "migrating" }

// postName is the name index of venues or organizers: the sorted set of the
// posts of kind having the name key key (calendar.NameKey), scored by id.
func (k keys) postName(kind calendar.Kind, key string) string {
	return k.tag + "pname:" + kind.String() + ":" + key
}

// termName is the name index of a taxonomy: the sorted set of the terms
// having the name key key, scored by their parent, so that one range finds
// the holders of a name at one level.
func (k keys) termName(kind calendar.Kind, key string) string {
	return k.tag + "tname:" + kind.String() + ":" + key
}

// evLink is the index of events linked to term or post id of the given kind.
func (k keys) evLink(kind calendar.Kind, id int64) string { return k.evLinkPrefix(kind) + itoa(id) }

func (k keys) evLinkPrefix(kind calendar.Kind) string { return k.tag + "ev:" + linkName(kind) + ":" }

// evLinkStatus is the index of the events of one stored status linked to
// term or post ref of the given kind, by start: what lets the window path
// count a category, tag, venue or organizer list instead of deciding each
// of its events (window.go).
func (k keys) evLinkStatus(kind calendar.Kind, ref tval, st calendar.Status) tval {
	return cat(lit(k.tag+"evs:"+linkName(kind)+":"), ref, lit(":"+string(st)))
}

// evMulti is the index of the events linked to two or more records of kind,
// by start: the events a list of several of those records would count twice.
func (k keys) evMulti(kind calendar.Kind) string { return k.tag + "ev:multi:" + linkName(kind) }

// evAuthor is the index of the events of one stored status by one author,
// by start: what lets the window path count an author's own drafts.
func (k keys) evAuthor(author int64, st calendar.Status) string {
	return k.tag + "ev:au:" + itoa(author) + ":" + string(st)
}

// linkName names kind in the keys of the link indexes.
func linkName(kind calendar.Kind) string {
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
	return n
}

// linkKinds are the kinds an event links to, each with its own index.
var linkKinds = [...]calendar.Kind{calendar.KindVenue, calendar.KindOrganizer, calendar.KindCategory, calendar.KindTag}

// distinctIDs counts the distinct ids of ids (a record may repeat a link).
func distinctIDs(ids []int64) int {
	n := 0
	for i, id := range ids {
		if !slices.Contains(ids[:i], id) {
			n++
		}
	}
	return n
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }

// zent is one sorted-set membership of a record: in key, at score. Both may
// hold holes (a placeholder link, the id of a record being created).
type zent struct{ key, score tval }

// zentry is a zent of a stored record, without holes.
type zentry struct{ key, score string }

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

// postEnts lists every index entry of post p (own id id): the list indexes,
// and for venues and organizers the name index.
func (k keys) postEnts(p *calendar.PostRecord, id tval) []zent {
	if p.Kind != calendar.KindEvent {
		out := []zent{{lit(k.kindIndex(p.Kind)), lit(score(p.Date))}}
		for _, key := range p.NameKeys() {
			out = append(out, zent{lit(k.postName(p.Kind, key)), id})
		}
		return out
	}
	st := lit(score(p.Start))
	out := []zent{{lit(k.evStart()), st}, {lit(k.evEnd()), lit(score(p.End))}, {lit(k.evDur()), lit(durScore(p))},
		{lit(k.evStatus(p.Status)), st}}
	if p.Featured {
		out = append(out, zent{lit(k.evFeatured()), st})
	}
	if p.HideFromListings {
		out = append(out, zent{lit(k.evHidden()), st})
	}
	// Series records and the occurrences a rule still owns: the sets the
	// window path decides on metas when a list hides one or the other.
	if len(p.Recurrence) > 0 {
		out = append(out, zent{lit(k.evSeries()), st})
	}
	if p.PostParent != 0 && !p.RecurrenceID.IsZero() && !p.Detached {
		out = append(out, zent{lit(k.evInstance()), st})
	}
	if p.PostParent != 0 {
		out = append(out, zent{prefixed(k.evParentPrefix(), p.PostParent), st})
	}
	out = append(out, zent{lit(k.evAuthor(p.Author, p.Status)), st})
	for _, lk := range linkKinds {
		refs := p.Links(lk)
		for _, ref := range refs {
			out = append(out, zent{prefixed(k.evLinkPrefix(lk), ref), st},
				zent{k.evLinkStatus(lk, refVal(ref), p.Status), st})
		}
		if distinctIDs(refs) > 1 {
			out = append(out, zent{lit(k.evMulti(lk)), st})
		}
	}
	return out
}

// termEnts lists every index entry of term t (own id id): its taxonomy by
// id, the children of its parent, and the name index at its level.
func (k keys) termEnts(t *calendar.TermRecord, id tval) []zent {
	kind := t.Taxonomy.Kind()
	out := []zent{{lit(k.kindIndex(kind)), id}}
	if t.Parent != 0 {
		out = append(out, zent{prefixed(k.childrenPrefix(), t.Parent), id})
	}
	parent := refVal(t.Parent)
	for _, key := range t.NameKeys() {
		out = append(out, zent{lit(k.termName(kind, key)), parent})
	}
	return out
}

// postEntries lists the index entries of a stored post.
func (k keys) postEntries(p *calendar.PostRecord) []zentry {
	return plain(k.postEnts(p, lit(itoa(p.ID))))
}

// termEntries lists the index entries of a stored term.
func (k keys) termEntries(t *calendar.TermRecord) []zentry {
	return plain(k.termEnts(t, lit(itoa(t.ID))))
}

func plain(es []zent) []zentry {
	out := make([]zentry, len(es))
	for i, e := range es {
		out[i] = zentry{e.key.String(), e.score.String()}
	}
	return out
}
