package tecimport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// Run imports everything the site at from shows (see the package doc) into
// target, which it drives as the caller on ctx: pass calendar.System
// (calendar.WithPrincipal). It returns the summary also when it stops early
// on a fatal error: refused credentials, a cancelled ctx, a store that
// became unavailable, or no REST interface at from.
func Run(ctx context.Context, target calendar.Importer, from string, opts ...Option) (*Summary, error) {
	cfg := newConfig(opts)
	r := &run{cfg: cfg, target: target, posts: map[int64]int64{}, terms: map[int64]int64{},
		seen: map[int64]bool{}, failed: map[int64]bool{}, sum: &Summary{},
		progress: &progress{w: cfg.progress, every: cfg.progressEvery, now: cfg.now}}
	start := cfg.now()
	err := r.run(ctx, from)
	r.sum.Elapsed = cfg.now().Sub(start)
	if r.client != nil {
		r.sum.Requests, r.sum.Retries = r.client.Requests()
	}
	return r.sum, err
}

// run is the state of one import.
type run struct {
	cfg      *config
	client   *Client
	target   calendar.Importer
	m        mapper
	keep     bool
	posts    map[int64]int64 // site post id → calendar id
	terms    map[int64]int64 // site term id → calendar id
	seen     map[int64]bool  // site post ids read, whatever became of them
	failed   map[int64]bool  // site post and term ids that could not be stored
	maxPost  int64
	sum      *Summary
	progress *progress
}

func (r *run) run(ctx context.Context, from string) error {
	c, err := connect(ctx, from, r.cfg)
	if err != nil {
		return err
	}
	r.client = c
	c.onRetry = func(u string, err error, attempt int, wait time.Duration) {
		r.progress.printf("retrying in %s (try %d of %d): %v", wait.Round(time.Millisecond), attempt+1, r.cfg.attempts, err)
	}
	r.sum.Site = c.Site()
	r.m = mapper{lang: r.cfg.lang, authors: r.cfg.authors, siteZone: siteZone(c.Site())}
	if u, err := url.Parse(c.Site().URL); err == nil && u.Host != "" {
		r.m.host = u.Host
	} else {
		r.m.host = c.api.Host
	}
	r.progress.printf("reading %s", c.Site().API)

	empty, err := r.target.IsEmpty(ctx)
	if err != nil {
		return err
	}
	r.keep = r.cfg.keepIDs == keepAlways || r.cfg.keepIDs == keepIfEmpty && empty
	r.sum.KeptIDs = r.keep

	if err := r.categories(ctx); err != nil {
		return err
	}
	if err := r.tags(ctx); err != nil {
		return err
	}
	for _, k := range []calendar.Kind{calendar.KindVenue, calendar.KindOrganizer, calendar.KindEvent} {
		if err := r.posts1(ctx, k); err != nil {
			return err
		}
	}
	if r.cfg.probeHidden {
		return r.probe(ctx)
	}
	return nil
}

// siteZone is the zone of the dates the site sends in local time only.
func siteZone(info SiteInfo) *time.Location {
	if info.TimeZone != "" {
		if loc, err := calendar.ParseZone(info.TimeZone); err == nil {
			return loc
		}
	}
	return time.FixedZone("site", int(info.GMTOffset*3600))
}

func (r *run) kind(k calendar.Kind) *KindSummary {
	for _, ks := range r.sum.Kinds {
		if ks.Kind == k {
			return ks
		}
	}
	ks := &KindSummary{Kind: k}
	r.sum.Kinds = append(r.sum.Kinds, ks)
	return ks
}

func (r *run) problem(k calendar.Kind, id int64, skipped bool, err error) {
	p := Problem{Kind: k, ID: id, Skipped: skipped, Err: err}
	r.sum.Problems = append(r.sum.Problems, p)
	r.progress.printf("%s", p)
}

