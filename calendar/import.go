package calendar

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Importer stores records read from another system — a migration from a
// site running the original plugin, a nightly sync from it — keeping what
// identifies them there. *Service implements it. Every method needs the
// System principal: an import writes ids, authors, dates and statuses as
// the other system has them, which no user may do.
//
// Posts are matched by UID (unique per kind): a post whose UID the calendar
// holds is replaced, else created. Terms are matched by slug within their
// taxonomy. A record is validated like a write of the calendar's own (names,
// texts, URLs, dates, zone, cost, coordinates); one that fails is reported
// in its ImportResult and the others are stored.
type Importer interface {
	// IsEmpty reports whether the calendar holds no post and no term at
	// all, trashed ones included: the state in which ids are kept.
	IsEmpty(ctx context.Context) (bool, error)
	// ImportPosts stores events, venues and organizers; see ImportOptions.
	ImportPosts(ctx context.Context, recs []*PostRecord, opt ImportOptions) ([]ImportResult, error)
	// ImportTerms stores categories and tags; see ImportOptions.
	ImportTerms(ctx context.Context, recs []*TermRecord, opt ImportOptions) ([]ImportResult, error)
}

var _ Importer = (*Service)(nil)

// ImportOptions tune ImportPosts and ImportTerms.
type ImportOptions struct {
	// KeepIDs creates each new record with the id it carries, so that
	// links and client caches made against the other system keep working.
	// Meant for an empty calendar: an id another record holds is not taken
	// and the record gets the next id instead (ImportResult.IDTaken).
	KeepIDs bool
}

// ImportAction says what an import did with one record.
type ImportAction uint8

// The outcomes of one imported record.
const (
	ImportCreated   ImportAction = iota + 1
	ImportUpdated                // a record with its UID (or slug, for terms) was there and differed
	ImportUnchanged              // it was there with the same content: nothing was written
	ImportFailed                 // refused: see ImportResult.Err
)

var importActionNames = [...]string{"", "created", "updated", "unchanged", "failed"}

// String returns "created", "updated", "unchanged" or "failed".
func (a ImportAction) String() string {
	if int(a) < len(importActionNames) && a != 0 {
		return importActionNames[a]
	}
	return "import action " + strconv.Itoa(int(a))
}

// ImportResult is the outcome for one record of an import, at the record's
// index.
type ImportResult struct {
	Action ImportAction
	Post   *PostRecord // as stored (ImportPosts), also when unchanged
	Term   *TermRecord // as stored (ImportTerms)
	// IDTaken reports that KeepIDs asked for an id another record holds:
	// the record got the next id instead.
	IDTaken bool
	// Err says why the record was refused (Action ImportFailed): a
	// validation *Error naming the bad fields, or a link to a record that
	// does not exist, or a term name taken at its level.
	Err error
}

// IsEmpty reports whether the calendar holds no record at all.
func (s *Service) IsEmpty(ctx context.Context) (bool, error) {
	c := callerFrom(ctx)
	if !c.system {
		return false, c.deny("Only trusted code may inspect the whole calendar.")
	}
	now := s.now()
	for _, k := range []Kind{KindEvent, KindVenue, KindOrganizer} {
		got, err := s.repo.ListPosts(ctx, &PostQuery{Kind: k, Now: now, CountOnly: true})
		if err != nil {
			return false, s.storageErr(ctx, "count posts", err)
		}
		if got.Total > 0 {
			return false, nil
		}
	}
	for _, tax := range []Taxonomy{TaxonomyCategory, TaxonomyTag} {
		ts, err := s.repo.ListTerms(ctx, tax)
		if err != nil {
			return false, s.storageErr(ctx, "list terms", err)
		}
		if len(ts) > 0 {
			return false, nil
		}
	}
	return true, nil
}

// importPlan is one record of a batch that needs a write.
type importPlan struct {
	i       int         // index in the caller's slice
	next    *PostRecord // what to store
	cur     *PostRecord // what is stored (nil: create)
	keepID  bool
	idTaken bool
}

