package calendar

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

func (s *Service) checkTaxonomy(tax Taxonomy) error {
	if tax.Kind() == 0 {
		return invalidParam("taxonomy", fmt.Sprintf("unknown taxonomy %q", tax))
	}
	return nil
}

// findTerm loads term id of the taxonomy; any other id is an invalid argument.
func (s *Service) findTerm(ctx context.Context, tax Taxonomy, id int64) (*TermRecord, error) {
	if id <= 0 {
		return nil, invalidParam("id", "id must be a positive integer")
	}
	t, err := s.repo.GetTerm(ctx, id)
	if errors.Is(err, ErrNotFound) || err == nil && t.Taxonomy != tax {
		return nil, noSuchRecord("id", fmt.Sprintf("%d is not a valid %s id", id, tax.Kind()))
	}
	if err != nil {
		return nil, s.storageErr(ctx, "get term", err)
	}
	return t, nil
}

// GetTerm reads one category or tag.
func (s *Service) GetTerm(ctx context.Context, tax Taxonomy, id int64, opt ReadOptions) (*Term, error) {
	if err := s.checkTaxonomy(tax); err != nil {
		return nil, err
	}
	lang, err := s.lang(opt.Lang)
	if err != nil {
		return nil, err
	}
	t, err := s.findTerm(ctx, tax, id)
	if err != nil {
		return nil, err
	}
	tv, err := s.newRender(ctx, callerFrom(ctx), lang, s.now()).term(t)
	if err != nil {
		return nil, err
	}
	return &tv, nil
}

// GetTermBySlug reads the category or tag of the taxonomy with this slug.
// A slug that names no term is an error matching ErrNotFound.
func (s *Service) GetTermBySlug(ctx context.Context, tax Taxonomy, slug string, opt ReadOptions) (*Term, error) {
	if err := s.checkTaxonomy(tax); err != nil {
		return nil, err
	}
	lang, err := s.lang(opt.Lang)
	if err != nil {
		return nil, err
	}
	norm := NormalizeSlug(slug)
	if norm == "" {
		return nil, invalidParam("slug", "slug must not be empty")
	}
	t, err := s.termWithSlug(ctx, tax, norm)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, noSuchRecord("slug", fmt.Sprintf("no %s has the slug %q", tax.Kind(), norm))
	}
	tv, err := s.newRender(ctx, callerFrom(ctx), lang, s.now()).term(t)
	if err != nil {
		return nil, err
	}
	return &tv, nil
}

// applyTerm validates a term write into v and writes the valid fields into t.
// It reads only the records it needs (the parent and its ancestors, the
// holder of a wanted slug): its cost does not grow with the taxonomy. Names
// unique per level are the store's to enforce, inside the write (termExists).
func (s *Service) applyTerm(ctx context.Context, v *Validation, t *TermRecord, in TermInput, lang Lang, creating bool) error {
	if creating && !in.Name.Set && !v.Has("name") {
		v.Missing("name")
	}
	if in.Name.Set {
		if n := checkName(v, "name", in.Name.Value); !v.Has("name") {
			t.Name = setText(t.Name, lang, n)
		}
	}
	if in.Description.Set {
		if checkText(v, "description", in.Description.Value); !v.Has("description") {
			t.Description = setText(t.Description, lang, in.Description.Value)
		}
	}
	if in.Parent.Set {
		if !t.Taxonomy.Hierarchical() {
			return &Error{Code: CodeInvalid, Reason: "rest_taxonomy_not_hierarchical",
				Message: "Can not set parent of a term of a non-hierarchical taxonomy.",
				Params:  map[string]string{"parent": "tags have no parent"}}
		}
		p := in.Parent.Value
		parent, err := s.termOf(ctx, t.Taxonomy, p)
		if err != nil {
			return err
		}
		switch {
		case p == 0:
			t.Parent = 0
		case parent == nil:
			v.Add("parent", fmt.Sprintf("%d is not a valid category id", p))
		default:
			below := p == t.ID
			if t.ID != 0 && !below {
				if below, err = s.isDescendant(ctx, parent, t.ID); err != nil {
					return err
				}
			}
			if below {
				v.Add("parent", "parent must not be the category itself or one of its children")
			} else {
				t.Parent = p
			}
		}
	}
	if in.Slug.Set {
		sl := NormalizeSlug(in.Slug.Value)
		if sl == "" {
			v.Add("slug", "slug must not be empty")
		} else {
			if !creating {
				o, err := s.termWithSlug(ctx, t.Taxonomy, sl)
				if err != nil {
					return err
				}
				if o != nil && o.ID != t.ID {
					return &Error{Code: CodeInvalid, Reason: "duplicate_term_slug",
						Message: fmt.Sprintf("The slug %q is already in use by another term.", sl),
						Params:  map[string]string{"slug": "slug is already in use"}}
				}
			}
			t.Slug = sl
		}
	} else if creating {
		t.Slug = termSlug(t.Name.Get(lang, lang), t.Taxonomy)
	}
	return nil
}

