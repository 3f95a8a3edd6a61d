package calendar

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// linkPlan holds the links an event write asks for, resolved and validated
// but not yet written: records to create by name are created only once the
// whole write is known to be valid, so a bad request changes nothing.
type linkPlan struct {
	sent  map[Kind]bool
	items map[Kind][]linkItem
}

type linkItem struct {
	id     int64
	create func(ctx context.Context) (int64, error)
}

// planEventLinks validates categories, tags, venue and organizer of an event write.
func (s *Service) planEventLinks(ctx context.Context, c caller, v *Validation, in EventInput, lang Lang) (*linkPlan, error) {
	plan := &linkPlan{sent: map[Kind]bool{}, items: map[Kind][]linkItem{}}
	if in.Categories.Set {
		plan.sent[KindCategory] = true
		if err := s.planTerms(ctx, c, v, plan, "categories", TaxonomyCategory, in.Categories.Value, lang); err != nil {
			return nil, err
		}
	}
	if in.Tags.Set {
		plan.sent[KindTag] = true
		if err := s.planTerms(ctx, c, v, plan, "tags", TaxonomyTag, in.Tags.Value, lang); err != nil {
			return nil, err
		}
	}
	if in.Venue.Set {
		plan.sent[KindVenue] = true
		for _, ref := range in.Venue.Value {
			var nested commonInput
			var apply func(*PostRecord, *Validation) error
			if ref.New != nil {
				vin := *ref.New
				nested = venueCommon(vin)
				apply = func(rec *PostRecord, nv *Validation) error { applyVenueFields(nv, rec, vin); return nil }
			}
			if err := s.planPost(ctx, c, v, plan, "venue", KindVenue, ref.ID, nested, apply, lang); err != nil {
				return nil, err
			}
		}
	}
	if in.Organizer.Set {
		plan.sent[KindOrganizer] = true
		for _, ref := range in.Organizer.Value {
			var nested commonInput
			var apply func(*PostRecord, *Validation) error
			if ref.New != nil {
				oin := *ref.New
				nested = organizerCommon(oin)
				apply = func(rec *PostRecord, nv *Validation) error { applyOrganizerFields(nv, rec, oin); return nil }
			}
			if err := s.planPost(ctx, c, v, plan, "organizer", KindOrganizer, ref.ID, nested, apply, lang); err != nil {
				return nil, err
			}
		}
	}
	return plan, nil
}

// planTerms resolves category or tag references: ids, slugs or names.
func (s *Service) planTerms(ctx context.Context, c caller, v *Validation, plan *linkPlan, arg string, tax Taxonomy, refs []TermRef, lang Lang) error {
	kind := tax.Kind()
	var all []*TermRecord
	for _, ref := range refs {
		if ref.ID != 0 {
			t, err := s.repo.GetTerm(ctx, ref.ID)
			if err != nil && !errors.Is(err, ErrNotFound) {
				return s.storageErr(ctx, "get term", err)
			}
			if ref.ID < 0 || t == nil || t.Taxonomy != tax {
				v.Add(arg, fmt.Sprintf("%d is not a valid %s id", ref.ID, kind))
				continue
			}
			plan.items[kind] = append(plan.items[kind], linkItem{id: t.ID})
			continue
		}
		name := strings.TrimSpace(ref.Name)
		if name == "" {
			v.Add(arg, fmt.Sprintf("%s must not hold an empty name", arg))
			continue
		}
		if all == nil {
			var err error
			if all, err = s.repo.ListTerms(ctx, tax); err != nil {
				return s.storageErr(ctx, "list terms", err)
			}
		}
		if t := findTermByName(all, name); t != nil {
			plan.items[kind] = append(plan.items[kind], linkItem{id: t.ID})
			continue
		}
		if !c.canManageTerms(kind) {
			v.Add(arg, fmt.Sprintf("unknown %s %q (you may not create one)", kind, name))
			continue
		}
		if checkName(v, arg, name); v.Has(arg) {
			continue
		}
		plan.items[kind] = append(plan.items[kind], linkItem{create: func(ctx context.Context) (int64, error) {
			// Look again: an earlier item of the same write, or a concurrent
			// writer, may have created it.
			s.byName.Lock()
			defer s.byName.Unlock()
			terms, err := s.repo.ListTerms(ctx, tax)
			if err != nil {
				return 0, s.storageErr(ctx, "list terms", err)
			}
			if t := findTermByName(terms, name); t != nil {
				return t.ID, nil
			}
			t, err := s.repo.CreateTerm(ctx, &TermRecord{Taxonomy: tax, Lang: lang, Name: Text{lang: name}, Slug: termSlug(name, tax)})
			if err != nil {
				return 0, s.storageErr(ctx, "create term", err)
			}
			return t.ID, nil
		}})
	}
	return nil
}