// ImportPosts stores posts read from another system, as few atomic writes as
// the batch allows (one when every record is fine). A post whose UID the
// calendar holds is replaced by the imported one, keeping the calendar's id
// and what the import cannot carry: texts in languages the import does not
// bring, the password, and series membership (parent and recurrence) when
// the import has none. A post without UID is always created; a UID twice in
// one batch is the later record (both results tell its outcome). The slug is
// kept (made unique on a clash, as on any write); a zero Date or Modified
// is "now", Author 0 the default author.
func (s *Service) ImportPosts(ctx context.Context, recs []*PostRecord, opt ImportOptions) ([]ImportResult, error) {
	c := callerFrom(ctx)
	if !c.system {
		return nil, c.deny("Only trusted code may import records.")
	}
	now := s.now()
	res := make([]ImportResult, len(recs))
	// A UID given twice: the later record stands for both.
	later := map[int]int{}
	last := map[string]int{}
	for i := len(recs) - 1; i >= 0; i-- {
		if p := recs[i]; p != nil && p.UID != "" {
			key := p.Kind.String() + "\x00" + p.UID
			if j, ok := last[key]; ok {
				later[i] = j
			} else {
				last[key] = i
			}
		}
	}
	defer func() {
		for i, j := range later {
			res[i] = res[j]
		}
	}()
	var plans []importPlan
	for i, in := range recs {
		if _, dup := later[i]; dup {
			continue
		}
		next, err := s.checkImportedPost(ctx, in, now)
		if err != nil {
			res[i] = ImportResult{Action: ImportFailed, Err: err}
			continue
		}
		p, done, err := s.planImportedPost(ctx, i, next, opt.KeepIDs)
		if err != nil {
			return nil, err
		}
		if done != nil {
			res[i] = *done
			continue
		}
		plans = append(plans, p)
	}
	// Each round stores the batch, or drops a refused record, or takes the
	// next id for one, or — on a concurrent write — looks again after a
	// backoff (bounded by ctx's deadline, see retrier).
	conflicts := newRetrier()
	for len(plans) > 0 {
		w := &Write{Steps: make([]Step, len(plans))}
		for k, p := range plans {
			w.Steps[k] = Step{Op: OpCreatePost, Post: p.next}
			if p.cur != nil {
				p.next.Version = p.cur.Version
				w.Steps[k].Op = OpUpdatePost
			}
		}
		out, err := s.repo.Apply(ctx, w)
		if err == nil {
			for k, p := range plans {
				stored := out.Steps[k].Post
				act := ImportCreated
				if p.cur != nil {
					act = ImportUpdated
				}
				res[p.i] = ImportResult{Action: act, Post: stored, IDTaken: p.idTaken}
				s.counts.eventWritten(p.cur, stored, now)
			}
			return res, nil
		}
		var se *StepError
		if !errors.As(err, &se) || se.Step < 0 || se.Step >= len(plans) || errors.Is(err, ErrUnavailable) {
			return nil, s.storageErr(ctx, "import posts", err)
		}
		p := &plans[se.Step]
		switch {
		case errors.Is(se.Err, ErrConflict) && p.cur == nil && p.keepID && p.next.ID > 0:
			// The id is held (or the UID appeared meanwhile; the next round tells).
			p.next.ID, p.idTaken = 0, true
			continue
		case errors.Is(se.Err, ErrConflict):
			// A concurrent writer, or a UID twice in one batch: look again.
			if ok, err := conflicts.again(ctx); !ok {
				return nil, s.storageErr(ctx, "import posts", err)
			}
			np, done, err := s.planImportedPost(ctx, p.i, p.next, false)
			if err != nil {
				return nil, err
			}
			if done != nil {
				res[p.i] = *done
				plans = append(plans[:se.Step], plans[se.Step+1:]...)
			} else {
				np.idTaken = p.idTaken
				*p = np
			}
			continue
		case errors.Is(se.Err, ErrNotFound):
			res[p.i] = ImportResult{Action: ImportFailed, Err: s.missingLinks(ctx, p.next, se.Err)}
		default:
			res[p.i] = ImportResult{Action: ImportFailed, Err: s.storageErr(ctx, "import post", se.Err)}
		}
		plans = append(plans[:se.Step], plans[se.Step+1:]...)
	}
	return res, nil
}