// statuses are the status filters of the post lists: every status with
// credentials (one list each, as the original takes one at a time), else
// the published records the site shows anyone.
func (r *run) statuses() []string {
	if r.cfg.user == "" {
		return []string{""}
	}
	return []string{"publish", "future", "draft", "pending", "private", "trash"}
}

// pages reads a list in the background one page ahead, so the site and the
// store work at the same time.
func (r *run) pages(ctx context.Context, collection string, args url.Values) iter.Seq2[*Page, error] {
	return func(yield func(*Page, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		type item struct {
			p   *Page
			err error
		}
		ch := make(chan item, 1)
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(ch)
			for p, err := range r.client.Pages(ctx, collection, args) {
				select {
				case ch <- item{p, err}:
				case <-ctx.Done():
					return
				}
			}
		}()
		defer func() {
			cancel()
			for range ch {
			}
			wg.Wait()
		}()
		for it := range ch {
			if !yield(it.p, it.err) {
				return
			}
		}
	}
}

// pageFailed reports a page error; it returns the error when the run must stop.
func (r *run) pageFailed(k calendar.Kind, err error) error {
	if fatal(err) {
		return err
	}
	var pe *PageError
	if errors.As(err, &pe) {
		r.problem(k, 0, true, err)
		r.kind(k).Failed++
		return nil
	}
	return err
}

// categories reads every category, then stores them parents first, one
// level per write, so each parent exists when its children link it.
func (r *run) categories(ctx context.Context) error {
	const k = calendar.KindCategory
	ks := r.kind(k)
	r.progress.begin()
	type item struct {
		rec    *calendar.TermRecord
		siteID int64
	}
	var all []item
	for p, err := range r.pages(ctx, "categories", url.Values{"hide_empty": {"false"}}) {
		if err != nil {
			if err := r.pageFailed(k, err); err != nil {
				return err
			}
			continue
		}
		for _, raw := range p.Items {
			ks.Read++
			rec, err := r.m.decodeTerm(calendar.TaxonomyCategory, raw)
			if err != nil {
				id := itemID(raw)
				r.failed[id] = id != 0
				ks.Failed++
				r.problem(k, id, true, err)
				continue
			}
			all = append(all, item{rec, rec.ID})
		}
	}
	site := map[int64]*calendar.TermRecord{}
	for _, it := range all {
		site[it.siteID] = it.rec
	}
	depth := func(id int64) int {
		d := 0
		for p := site[id].Parent; p != 0 && site[p] != nil && d <= len(site); p = site[p].Parent {
			d++
		}
		return d
	}
	slices.SortStableFunc(all, func(a, b item) int { return depth(a.siteID) - depth(b.siteID) })
	for len(all) > 0 {
		d := depth(all[0].siteID)
		n := 1
		for n < len(all) && depth(all[n].siteID) == d && n < r.cfg.batch {
			n++
		}
		var recs []*calendar.TermRecord
		var ids []int64
		for _, it := range all[:n] {
			recs = append(recs, it.rec)
			ids = append(ids, it.siteID)
		}
		if err := r.storeTerms(ctx, k, recs, ids); err != nil {
			return err
		}
		all = all[n:]
		r.progress.tick(ks, false)
	}
	r.progress.tick(ks, true)
	return nil
}

func (r *run) tags(ctx context.Context) error {
	const k = calendar.KindTag
	ks := r.kind(k)
	r.progress.begin()
	for p, err := range r.pages(ctx, "tags", url.Values{"hide_empty": {"false"}}) {
		if err != nil {
			if err := r.pageFailed(k, err); err != nil {
				return err
			}
			continue
		}
		var recs []*calendar.TermRecord
		var ids []int64
		for _, raw := range p.Items {
			ks.Read++
			rec, err := r.m.decodeTerm(calendar.TaxonomyTag, raw)
			if err != nil {
				id := itemID(raw)
				r.failed[id] = id != 0
				ks.Failed++
				r.problem(k, id, true, err)
				continue
			}
			recs, ids = append(recs, rec), append(ids, rec.ID)
		}
		if err := r.storeTerms(ctx, k, recs, ids); err != nil {
			return err
		}
		r.progress.tick(ks, false)
	}
	r.progress.tick(ks, true)
	return nil
}