// findTermByName matches a slug exactly or a name case-insensitively in any language.
func findTermByName(all []*TermRecord, name string) *TermRecord {
	slug := NormalizeSlug(name)
	for _, t := range all {
		if t.Slug == slug {
			return t
		}
	}
	for _, t := range all {
		for _, n := range t.Name {
			if strings.EqualFold(strings.TrimSpace(n), name) {
				return t
			}
		}
	}
	return nil
}

func termSlug(name string, tax Taxonomy) string {
	if sl := Slugify(name); sl != "" {
		return sl
	}
	return tax.Kind().String()
}

// planPost resolves a venue or organizer reference: an existing id, or
// fields that create one (or reuse the non-trashed one with that name).
func (s *Service) planPost(ctx context.Context, c caller, v *Validation, plan *linkPlan, arg string, kind Kind,
	id int64, nested commonInput, apply func(*PostRecord, *Validation) error, lang Lang) error {
	now := s.now()
	if apply == nil {
		if id <= 0 {
			v.Add(arg, fmt.Sprintf("%s must hold %s ids or %s objects", arg, kind, kind))
			return nil
		}
		p, err := s.repo.GetPost(ctx, id)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return s.storageErr(ctx, "get post", err)
		}
		if p == nil || p.Kind != kind || !c.canRead(p, p.EffectiveStatus(now)) {
			v.Add(arg, fmt.Sprintf("%d is not a valid %s id", id, kind))
			return nil
		}
		plan.items[kind] = append(plan.items[kind], linkItem{id: id})
		return nil
	}
	rec := &PostRecord{Kind: kind, Lang: lang, Author: s.authorOf(c)}
	var nv Validation
	if err := s.applyCommon(ctx, c, &nv, rec, nested, lang, s.siteZone, now, true); err != nil {
		return err
	}
	if err := apply(rec, &nv); err != nil {
		return err
	}
	if err := nv.Err(); err != nil {
		v.Add(arg, fmt.Sprintf("invalid %s: %s", kind, err.(*Error).Error()))
		return nil
	}
	name := rec.Title.Get(lang, lang)
	plan.items[kind] = append(plan.items[kind], linkItem{create: func(ctx context.Context) (int64, error) {
		s.byName.Lock()
		defer s.byName.Unlock()
		if existing, err := s.postByName(ctx, kind, name); err != nil || existing != nil {
			if existing != nil {
				return existing.ID, nil
			}
			return 0, err
		}
		stored, err := s.repo.CreatePost(ctx, rec)
		if err != nil {
			return 0, s.storageErr(ctx, "create post", err)
		}
		return stored.ID, nil
	}})
	return nil
}

// postByName finds the non-trashed venue or organizer with that name.
func (s *Service) postByName(ctx context.Context, kind Kind, name string) (*PostRecord, error) {
	page, err := s.repo.ListPosts(ctx, &PostQuery{Kind: kind, Now: s.now(), Name: name, Limit: 1,
		Visible: Visibility{Statuses: []Status{StatusPublish, StatusFuture, StatusDraft, StatusPending, StatusPrivate}}})
	if err != nil {
		return nil, s.storageErr(ctx, "find by name", err)
	}
	if len(page.Records) == 0 {
		return nil, nil
	}
	return page.Records[0], nil
}

// apply creates what the plan needs and writes the links into rec.
func (p *linkPlan) apply(ctx context.Context, rec *PostRecord) error {
	for _, kind := range []Kind{KindVenue, KindOrganizer, KindCategory, KindTag} {
		if !p.sent[kind] {
			continue
		}
		ids := make([]int64, 0, len(p.items[kind]))
		for i, it := range p.items[kind] {
			if it.create != nil {
				id, err := it.create(ctx)
				if err != nil {
					return err
				}
				// Remember: a retried write must not create it again.
				p.items[kind][i] = linkItem{id: id}
				it.id = id
			}
			ids = append(ids, it.id)
		}
		rec.SetLinks(kind, uniqueIDs(ids))
	}
	return nil
}