// termOf reads term id of the taxonomy; nil when there is none.
func (s *Service) termOf(ctx context.Context, tax Taxonomy, id int64) (*TermRecord, error) {
	if id <= 0 {
		return nil, nil
	}
	t, err := s.repo.GetTerm(ctx, id)
	return s.termFound(ctx, tax, t, err)
}

// termWithSlug reads the term of the taxonomy with this slug; nil when none.
func (s *Service) termWithSlug(ctx context.Context, tax Taxonomy, slug string) (*TermRecord, error) {
	t, err := s.repo.TermBySlug(ctx, tax, slug)
	return s.termFound(ctx, tax, t, err)
}

// termFound turns a term read into the term of the taxonomy, or nil.
func (s *Service) termFound(ctx context.Context, tax Taxonomy, t *TermRecord, err error) (*TermRecord, error) {
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, s.storageErr(ctx, "get term", err)
	}
	if t.Taxonomy != tax {
		return nil, nil
	}
	return t, nil
}

// maxTermDepth bounds the walk up a category tree: deeper is taken as a
// cycle, which the checks here never let a write make.
const maxTermDepth = 1000

// isDescendant reports whether term t lies below ancestor, walking up
// from t one read per level.
func (s *Service) isDescendant(ctx context.Context, t *TermRecord, ancestor int64) (bool, error) {
	for range maxTermDepth {
		switch t.Parent {
		case ancestor:
			return true, nil
		case 0:
			return false, nil
		}
		up, err := s.termOf(ctx, t.Taxonomy, t.Parent)
		if err != nil || up == nil {
			return false, err
		}
		t = up
	}
	return true, nil
}

// termExists turns the store's refusal of a name taken at that level into
// the wire's term_exists, naming the term that holds it.
func termExists(err error) error {
	var taken *NameTakenError
	if errors.As(err, &taken) {
		return &Error{Code: CodeInvalid, Reason: "term_exists", TermID: taken.ID,
			Message: "A term with the name provided already exists with this parent."}
	}
	return err
}

func findID(all []*TermRecord, id int64) *TermRecord {
	for _, t := range all {
		if t.ID == id {
			return t
		}
	}
	return nil
}

