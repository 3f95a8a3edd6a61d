package redisstore

import (
	"slices"
	"strconv"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// The exact window path answers the common event list — a status
// visibility, Start and End ranges, excluded ids, nothing else — in the
// first round trip, without sending every candidate over the wire: a wide
// window has tens of thousands of candidates, and only the total and one page
// are wanted.
//
// The total is counted with ZCOUNT on the start-sorted status sets, and only
// a few events are confirmed one by one on their metas (windowLua). It rests
// on the duration index {prefix}:ev:dur (durScore): if every event but a
// few ("irregular": the maxIrregular longest, and those whose End is before
// Start or out of the exact score range) lasts at most D, then
//
//   - a regular match starts in [From(End) − D, To(End)] ∩ Start, the full
//     range; and
//   - a regular event starting strictly inside (From(End), To(End) − D) ∩
//     Start — the core — matches, End range included.
//
// So the total is the core count of the status sets every effective status
// of which the query allows ("counted" sets), corrected by the events decided
// with the Go predicate's rules: on their metas the irregular events, the
// excluded ids and the full range of the sets whose events match depending
// on Now or author
// ("individual" sets: stored future when only one of publish and future is
// allowed, and the owner's extra statuses); on their start and end scores
// (one ZMSCORE of ev:end per strip) the events of the two strips full \ core
// of the counted sets, which differ from core events by time alone once the
// exception sets below are decided. Scores are microseconds rounded down, so
// a strict score comparison is the instants', and an event on a bound's
// microsecond is decided on its meta. A strip holds the events that start
// within D of a bound, so it grows with the events a day holds: reading a
// meta for each (about 10 µs) made a default page at 100,000 events cost
// Redis 2.6 times what it cost at 10,000.
//
// The page is then ordered exactly ((Start, id), as storage.ComparePosts):
// the decided matches plus, per counted set, the first offset+limit core
// events and their ties, sorted on the exact starts of their metas.
//
// Which status sets are counted depends on the query. Without link
// restrictions they are everyone's status sets (ev:st), plus, for the
// statuses only the owner may see (own drafts…), the owner's own sets
// (ev:au): an author's list is counted, not decided draft by draft. A list
// restricted to records of one link kind — a category and its descendants,
// some tags, a venue — is counted on the status sets of each listed record
// (evs:<link>:<id>:<status>); the owner's statuses are then individual sets.
// A stored status is counted or individual, never both, but counted sets
// of several links overlap (an event in two listed categories): a decided
// event is taken out of the count once per counted core holding it, and
// the events that two listed links would count twice (ev:multi) are an
// exception set, decided one by one. So a category page costs the page plus
// the few events above, not one decision per event of the category.
//
// Restrictions on links, Featured, PostParent, ExcludeHidden and Series are
// checked on the metas too. When the events must be in some sets and the
// list is not one of a single link kind (Featured true, PostParent, links
// of two kinds), nothing is counted: the events of the smallest such union
// in the full range are all decided on their metas. Sets whose events a
// restriction refuses (hidden, featured when Featured is false, an excluded
// venue, series records, occurrences a rule owns) are "exceptions": their
// events in the full range are decided on their metas, so a core event
// outside them matches.
//
// Irregular events of finite duration that start beyond a Start bound or
// To(End), or end before From(End), are ruled out on their start and end
// scores instead of their metas.
//
// The work is bounded, because Lua blocks Redis while it runs and deciding
// an event on its meta costs about 10 µs (HGET and decoding): at most
// windowBudget events decided or page entries ordered, counting the
// maxIrregular irregular events, so about 10 ms at worst. Beyond, on data
// written before the duration index existed (ev:dur smaller than ev:start),
// or on a query with Search, Name or IDs, the list takes the candidate path
// (list.go), whose work is spread over round trips and the Go side.
const (
	maxIrregular = 128
	windowBudget = 1024
)

// windowArgs returns the keys and the argument of the exact window path for
// q (appended to listScript's; the values packed in one, packArgs), or ok
// false when q restricts something the path
// does not handle.
func (s *Store) windowArgs(q *calendar.PostQuery, firstKey int) (keys []string, args []any, ok bool) {
	if s.noWindow || q.Kind != calendar.KindEvent || len(q.IDs) > 0 || len(q.Search) > 0 || q.Name != "" {
		return nil, nil, false
	}
	lists := [][]int64{q.VenueIDs, q.OrganizerIDs, q.CategoryIDs, q.TagIDs, q.NotVenueIDs}
	for _, ids := range append(lists, q.ExcludeIDs, []int64{q.PostParent, q.Visible.Owner}) {
		for _, id := range ids {
			if id > 1<<50 || id < -1<<50 {
				return nil, nil, false // beyond what Lua numbers hold exactly
			}
		}
	}
	for _, t := range []time.Time{q.Start.From, q.Start.To, q.End.From, q.End.To} {
		if !t.IsZero() && !exactScore(t) {
			return nil, nil, false
		}
	}
	if sec := q.Now.Unix(); sec > 1<<50 || sec < -1<<50 {
		return nil, nil, false
	}
	if q.Offset > 1<<50 || q.Limit > 1<<50 { // a caller other than the Service may ask anything
		return nil, nil, false
	}
	var groups [][]string
	if q.Featured != nil && *q.Featured {
		groups = append(groups, []string{s.k.evFeatured()})
	}
	if q.PostParent != 0 {
		groups = append(groups, []string{s.k.evParent(q.PostParent)})
	}
	// A list of one link kind (a category and its children, some tags, a
	// venue…) is counted on the sets of those links by status; lists of
	// several link kinds, featured events or a parent's children take the
	// smallest group of sets instead and decide its events one by one.
	linkKind, linkIDs, linkGroups := calendar.Kind(0), []int64(nil), 0
	for i, kind := range linkKinds {
		if g := s.linkSets(kind, lists[i]); len(g) > 0 {
			groups = append(groups, g)
			linkKind, linkIDs = kind, lists[i]
			linkGroups++
		}
	}
	byLink := len(groups) == 1 && linkGroups == 1
	var counted, indiv, exceptions []string
	if len(groups) > 0 && !byLink {
		// An event must be in one set of each group: the smallest group
		// gives the events to decide, and nothing is counted.
		if !q.Visible.IsZero() {
			c, i := s.statusKeys(q.Visible, false, 0, nil)
			groups = append(groups, append(c, i...))
		}
	} else {
		if byLink {
			groups = nil
			counted, indiv = s.statusKeys(q.Visible, false, linkKind, linkIDs)
			if distinctIDs(linkIDs) > 1 {
				// An event in two of the sets is counted twice: decide it.
				exceptions = append(exceptions, s.k.evMulti(linkKind))
			}
		} else {
			counted, indiv = s.statusKeys(q.Visible, true, 0, nil)
		}
		if q.ExcludeHidden {
			exceptions = append(exceptions, s.k.evHidden())
		}
		if q.Featured != nil && !*q.Featured {
			exceptions = append(exceptions, s.k.evFeatured())
		}
		switch q.Series {
		case calendar.SeriesHideTemplates:
			exceptions = append(exceptions, s.k.evSeries())
		case calendar.SeriesHideInstances:
			exceptions = append(exceptions, s.k.evInstance())
		}
		exceptions = append(exceptions, s.linkSets(calendar.KindVenue, q.NotVenueIDs)...)
	}
	keys = append([]string{s.k.meta(), s.k.evDur(), s.k.evStart(), s.k.format(), s.k.evEnd()}, counted...)
	keys = append(keys, indiv...)
	keys = append(keys, exceptions...)
	for _, g := range groups {
		keys = append(keys, g...)
	}
	flag := func(b bool) string {
		if b {
			return "1"
		}
		return "0"
	}
	sa1, sa2 := scoreRange(q.Start)
	sc1, sc2 := scoreRange(q.End)
	args = []any{firstKey, len(counted), len(indiv), len(exceptions), len(groups)}
	for _, g := range groups {
		args = append(args, len(g))
	}
	args = append(args, s.k.postPrefix(), int(calendar.KindEvent),
		string(calendar.StatusPublish), string(calendar.StatusFuture), sa1, sa2, sc1, sc2)
	for _, t := range []struct {
		at   time.Time
		excl bool
	}{{q.Start.From, q.Start.FromExclusive}, {q.Start.To, q.Start.ToExclusive},
		{q.End.From, q.End.FromExclusive}, {q.End.To, q.End.ToExclusive}} {
		args = append(args, flag(!t.at.IsZero()), t.at.Unix(), t.at.Nanosecond(), flag(t.excl))
	}
	args = append(args, q.Now.Unix(), q.Now.Nanosecond(), flag(q.Visible.IsZero()), q.Visible.Owner)
	args = append(args, len(q.Visible.Statuses))
	for _, st := range q.Visible.Statuses {
		args = append(args, string(st))
	}
	args = append(args, len(q.Visible.OwnStatuses))
	for _, st := range q.Visible.OwnStatuses {
		args = append(args, string(st))
	}
	args = append(args, len(q.ExcludeIDs))
	for _, id := range q.ExcludeIDs {
		args = append(args, strconv.FormatInt(id, 10))
	}
	featured := "-"
	if q.Featured != nil {
		featured = flag(*q.Featured)
	}
	args = append(args, featured, q.PostParent, flag(q.ExcludeHidden), int(q.Series))
	for _, ids := range lists {
		args = append(args, len(ids))
		for _, id := range ids {
			args = append(args, id)
		}
	}
	args = append(args, max(q.Offset, 0), q.Limit, flag(q.CountOnly), s.maxIrregular, s.windowBudget, acceptedFormats)
	return keys, []any{packArgs(args)}, true
}

// linkSets returns the distinct sets of the events linked to ids of kind.
func (s *Store) linkSets(kind calendar.Kind, ids []int64) []string {
	var out []string
	for _, id := range ids {
		if k := s.k.evLink(kind, id); !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// statusKeys returns the keys of the counted and individual status sets of
// visibility v (statusSets): everyone's (ev:st, or ev:start when v restricts
// nothing), or, when links are given, those of each link (evs, or the link
// sets themselves when v restricts nothing).
func (s *Store) statusKeys(v calendar.Visibility, byAuthor bool, kind calendar.Kind, links []int64) (counted, indiv []string) {
	if v.IsZero() {
		if links == nil {
			return []string{s.k.evStart()}, nil
		}
		return s.linkSets(kind, links), nil
	}
	cs, is := statusSets(v, byAuthor)
	name := func(out []string, set sset) []string {
		switch {
		case set.author != 0:
			return append(out, s.k.evAuthor(set.author, set.st))
		case links == nil:
			return append(out, s.k.evStatus(set.st))
		}
		for _, id := range links {
			if k := s.k.evLinkStatus(kind, lit(itoa(id)), set.st).String(); !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
		return out
	}
	for _, set := range cs {
		counted = name(counted, set)
	}
	for _, set := range is {
		indiv = name(indiv, set)
	}
	return counted, indiv
}

// sset names a start-sorted status set: the events of stored status st,
// by author when author is non-zero (ev:au), else by everyone (ev:st, or
// evs when the window path counts a link list).
type sset struct {
	st     calendar.Status
	author int64
}

// statusSets splits the stored statuses a visibility can match in: counted
// sets, every event of which has an allowed effective status, and
// individual sets, whose events are allowed or not depending on their date
// (stored future: published once its date passed) or their author. With
// byAuthor, a status only the owner may see is counted on the owner's own
// set; else the owner's events are found among everyone's, individually.
func statusSets(v calendar.Visibility, byAuthor bool) (counted, indiv []sset) {
	in := func(list []calendar.Status, st calendar.Status) bool { return slices.Contains(list, st) }
	everyone := func(st calendar.Status) bool { return in(v.Statuses, st) }
	owner := func(st calendar.Status) bool { return everyone(st) || v.Owner != 0 && in(v.OwnStatuses, st) }
	// all: every event of stored status st is allowed by allowed; any: some
	// may be (a stored future event reads as published once its date passed).
	all := func(allowed func(calendar.Status) bool, st calendar.Status) bool {
		return allowed(st) && (st != calendar.StatusFuture || allowed(calendar.StatusPublish))
	}
	anyOf := func(allowed func(calendar.Status) bool, st calendar.Status) bool {
		return allowed(st) || st == calendar.StatusFuture && allowed(calendar.StatusPublish)
	}
	stored := slices.Concat(v.Statuses, v.OwnStatuses, []calendar.Status{calendar.StatusPublish, calendar.StatusFuture})
	var done []calendar.Status
	for _, st := range stored {
		if slices.Contains(done, st) {
			continue
		}
		done = append(done, st)
		switch {
		case all(everyone, st):
			counted = append(counted, sset{st: st})
		case anyOf(everyone, st):
			indiv = append(indiv, sset{st: st})
		case v.Owner == 0 || !anyOf(owner, st):
		case !byAuthor:
			indiv = append(indiv, sset{st: st})
		case all(owner, st):
			counted = append(counted, sset{st: st, author: v.Owner})
		default:
			indiv = append(indiv, sset{st: st, author: v.Owner})
		}
	}
	return counted, indiv
}