// planImportedPost decides what to do with a valid imported post: done is
// set when nothing has to be written.
func (s *Service) planImportedPost(ctx context.Context, i int, next *PostRecord, keepIDs bool) (importPlan, *ImportResult, error) {
	p := importPlan{i: i, next: next}
	if next.UID != "" {
		cur, err := s.repo.PostByUID(ctx, next.Kind, next.UID)
		switch {
		case errors.Is(err, ErrNotFound):
		case err != nil:
			return p, nil, s.storageErr(ctx, "post by uid", err)
		default:
			merged := mergeImportedPost(cur, next)
			if samePost(merged, cur) {
				return p, &ImportResult{Action: ImportUnchanged, Post: cur}, nil
			}
			p.next, p.cur = merged, cur
			return p, nil, nil
		}
	}
	next.Version = 0
	if !keepIDs {
		next.ID = 0
	}
	p.keepID = keepIDs && next.ID > 0
	return p, nil, nil
}

// mergeImportedPost is next with what the import cannot carry taken from cur.
func mergeImportedPost(cur, next *PostRecord) *PostRecord {
	m := next.Clone()
	m.ID, m.Version = cur.ID, cur.Version
	m.Title = mergeTexts(cur.Title, next.Title, next.Lang)
	m.Description = mergeTexts(cur.Description, next.Description, next.Lang)
	m.Excerpt = mergeTexts(cur.Excerpt, next.Excerpt, next.Lang)
	if m.Password == "" {
		m.Password = cur.Password
	}
	if m.PostParent == 0 {
		m.PostParent = cur.PostParent
	}
	if len(m.Recurrence) == 0 && m.RecurrenceID.IsZero() && !m.Detached {
		m.Recurrence = append([]string(nil), cur.Recurrence...)
		m.RecurrenceID, m.Detached = cur.RecurrenceID, cur.Detached
	}
	return m
}