// storeTerms maps the parents of recs to calendar ids and stores them.
func (r *run) storeTerms(ctx context.Context, k calendar.Kind, recs []*calendar.TermRecord, siteIDs []int64) error {
	if len(recs) == 0 {
		return nil
	}
	for i, rec := range recs {
		if rec.Parent == 0 {
			continue
		}
		if id, ok := r.terms[rec.Parent]; ok {
			rec.Parent = id
			continue
		}
		r.problem(k, siteIDs[i], false, fmt.Errorf("parent category %d was not imported; placed at the top level", rec.Parent))
		rec.Parent = 0
	}
	res, err := r.target.ImportTerms(ctx, recs, calendar.ImportOptions{KeepIDs: r.keep})
	if err != nil {
		return err
	}
	for i, x := range res {
		id := siteIDs[i]
		if x.Action == calendar.ImportFailed {
			r.tally(k, id, x.Action, x.Err, 0, "", "", false)
			continue
		}
		r.terms[id] = x.Term.ID
		r.tally(k, id, x.Action, nil, x.Term.ID, recs[i].Slug, x.Term.Slug, x.IDTaken)
	}
	return nil
}

// tally counts one stored record of kind k (site id id) by what the import
// did, and reports a failure, an id another record holds and a slug that
// could not be kept.
func (r *run) tally(k calendar.Kind, id int64, a calendar.ImportAction, err error, stored int64, wantSlug, gotSlug string, idTaken bool) {
	ks := r.kind(k)
	switch a {
	case calendar.ImportFailed:
		ks.Failed++
		r.failed[id] = true
		r.problem(k, id, true, err)
		return
	case calendar.ImportCreated:
		ks.Created++
	case calendar.ImportUpdated:
		ks.Updated++
	case calendar.ImportUnchanged:
		ks.Unchanged++
	}
	if idTaken {
		r.problem(k, id, false, fmt.Errorf("id %d is held by another record; stored as %d", id, stored))
	}
	if gotSlug != wantSlug && a != calendar.ImportUnchanged {
		r.problem(k, id, false, fmt.Errorf("slug %q is stored as %q", wantSlug, gotSlug))
	}
}

// posts1 reads and stores every post of kind k, one list per status.
func (r *run) posts1(ctx context.Context, k calendar.Kind) error {
	ks := r.kind(k)
	r.progress.begin()
	coll := plural(k)
	for _, st := range r.statuses() {
		args := url.Values{}
		if st != "" {
			args.Set("status", st)
		}
		if k == calendar.KindEvent {
			// The original lists only upcoming events by default.
			args.Set("start_date", "1900-01-01 00:00:00")
			args.Set("end_date", "2200-12-31 23:59:59")
		}
		for p, err := range r.pages(ctx, coll, args) {
			var herr *HTTPError
			if errors.As(err, &herr) && herr.Status == http.StatusBadRequest && st != "" && st != "publish" {
				// The site does not take this status filter (or this user may not use it).
				r.problem(k, 0, false, fmt.Errorf("%s with status %q could not be listed: %v", coll, st, err))
				break
			}
			if err != nil {
				if err := r.pageFailed(k, err); err != nil {
					return err
				}
				continue
			}
			if err := r.storeItems(ctx, k, p.Items); err != nil {
				return err
			}
			r.progress.tick(ks, false)
		}
	}
	r.progress.tick(ks, true)
	return nil
}

