package calendar

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// linkPlan holds the links an event write asks for, resolved and validated
// but not yet written: records to create by name become steps of the same
// atomic write as the event, so a refused or failed write changes nothing.
type linkPlan struct {
	sent  map[Kind]bool
	items map[Kind][]linkItem
}

type linkItem struct {
	id   int64
	step *Step // set: link the record this step ensures
}

// planEventLinks validates categories, tags, venue and organizer of an event write.
func (s *Service) planEventLinks(ctx context.Context, c caller, v *Validation, in EventInput, lang Lang) (*linkPlan, error) {
	plan := &linkPlan{sent: map[Kind]bool{}, items: map[Kind][]linkItem{}}
	over := false
	for _, n := range []struct {
		arg string
		set bool
		len int
	}{{"categories", in.Categories.Set, len(in.Categories.Value)}, {"tags", in.Tags.Set, len(in.Tags.Value)},
		{"venue", in.Venues.Set, len(in.Venues.Value)}, {"organizer", in.Organizers.Set, len(in.Organizers.Value)}} {
		over = n.set && s.tooMany(v, n.arg, n.len) || over
	}
	if over {
		return plan, nil // bounded work: nothing of an oversized write is looked up
	}
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
	if in.Venues.Set {
		plan.sent[KindVenue] = true
		for _, ref := range in.Venues.Value {
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
	if in.Organizers.Set {
		plan.sent[KindOrganizer] = true
		for _, ref := range in.Organizers.Value {
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

// planTerms resolves category or tag references: ids, slugs or names. Each
// costs a bounded number of indexed look-ups whatever the store holds.
func (s *Service) planTerms(ctx context.Context, c caller, v *Validation, plan *linkPlan, arg string, tax Taxonomy, refs []TermRef, lang Lang) error {
	kind := tax.Kind()
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
		t, err := s.termByName(ctx, tax, name)
		if err != nil {
			return err
		}
		if t != nil {
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
		// The store links the term of that name if a concurrent writer
		// made it meanwhile, else creates it, atomically with the event.
		plan.items[kind] = append(plan.items[kind], linkItem{step: &Step{Op: OpEnsureTerm,
			Term: &TermRecord{Taxonomy: tax, Lang: lang, Name: Text{lang: name}, Slug: termSlug(name, tax)}}})
	}
	return nil
}

// termByName finds the term a name refers to: the one with that exact slug,
// else the lowest-id one with that name at any level; nil when none.
func (s *Service) termByName(ctx context.Context, tax Taxonomy, name string) (*TermRecord, error) {
	if sl := NormalizeSlug(name); sl != "" {
		t, err := s.repo.TermBySlug(ctx, tax, sl)
		if err == nil {
			return t, nil
		}
		if !errors.Is(err, ErrNotFound) {
			return nil, s.storageErr(ctx, "get term by slug", err)
		}
	}
	terms, err := s.repo.TermsByName(ctx, tax, name)
	if err != nil {
		return nil, s.storageErr(ctx, "find term by name", err)
	}
	if len(terms) == 0 {
		return nil, nil
	}
	return terms[0], nil
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
	step := s.ensureStep(c, rec, now)
	plan.items[kind] = append(plan.items[kind], linkItem{step: &step})
	return nil
}

// steps writes the plan's links into rec and returns the steps that ensure
// the records named by value, to be written before rec in one Write: rec
// refers to them by StepRef.
func (p *linkPlan) steps(rec *PostRecord) []Step {
	var steps []Step
	byName := map[string]int64{} // one step per kind and name: "tags": ["x", "X"] links one tag
	for _, kind := range []Kind{KindVenue, KindOrganizer, KindCategory, KindTag} {
		if !p.sent[kind] {
			continue
		}
		ids := make([]int64, 0, len(p.items[kind]))
		for _, it := range p.items[kind] {
			if it.step != nil {
				st := *it.step
				key := kind.String() + "\x00" + stepNameKey(st)
				if ref, dup := byName[key]; dup {
					ids = append(ids, ref)
					continue
				}
				// Each attempt of a retried write gets its own copy of
				// the record: the store must not see one changed by an
				// attempt before.
				if st.Post != nil {
					st.Post = st.Post.Clone()
				}
				if st.Term != nil {
					st.Term = st.Term.Clone()
				}
				steps = append(steps, st)
				byName[key] = StepRef(len(steps) - 1)
				ids = append(ids, StepRef(len(steps)-1))
				continue
			}
			ids = append(ids, it.id)
		}
		rec.SetLinks(kind, uniqueIDs(ids))
	}
	return steps
}

// stepNameKey is the name an ensure step looks up.
func stepNameKey(st Step) string {
	if st.Post != nil {
		return NameKey(st.Post.Title.Get(st.Post.Lang, st.Post.Lang))
	}
	return NameKey(st.Term.Name.Get(st.Term.Lang, st.Term.Lang))
}