// mergeTexts keeps cur's texts in the languages next does not bring; lang
// (the import's language) always takes next's text, absent meaning cleared.
func mergeTexts(cur, next Text, lang Lang) Text {
	out := cur.Clone()
	if out == nil {
		out = Text{}
	}
	delete(out, lang)
	for l, t := range next {
		out[l] = t
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// samePost reports whether two records hold the same content (versions aside).
func samePost(a, b *PostRecord) bool {
	x, y := *a, *b
	x.Version, y.Version = 0, 0
	return sameContent(&x, &y)
}

// sameContent compares two records field by field, taking empty and nil
// slices and maps as equal and instants regardless of their location.
func sameContent(a, b any) bool {
	return reflect.DeepEqual(normalized(reflect.ValueOf(a).Elem()), normalized(reflect.ValueOf(b).Elem()))
}

var timeType = reflect.TypeOf(time.Time{})

// normalized returns a copy of a struct value with instants in UTC and empty
// slices and maps as nil, walking pointers to structs.
func normalized(v reflect.Value) any {
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	for i := range c.NumField() {
		f := c.Field(i)
		if !f.CanSet() {
			continue
		}
		switch {
		case f.Type() == timeType:
			f.Set(reflect.ValueOf(f.Interface().(time.Time).UTC()))
		case (f.Kind() == reflect.Slice || f.Kind() == reflect.Map) && f.Len() == 0:
			f.Set(reflect.Zero(f.Type()))
		}
	}
	return c.Interface()
}

// missingLinks names the links of p that name no record of the right kind.
func (s *Service) missingLinks(ctx context.Context, p *PostRecord, cause error) error {
	var v Validation
	for _, l := range []struct {
		arg  string
		kind Kind
		ids  []int64
	}{{"venue", KindVenue, p.VenueIDs}, {"organizer", KindOrganizer, p.OrganizerIDs}} {
		if _, err := s.postsOfKind(ctx, &v, l.arg, l.kind, l.ids); err != nil {
			return err
		}
	}
	if p.PostParent != 0 {
		if _, err := s.postsOfKind(ctx, &v, "post_parent", KindEvent, []int64{p.PostParent}); err != nil {
			return err
		}
	}
	for _, l := range []struct {
		arg string
		tax Taxonomy
		ids []int64
	}{{"categories", TaxonomyCategory, p.CategoryIDs}, {"tags", TaxonomyTag, p.TagIDs}} {
		if len(l.ids) == 0 {
			continue
		}
		found, err := s.repo.GetTerms(ctx, l.ids)
		if err != nil {
			return s.storageErr(ctx, "get terms", err)
		}
		for _, id := range l.ids {
			ok := false
			for _, t := range found {
				ok = ok || t.ID == id && t.Taxonomy == l.tax
			}
			if !ok {
				v.Add(l.arg, fmt.Sprintf("%d is not a valid %s id", id, l.tax.Kind()))
			}
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	return &Error{Code: CodeInvalid, Reason: "rest_invalid_param", Message: "A linked record does not exist.", Err: cause}
}

// nameArg is the wire name of a post kind's title.
func nameArg(k Kind) string {
	switch k {
	case KindVenue:
		return "venue"
	case KindOrganizer:
		return "organizer"
	}
	return "title"
}

// checkImportedPost validates an imported post and returns the record to
// store: a clone with normalised slug, zone, language and defaults, and the
// fields of other kinds cleared.
func (s *Service) checkImportedPost(ctx context.Context, in *PostRecord, now time.Time) (*PostRecord, error) {
	if in == nil {
		return nil, invalidParam("record", "no record")
	}
	rec := in.Clone()
	var v Validation
	if !rec.Kind.IsPost() {
		return nil, invalidParam("kind", fmt.Sprintf("%s is not an event, venue or organizer", rec.Kind))
	}
	if rec.ID < 0 {
		v.Add("id", "id must be a positive integer")
	}
	if rec.Lang == "" {
		rec.Lang = s.defaultLang
	}
	if !rec.Lang.Valid() {
		v.Add("lang", fmt.Sprintf("lang is not one of %s", langList()))
	}
	rec.Title, rec.Description, rec.Excerpt = inLang(rec.Title, rec.Lang), inLang(rec.Description, rec.Lang), inLang(rec.Excerpt, rec.Lang)
	if rec.Status == "" {
		rec.Status = StatusPublish
	}
	if !rec.Status.Valid() {
		v.Add("status", "status is not one of publish, future, draft, pending, private, trash")
	}
	name := nameArg(rec.Kind)
	checkTexts(&v, name, rec.Title, func(arg, t string) string { return checkName(&v, arg, t) })
	if strings.TrimSpace(rec.Title[rec.Lang]) == "" && !v.Has(name) {
		v.Add(name, name+" must not be empty")
	}
	checkTexts(&v, "description", rec.Description, func(arg, t string) string { checkText(&v, arg, t); return t })
	checkTexts(&v, "excerpt", rec.Excerpt, func(arg, t string) string { checkText(&v, arg, t); return t })
	if rec.Slug = NormalizeSlug(rec.Slug); rec.Slug == "" {
		if rec.Slug = Slugify(rec.Title[rec.Lang]); rec.Slug == "" {
			rec.Slug = rec.Kind.String()
		}
	}
	if !utf8.ValidString(rec.UID) || len(rec.UID) > 1000 {
		v.Add("uid", "uid must be valid UTF-8 of at most 1000 bytes")
	}
	if rec.Author <= 0 {
		rec.Author = s.defaultAuthor
	} else if s.users != nil {
		if _, ok, err := s.users.LookupUser(ctx, rec.Author); err != nil {
			return nil, s.storageErr(ctx, "lookup user", err)
		} else if !ok {
			v.Add("author", fmt.Sprintf("user %d does not exist", rec.Author))
		}
	}
	if rec.Date.IsZero() {
		rec.Date = now
	}
	if rec.Modified.IsZero() {
		rec.Modified = now
	}
	rec.Date, rec.Modified = rec.Date.UTC().Truncate(time.Second), rec.Modified.UTC().Truncate(time.Second)
	rec.Status = scheduled(rec.Status, rec.Date, now)
	if rec.Image != "" {
		rec.Image = s.checkImage(ctx, &v, "image", rec.Image)
	}
	rec.Website = checkURL(&v, "website", rec.Website)
	rec.Phone = checkShort(&v, "phone", rec.Phone)
	for _, l := range [][]int64{rec.VenueIDs, rec.OrganizerIDs, rec.CategoryIDs, rec.TagIDs, {rec.PostParent}} {
		for _, id := range l {
			if id < 0 {
				v.Add("links", "linked ids must be positive")
			}
		}
	}
	rec.VenueIDs, rec.OrganizerIDs = uniqueIDs(rec.VenueIDs), uniqueIDs(rec.OrganizerIDs)
	rec.CategoryIDs, rec.TagIDs = uniqueIDs(rec.CategoryIDs), uniqueIDs(rec.TagIDs)

	if rec.Kind == KindEvent {
		s.checkImportedEvent(&v, rec)
	} else {
		clearEventFields(rec)
	}
	if rec.Kind == KindVenue {
		for _, f := range []struct {
			arg string
			dst *string
		}{{"address", &rec.Address}, {"city", &rec.City}, {"country", &rec.Country}, {"province", &rec.Province},
			{"state", &rec.State}, {"zip", &rec.Zip}, {"stateprovince", &rec.StateProvince}} {
			*f.dst = checkShort(&v, f.arg, *f.dst)
		}
		switch {
		case (rec.GeoLat == nil) != (rec.GeoLng == nil):
			v.Add("geo_lat", "geo_lat and geo_lng come together")
		case rec.GeoLat != nil && (*rec.GeoLat < -90 || *rec.GeoLat > 90):
			v.Add("geo_lat", "geo_lat must lie in [-90, 90]")
		case rec.GeoLng != nil && (*rec.GeoLng < -180 || *rec.GeoLng > 180):
			v.Add("geo_lng", "geo_lng must lie in [-180, 180]")
		}
	} else {
		rec.Address, rec.City, rec.Country, rec.Province, rec.State, rec.Zip, rec.StateProvince = "", "", "", "", "", "", ""
		rec.GeoLat, rec.GeoLng = nil, nil
	}
	if rec.Kind == KindOrganizer {
		rec.Email = checkEmail(&v, "email", rec.Email)
	} else {
		rec.Email = ""
	}
	if rec.Kind == KindOrganizer {
		rec.ShowMap, rec.ShowMapLink = nil, nil
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return rec, nil
}

// checkImportedEvent validates the event fields of an imported post.
func (s *Service) checkImportedEvent(v *Validation, rec *PostRecord) {
	if rec.TimeZone = strings.TrimSpace(rec.TimeZone); rec.TimeZone != "" {
		if loc, err := ParseZone(rec.TimeZone); err != nil {
			v.Add("timezone", "timezone must be an IANA zone name or an offset like UTC+2 or UTC-5:30")
		} else {
			rec.TimeZone = loc.String()
		}
	}
	switch {
	case rec.Start.IsZero():
		v.Add("start_date", "start_date must be set")
	case rec.End.IsZero():
		v.Add("end_date", "end_date must be set")
	case rec.End.Before(rec.Start):
		v.Add("end_date", "end_date must not be before start_date")
	}
	rec.Start, rec.End = rec.Start.UTC().Truncate(time.Second), rec.End.UTC().Truncate(time.Second)
	rec.Cost = checkCost(v, rec.Cost)
	if !utf8.ValidString(rec.Password) || len(rec.Password) > 255 {
		v.Add("password", "password must be valid UTF-8 of at most 255 bytes")
	}
	if rec.PostParent == rec.ID && rec.ID != 0 {
		v.Add("post_parent", "post_parent must be the id of another event")
	}
}

// clearEventFields zeroes what only events carry.
func clearEventFields(rec *PostRecord) {
	rec.Start, rec.End, rec.TimeZone, rec.AllDay = time.Time{}, time.Time{}, "", false
	rec.Cost, rec.HideFromListings, rec.Sticky, rec.Featured, rec.Password = nil, false, false, false, ""
	rec.PostParent, rec.VenueIDs, rec.OrganizerIDs, rec.CategoryIDs, rec.TagIDs = 0, nil, nil, nil, nil
	rec.Recurrence, rec.RecurrenceID, rec.Detached = nil, time.Time{}, false
}

// inLang files a text given under the empty language (an importer that
// leaves the language to the calendar) under the record's language.
func inLang(t Text, lang Lang) Text {
	if s, ok := t[""]; ok {
		delete(t, "")
		if _, has := t[lang]; !has {
			t[lang] = s
		}
	}
	return t
}

// checkTexts validates every language of a translatable field; check
// returns the text to keep.
func checkTexts(v *Validation, arg string, t Text, check func(arg, text string) string) {
	for l, s := range t {
		if !l.Valid() {
			v.Add(arg, fmt.Sprintf("%s has a text in %q, which is not one of %s", arg, l, langList()))
			continue
		}
		t[l] = check(arg, s)
	}
}

// ImportTerms stores categories and tags read from another system, matched
// by slug within their taxonomy: a term whose slug the calendar holds is
// replaced (keeping its id and texts in languages the import does not
// bring), else created. Parent (categories) is a calendar id and must name
// an existing category; term names stay unique per level (a clash fails
// that term).
func (s *Service) ImportTerms(ctx context.Context, recs []*TermRecord, opt ImportOptions) ([]ImportResult, error) {
	c := callerFrom(ctx)
	if !c.system {
		return nil, c.deny("Only trusted code may import records.")
	}
	res := make([]ImportResult, len(recs))
	type plan struct {
		i             int
		next, cur     *TermRecord
		keepID, taken bool
	}
	var plans []plan
	var all map[Taxonomy][]*TermRecord // loaded when a parent changes
	decide := func(i int, next *TermRecord, keepIDs bool) (*plan, error) {
		cur, err := s.repo.TermBySlug(ctx, next.Taxonomy, next.Slug)
		switch {
		case errors.Is(err, ErrNotFound):
			next.Version = 0
			if !keepIDs {
				next.ID = 0
			}
			return &plan{i: i, next: next, keepID: keepIDs && next.ID > 0}, nil
		case err != nil:
			return nil, s.storageErr(ctx, "term by slug", err)
		}
		m := next.Clone()
		m.ID, m.Version = cur.ID, cur.Version
		m.Name = mergeTexts(cur.Name, next.Name, next.Lang)
		m.Description = mergeTexts(cur.Description, next.Description, next.Lang)
		if x, y := *m, *cur; sameContent(&x, &y) {
			res[i] = ImportResult{Action: ImportUnchanged, Term: cur}
			return nil, nil
		}
		if m.Parent != 0 && m.Parent != cur.Parent {
			if all == nil {
				all = map[Taxonomy][]*TermRecord{}
			}
			if all[m.Taxonomy] == nil {
				ts, err := s.repo.ListTerms(ctx, m.Taxonomy)
				if err != nil {
					return nil, s.storageErr(ctx, "list terms", err)
				}
				all[m.Taxonomy] = ts
			}
			if m.Parent == m.ID || descendsFrom(all[m.Taxonomy], m.Parent, m.ID) {
				res[i] = ImportResult{Action: ImportFailed, Err: invalidParam("parent", "parent must not be the category itself or one of its descendants")}
				return nil, nil
			}
		}
		return &plan{i: i, next: m, cur: cur}, nil
	}
	for i, in := range recs {
		next, err := s.checkImportedTerm(in)
		if err != nil {
			res[i] = ImportResult{Action: ImportFailed, Err: err}
			continue
		}
		p, err := decide(i, next, opt.KeepIDs)
		if err != nil {
			return nil, err
		}
		if p != nil {
			plans = append(plans, *p)
		}
	}
	conflicts := newRetrier()
	for len(plans) > 0 {
		w := &Write{Steps: make([]Step, len(plans))}
		for k, p := range plans {
			w.Steps[k] = Step{Op: OpCreateTerm, Term: p.next}
			if p.cur != nil {
				w.Steps[k].Op = OpUpdateTerm
			}
		}
		out, err := s.repo.Apply(ctx, w)
		if err == nil {
			for k, p := range plans {
				act := ImportCreated
				if p.cur != nil {
					act = ImportUpdated
				}
				res[p.i] = ImportResult{Action: act, Term: out.Steps[k].Term, IDTaken: p.taken}
			}
			return res, nil
		}
		var se *StepError
		if !errors.As(err, &se) || se.Step < 0 || se.Step >= len(plans) || errors.Is(err, ErrUnavailable) {
			return nil, s.storageErr(ctx, "import terms", err)
		}
		p := &plans[se.Step]
		var nt *NameTakenError
		switch {
		case errors.Is(se.Err, ErrConflict) && p.cur == nil && p.keepID && p.next.ID > 0:
			p.next.ID, p.taken = 0, true
			continue
		case errors.Is(se.Err, ErrConflict):
			if ok, err := conflicts.again(ctx); !ok {
				return nil, s.storageErr(ctx, "import terms", err)
			}
			np, err := decide(p.i, p.next, false)
			if err != nil {
				return nil, err
			}
			if np == nil {
				plans = append(plans[:se.Step], plans[se.Step+1:]...)
			} else {
				np.taken = p.taken
				*p = *np
			}
			continue
		case errors.As(se.Err, &nt):
			res[p.i] = ImportResult{Action: ImportFailed, Err: &Error{Code: CodeInvalid, Reason: "term_exists",
				Message: fmt.Sprintf("The name %q is taken by %s %d at that level.", nt.Name, p.next.Taxonomy.Kind(), nt.ID), TermID: nt.ID, Err: se.Err}}
		case errors.Is(se.Err, ErrNotFound):
			res[p.i] = ImportResult{Action: ImportFailed, Err: invalidParam("parent", fmt.Sprintf("%d is not a valid category id", p.next.Parent))}
		default:
			res[p.i] = ImportResult{Action: ImportFailed, Err: s.storageErr(ctx, "import term", se.Err)}
		}
		plans = append(plans[:se.Step], plans[se.Step+1:]...)
	}
	return res, nil
}

// checkImportedTerm validates an imported term and returns the record to store.
func (s *Service) checkImportedTerm(in *TermRecord) (*TermRecord, error) {
	if in == nil {
		return nil, invalidParam("record", "no record")
	}
	t := in.Clone()
	if err := s.checkTaxonomy(t.Taxonomy); err != nil {
		return nil, err
	}
	var v Validation
	if t.ID < 0 {
		v.Add("id", "id must be a positive integer")
	}
	if t.Lang == "" {
		t.Lang = s.defaultLang
	}
	if !t.Lang.Valid() {
		v.Add("lang", fmt.Sprintf("lang is not one of %s", langList()))
	}
	t.Name, t.Description = inLang(t.Name, t.Lang), inLang(t.Description, t.Lang)
	checkTexts(&v, "name", t.Name, func(arg, x string) string { return checkName(&v, arg, x) })
	if strings.TrimSpace(t.Name[t.Lang]) == "" && !v.Has("name") {
		v.Add("name", "name must not be empty")
	}
	checkTexts(&v, "description", t.Description, func(arg, x string) string { checkText(&v, arg, x); return x })
	if t.Slug = NormalizeSlug(t.Slug); t.Slug == "" {
		if t.Slug = Slugify(t.Name[t.Lang]); t.Slug == "" {
			t.Slug = t.Taxonomy.Kind().String()
		}
	}
	switch {
	case t.Parent < 0:
		v.Add("parent", "parent must be a category id")
	case t.Parent != 0 && !t.Taxonomy.Hierarchical():
		v.Add("parent", "tags have no parent")
	case t.Parent != 0 && t.Parent == t.ID:
		v.Add("parent", "a category is not its own parent")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return t, nil
}

// descendsFrom reports whether term id lies below ancestor among all (an
// import holds the whole taxonomy already).
func descendsFrom(all []*TermRecord, id, ancestor int64) bool {
	for steps := 0; id != 0 && steps <= len(all); steps++ {
		t := findID(all, id)
		if t == nil {
			return false
		}
		if t.Parent == ancestor {
			return true
		}
		id = t.Parent
	}
	return false
}