// storeItems decodes, maps and stores list items of kind k.
func (r *run) storeItems(ctx context.Context, k calendar.Kind, items []json.RawMessage) error {
	ks := r.kind(k)
	var recs []*calendar.PostRecord
	var ids []int64
	for _, raw := range items {
		rec, links, err := r.decodePost(k, raw)
		id := int64(0)
		if err == nil {
			id = rec.ID
		} else {
			id = itemID(raw) // the record does not decode: its id may
		}
		if id > 0 && r.seen[id] {
			continue // listed twice (its status changed while we read)
		}
		ks.Read++
		if id > 0 {
			r.seen[id] = true
			r.maxPost = max(r.maxPost, id)
		}
		if err == nil && links != nil {
			err = r.link(ctx, rec, links)
		}
		if err != nil {
			if fatal(err) || errors.Is(err, calendar.ErrUnavailable) {
				return err
			}
			ks.Failed++
			r.failed[id] = id != 0
			r.problem(k, id, true, err)
			continue
		}
		recs, ids = append(recs, rec), append(ids, id)
		if len(recs) >= r.cfg.batch {
			if err := r.storePosts(ctx, k, recs, ids); err != nil {
				return err
			}
			recs, ids = nil, nil
		}
	}
	return r.storePosts(ctx, k, recs, ids)
}

// decodePost maps one item; for events also what it links to.
func (r *run) decodePost(k calendar.Kind, raw json.RawMessage) (*calendar.PostRecord, *eventLinks, error) {
	switch k {
	case calendar.KindVenue:
		rec, err := r.m.decodeVenue(raw)
		return rec, nil, err
	case calendar.KindOrganizer:
		rec, err := r.m.decodeOrganizer(raw)
		return rec, nil, err
	}
	return r.m.event(raw)
}

// link replaces the site's ids of an event's links by calendar ids. A linked
// record the lists did not show (trashed, or not readable without
// credentials) is imported from the copy the event embeds; a link that
// cannot be stored is dropped and reported.
func (r *run) link(ctx context.Context, ev *calendar.PostRecord, l *eventLinks) error {
	site := ev.ID
	var err error
	ev.VenueIDs, err = r.linkPosts(ctx, site, calendar.KindVenue, len(l.venues), func(i int) (int64, func() (*calendar.PostRecord, error)) {
		return int64(l.venues[i].ID), func() (*calendar.PostRecord, error) { return r.m.venue(&l.venues[i]) }
	})
	if err != nil {
		return err
	}
	ev.OrganizerIDs, err = r.linkPosts(ctx, site, calendar.KindOrganizer, len(l.organizers), func(i int) (int64, func() (*calendar.PostRecord, error)) {
		return int64(l.organizers[i].ID), func() (*calendar.PostRecord, error) { return r.m.organizer(&l.organizers[i]) }
	})
	if err != nil {
		return err
	}
	if ev.CategoryIDs, err = r.linkTerms(ctx, site, calendar.TaxonomyCategory, l.categories); err != nil {
		return err
	}
	ev.TagIDs, err = r.linkTerms(ctx, site, calendar.TaxonomyTag, l.tags)
	return err
}

func (r *run) linkPosts(ctx context.Context, event int64, k calendar.Kind, n int,
	item func(i int) (int64, func() (*calendar.PostRecord, error))) ([]int64, error) {
	var out []int64
	for i := range n {
		id, embedded := item(i)
		if to, ok := r.posts[id]; ok {
			out = append(out, to)
			continue
		}
		if !r.failed[id] && !r.seen[id] {
			r.seen[id] = true
			r.maxPost = max(r.maxPost, id)
			ks := r.kind(k)
			ks.Read++
			rec, err := embedded()
			if err == nil {
				err = r.storePosts(ctx, k, []*calendar.PostRecord{rec}, []int64{id})
				if err != nil {
					return nil, err
				}
				if to, ok := r.posts[id]; ok {
					out = append(out, to)
					continue
				}
			} else {
				ks.Failed++
				r.failed[id] = true
				r.problem(k, id, true, err)
			}
		}
		r.problem(calendar.KindEvent, event, false, fmt.Errorf("link to %s %d dropped: it could not be imported", k, id))
	}
	return out, nil
}