// CreateTerm creates a category or tag.
func (s *Service) CreateTerm(ctx context.Context, tax Taxonomy, in TermInput, opt WriteOptions) (*Term, error) {
	if err := s.checkTaxonomy(tax); err != nil {
		return nil, err
	}
	c := callerFrom(ctx)
	if !c.canManageTerms(tax.Kind()) {
		return nil, c.deny(fmt.Sprintf("Sorry, you are not allowed to create a %s.", tax.Kind()))
	}
	lang, err := s.lang(opt.Lang)
	if err != nil {
		return nil, err
	}
	t := &TermRecord{Taxonomy: tax, Lang: lang}
	var v Validation
	if err := s.applyTerm(ctx, &v, t, in, lang, true); err != nil {
		return nil, err
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if opt.ValidateOnly {
		return nil, nil
	}
	stored, err := s.repo.CreateTerm(ctx, t)
	if err != nil {
		return nil, s.storageErr(ctx, "create term", termExists(err))
	}
	tv, err := s.newRender(ctx, c, lang, s.now()).term(stored)
	return &tv, err
}

// UpdateTerm changes the fields that are set in in.
func (s *Service) UpdateTerm(ctx context.Context, tax Taxonomy, id int64, in TermInput, opt WriteOptions) (*Term, error) {
	return s.writeTerm(ctx, tax, id, opt.Lang, opt.IfVersion, "edit",
		func(c caller, lang Lang, cur *TermRecord) (*TermRecord, error) {
			next := cur.Clone()
			var v Validation
			if err := s.applyTerm(ctx, &v, next, in, lang, false); err != nil {
				return nil, err
			}
			if err := v.Err(); err != nil {
				return nil, err
			}
			if opt.ValidateOnly {
				return nil, errValidated
			}
			stored, err := s.repo.UpdateTerm(ctx, next)
			return stored, termExists(err)
		})
}

// DeleteTerm removes a category or tag for good: it is unlinked from every
// event and its child categories move up to its parent. It returns the term
// as it was.
func (s *Service) DeleteTerm(ctx context.Context, tax Taxonomy, id int64, opt DeleteOptions) (*Term, error) {
	return s.writeTerm(ctx, tax, id, opt.Lang, opt.IfVersion, "delete",
		func(c caller, lang Lang, cur *TermRecord) (*TermRecord, error) {
			err := s.repo.DeleteTerm(ctx, cur.ID, cur.Version)
			if err == nil {
				s.counts.forget(cur.ID)
			}
			return cur, err
		})
}

// writeTerm runs the checks and the read-modify-write loop shared by term
// updates and deletes. write returns the record to show, or an error; a
// storage conflict makes the loop re-read unless the caller pinned a version.
func (s *Service) writeTerm(ctx context.Context, tax Taxonomy, id int64, l Lang, ifVersion int64, verb string,
	write func(c caller, lang Lang, cur *TermRecord) (*TermRecord, error)) (*Term, error) {
	if err := s.checkTaxonomy(tax); err != nil {
		return nil, err
	}
	c := callerFrom(ctx)
	if !c.canManageTerms(tax.Kind()) {
		return nil, c.deny(fmt.Sprintf("Sorry, you are not allowed to %s this %s.", verb, tax.Kind()))
	}
	lang, err := s.lang(l)
	if err != nil {
		return nil, err
	}
	retry := newRetrier()
	for {
		cur, err := s.findTerm(ctx, tax, id)
		if err != nil {
			return nil, err
		}
		if ifVersion != 0 && cur.Version != ifVersion {
			return nil, preconditionFailed(cur.Version)
		}
		r := s.newRender(ctx, c, lang, s.now())
		if verb == "delete" {
			// Count before the delete unlinks it.
			if _, err := r.termCount(cur); err != nil {
				return nil, err
			}
		}
		shown, err := write(c, lang, cur)
		if errors.Is(err, errValidated) {
			return nil, nil
		}
		var ce *Error
		if errors.As(err, &ce) && ce.Reason != "" {
			return nil, err
		}
		if err != nil {
			if errors.Is(err, ErrConflict) && ifVersion != 0 {
				return nil, preconditionFailed(cur.Version)
			}
			// Another writer won, or the term went away: look again (a
			// vanished term then gets the not-found answer).
			again, err := retry.after(ctx, err, ifVersion)
			if again {
				continue
			}
			return nil, s.storageErr(ctx, verb+" term", err)
		}
		tv, err := r.term(shown)
		return &tv, err
	}
}

// ListTerms returns one page of categories or tags. Term sets are small, so
// filtering, counting and sorting happen here over the whole taxonomy.
func (s *Service) ListTerms(ctx context.Context, tax Taxonomy, q TermQuery) (*TermPage, error) {
	if err := s.checkTaxonomy(tax); err != nil {
		return nil, err
	}
	c := callerFrom(ctx)
	lang, err := s.lang(q.Lang)
	if err != nil {
		return nil, err
	}
	var v Validation
	page, perPage, offset := s.paging(&v, q.Page, q.PerPage)
	order := strings.ToLower(strings.TrimSpace(q.Order))
	if order != "" && order != "asc" && order != "desc" {
		v.Add("order", "order must be asc or desc")
	}
	orderBy := strings.ToLower(strings.TrimSpace(q.OrderBy))
	switch orderBy {
	case "", "name", "id", "slug", "count", "parent", "description", "include", "none", "term_id":
	default:
		v.Add("orderby", "orderby must be one of name, id, slug, count, parent, description, include, none")
	}
	if q.Parent != nil && !tax.Hierarchical() {
		return nil, &Error{Code: CodeInvalid, Reason: "rest_taxonomy_not_hierarchical",
			Message: "Can not filter tags by parent.", Params: map[string]string{"parent": "tags have no parent"}}
	}
	if s.listTooLong(&v, map[string]int{"include": len(splitList(q.Include)), "exclude": len(splitList(q.Exclude))}) {
		return nil, v.Err()
	}
	all, err := s.repo.ListTerms(ctx, tax)
	if err != nil {
		return nil, s.storageErr(ctx, "list terms", err)
	}
	resolve := func(arg string, vals []string) []int64 {
		var ids []int64
		for _, item := range splitList(vals) {
			var t *TermRecord
			if id, err := strconv.ParseInt(item, 10, 64); err == nil {
				t = findID(all, id)
			} else {
				sl := NormalizeSlug(item)
				for _, o := range all {
					if o.Slug == sl {
						t = o
					}
				}
			}
			if t == nil {
				v.Add(arg, fmt.Sprintf("%q is not a valid %s id or slug", item, tax.Kind()))
				continue
			}
			ids = append(ids, t.ID)
		}
		return uniqueIDs(ids)
	}
	include, exclude := resolve("include", q.Include), resolve("exclude", q.Exclude)
	if q.Parent != nil && *q.Parent != 0 && (*q.Parent < 0 || findID(all, *q.Parent) == nil) {
		v.Add("parent", fmt.Sprintf("%d is not a valid category id", *q.Parent))
	}
	post := q.Post
	if q.Event != 0 {
		post = q.Event
	}
	var linked []int64
	if post < 0 {
		v.Add("event", "event must be a positive event id")
	} else if post > 0 {
		evs, err := s.postsOfKind(ctx, &v, "event", KindEvent, []int64{post})
		if err != nil {
			return nil, err
		}
		if len(evs) == 1 {
			ev := evs[0]
			if !c.canRead(ev, ev.EffectiveStatus(s.now())) || isProtected(c, ev, s.now()) {
				linked = []int64{}
			} else {
				linked = append([]int64{}, ev.Links(tax.Kind())...)
			}
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	hideEmpty := q.HideEmpty == nil || *q.HideEmpty
	words := searchWords(q.Search)
	slug := ""
	if q.Slug != "" {
		slug = NormalizeSlug(q.Slug)
	}
	r := s.newRender(ctx, c, lang, s.now())
	var shown []*TermRecord
	for _, t := range all {
		switch {
		case len(include) > 0 && !containsInt(include, t.ID),
			containsInt(exclude, t.ID),
			q.Parent != nil && t.Parent != *q.Parent,
			linked != nil && !containsInt(linked, t.ID),
			slug != "" && t.Slug != slug:
			continue
		}
		shown = append(shown, t)
	}
	if err := r.countTerms(shown); err != nil {
		return nil, err
	}
	var views []Term
	for _, t := range shown {
		tv, err := r.term(t)
		if err != nil {
			return nil, err
		}
		if hideEmpty && tv.Count == 0 {
			continue
		}
		if len(words) > 0 && !termMatches(tv, words) {
			continue
		}
		views = append(views, tv)
	}
	sortTerms(views, orderBy, order == "desc", include)
	out := &TermPage{Terms: window(views, offset, perPage), Total: len(views), Page: page, PerPage: perPage}
	if out.Terms == nil {
		out.Terms = []Term{}
	}
	out.TotalPages = totalPages(out.Total, perPage)
	return out, nil
}

func containsInt(ids []int64, id int64) bool {
	for _, v := range ids {
		if v == id {
			return true
		}
	}
	return false
}

// termMatches: every word appears in the name or the slug.
func termMatches(t Term, words []string) bool {
	name, slug := FoldSearch(t.Name), FoldSearch(t.Slug)
	for _, w := range words {
		if !strings.Contains(name, w) && !strings.Contains(slug, w) {
			return false
		}
	}
	return true
}

// sortTerms orders terms by orderby; ties fall back to id so the order is total.
func sortTerms(ts []Term, orderBy string, desc bool, include []int64) {
	pos := map[int64]int{}
	for i, id := range include {
		pos[id] = i
	}
	cmp := func(a, b Term) int {
		switch orderBy {
		case "id", "term_id", "none":
			return 0
		case "slug":
			return strings.Compare(a.Slug, b.Slug)
		case "count":
			return a.Count - b.Count
		case "parent":
			return int(a.Parent - b.Parent)
		case "description":
			return strings.Compare(strings.ToLower(a.Description), strings.ToLower(b.Description))
		case "include":
			return pos[a.ID] - pos[b.ID]
		}
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	}
	sort.SliceStable(ts, func(i, j int) bool {
		c := cmp(ts[i], ts[j])
		if c == 0 {
			c = int(ts[i].ID - ts[j].ID)
		}
		if desc {
			return c > 0
		}
		return c < 0
	})
}