func (r *run) linkTerms(ctx context.Context, event int64, tax calendar.Taxonomy, ts []sourceTerm) ([]int64, error) {
	var out []int64
	for i := range ts {
		id := int64(ts[i].ID)
		if to, ok := r.terms[id]; ok {
			out = append(out, to)
			continue
		}
		if !r.failed[id] {
			ks := r.kind(tax.Kind())
			ks.Read++
			rec, err := r.m.term(tax, &ts[i])
			if err == nil {
				if err := r.storeTerms(ctx, tax.Kind(), []*calendar.TermRecord{rec}, []int64{id}); err != nil {
					return nil, err
				}
				if to, ok := r.terms[id]; ok {
					out = append(out, to)
					continue
				}
			} else {
				ks.Failed++
				r.failed[id] = true
				r.problem(tax.Kind(), id, true, err)
			}
		}
		r.problem(calendar.KindEvent, event, false, fmt.Errorf("link to %s %d dropped: it could not be imported", tax.Kind(), id))
	}
	return out, nil
}

// storePosts stores mapped posts and records their calendar ids.
func (r *run) storePosts(ctx context.Context, k calendar.Kind, recs []*calendar.PostRecord, siteIDs []int64) error {
	if len(recs) == 0 {
		return nil
	}
	res, err := r.target.ImportPosts(ctx, recs, calendar.ImportOptions{KeepIDs: r.keep})
	if err != nil {
		return err
	}
	for i, x := range res {
		id := siteIDs[i]
		if x.Action == calendar.ImportFailed {
			r.tally(k, id, x.Action, x.Err, 0, "", "", false)
			continue
		}
		r.posts[id] = x.Post.ID
		r.tally(k, id, x.Action, nil, x.Post.ID, recs[i].Slug, x.Post.Slug, x.IDTaken)
	}
	return nil
}

// probeWorkers read the unlisted ids a few at a time.
const probeWorkers = 4

// probe reads, one by one, the post ids below the highest one seen that no
// list showed: the original never lists events hidden from listings. Ids
// that are no event (pages, attachments, revisions on a real site) answer
// 404 or 400 and are passed over.
func (r *run) probe(ctx context.Context) error {
	var ids []int64
	for id := int64(1); id < r.maxPost; id++ {
		if !r.seen[id] {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	r.progress.printf("looking for unlisted events among %d ids", len(ids))
	type found struct {
		id  int64
		raw json.RawMessage
		err error
	}
	jobs := make(chan int64)
	out := make(chan found)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for range probeWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range jobs {
				raw, err := r.client.Get(ctx, "events", id)
				select {
				case out <- found{id, raw, err}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, id := range ids {
			select {
			case jobs <- id:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(out) }()
	var batch []json.RawMessage
	var firstErr error
	for f := range out {
		var herr *HTTPError
		switch {
		case f.err == nil:
			batch = append(batch, f.raw)
		case errors.As(f.err, &herr) && herr.Status >= 400 && herr.Status < 500:
			// Not an event, or not one this reader may see.
		case fatal(f.err):
			if firstErr == nil {
				firstErr = f.err
				cancel()
			}
		default:
			r.problem(calendar.KindEvent, f.id, true, f.err)
			r.kind(calendar.KindEvent).Failed++
		}
		if len(batch) >= r.cfg.batch && firstErr == nil {
			if err := r.storeItems(ctx, calendar.KindEvent, batch); err != nil {
				firstErr = err
				cancel()
			}
			batch = nil
		}
	}
	if firstErr != nil {
		return firstErr
	}
	err := r.storeItems(ctx, calendar.KindEvent, batch)
	r.progress.tick(r.kind(calendar.KindEvent), true)
	return err
}
