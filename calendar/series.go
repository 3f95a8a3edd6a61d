package calendar

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// seriesLines is what Event.Recurrence shows: the lines of a series, nil otherwise.
func seriesLines(e *PostRecord) []string {
	if len(e.Recurrence) == 0 {
		return nil
	}
	return slices.Clone(e.Recurrence)
}

// seriesLink is what Event.Series shows: set on an occurrence only.
func seriesLink(e *PostRecord, loc *time.Location) *SeriesLink {
	if e.PostParent == 0 || e.RecurrenceID.IsZero() {
		return nil
	}
	return &SeriesLink{ID: e.PostParent, RecurrenceID: e.RecurrenceID.In(loc), Detached: e.Detached}
}

// isSeries reports whether rec is the template of a recurring event.
func isSeries(rec *PostRecord) bool { return rec.Kind == KindEvent && len(rec.Recurrence) > 0 }

// horizon is the last instant occurrences are materialised up to.
func (s *Service) horizon(now time.Time) time.Time { return now.AddDate(0, s.horizonMonths, 0) }

// seriesRecurrence parses the stored or sent lines of series rec.
func (s *Service) seriesRecurrence(rec *PostRecord, lines []string) (*Recurrence, error) {
	return ParseRecurrence(lines, rec.Start, s.eventZone(rec.TimeZone), s.maxOccurrences)
}

// checkRecurrence validates in.Recurrence for rec (its start and zone already
// applied) into v; it returns the starts to materialise (nil for an empty
// list: no series).
func (s *Service) checkRecurrence(v *Validation, rec *PostRecord, lines []string, now time.Time) []time.Time {
	if len(lines) == 0 || v.Has("start_date") || v.Has("end_date") || v.Has("timezone") {
		return nil
	}
	r, err := s.seriesRecurrence(rec, lines)
	if err != nil {
		v.Add("recurrence", "recurrence: "+err.Error())
		return nil
	}
	starts, more := r.Occurrences(s.seriesBound(r, now), s.maxOccurrences)
	if more {
		v.Add("recurrence", fmt.Sprintf("recurrence makes more than %d occurrences within the horizon", s.maxOccurrences))
		return nil
	}
	rec.Recurrence = r.Lines()
	return starts
}

// seriesBound is how far a series is materialised: the horizon for an
// open-ended rule, the whole set for a bounded one.
func (s *Service) seriesBound(r *Recurrence, now time.Time) time.Time {
	if r.Bounded() {
		return time.Time{}
	}
	return s.horizon(now)
}

// occurrenceOf returns the occurrence of series at start, not yet stored:
// every field, link, status, password and author of the series, its own
// start, end, slug and recurrence id.
func occurrenceOf(series *PostRecord, parent int64, start time.Time, loc *time.Location) *PostRecord {
	o := series.Clone()
	o.ID, o.Version, o.UID = 0, 0, ""
	o.Recurrence = nil
	o.PostParent = parent
	o.RecurrenceID = start.UTC()
	o.Detached = false
	o.Start = start.UTC()
	o.End = start.Add(series.End.Sub(series.Start)).UTC()
	o.Slug = truncateUTF8(series.Slug, MaxSlugLen-11) + "-" + start.In(loc).Format("2006-01-02")
	return o
}

// occurrenceSteps creates an occurrence for each start.
func (s *Service) occurrenceSteps(series *PostRecord, parent int64, starts []time.Time) []Step {
	loc := s.eventZone(series.TimeZone)
	steps := make([]Step, 0, len(starts))
	for _, t := range starts {
		steps = append(steps, Step{Op: OpCreatePost, Post: occurrenceOf(series, parent, t, loc)})
	}
	return steps
}

// occurrences returns every occurrence of series id (trashed ones too), by start.
func (s *Service) occurrences(ctx context.Context, id int64) ([]*PostRecord, error) {
	page, err := s.repo.ListPosts(ctx, &PostQuery{Kind: KindEvent, PostParent: id})
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(page.Records, func(p *PostRecord) bool { return p.RecurrenceID.IsZero() }), nil
}

// deleteSeries trashes a series and every occurrence, or removes them all
// for good with force, in one write.
func (s *Service) deleteSeries(ctx context.Context, cur *PostRecord, opt DeleteOptions) (*PostRecord, error) {
	occ, err := s.occurrences(ctx, cur.ID)
	if err != nil {
		return nil, s.storageErr(ctx, "list occurrences", err)
	}
	now := s.now().UTC().Truncate(time.Second)
	var steps []Step
	if opt.Force {
		for _, o := range occ {
			steps = append(steps, Step{Op: OpDeletePost, ID: o.ID, Version: o.Version})
		}
		steps = append(steps, Step{Op: OpDeletePost, ID: cur.ID, Version: cur.Version})
	} else {
		if cur.Status == StatusTrash {
			return nil, newError(CodeGone, codesOf(KindEvent).inTrash, "The event is already in the trash.")
		}
		for _, o := range append(occ, cur) {
			if o.Status == StatusTrash {
				continue
			}
			n := o.Clone()
			n.Status, n.Modified = StatusTrash, now
			steps = append(steps, Step{Op: OpUpdatePost, Post: n})
		}
	}
	if _, err := s.repo.Apply(ctx, &Write{Steps: steps}); err != nil {
		return nil, err
	}
	for _, o := range occ {
		s.counts.eventWritten(o, nil, now)
	}
	s.counts.eventWritten(cur, nil, now)
	if opt.Force {
		return cur, nil
	}
	trashed := cur.Clone()
	trashed.Status, trashed.Modified, trashed.Version = StatusTrash, now, cur.Version+1
	return trashed, nil
}

// deleteOccurrence trashes (or with force removes) one occurrence and adds
// its recurrence id to the series' EXDATE, in one write, so that
// recomputing the series never brings it back.
func (s *Service) deleteOccurrence(ctx context.Context, cur *PostRecord, opt DeleteOptions) (*PostRecord, error) {
	series, err := s.repo.GetPost(ctx, cur.PostParent)
	if err != nil {
		return nil, err
	}
	now := s.now().UTC().Truncate(time.Second)
	sn := series.Clone()
	sn.Recurrence = withExdate(series.Recurrence, cur.RecurrenceID)
	steps := []Step{{Op: OpUpdatePost, Post: sn}}
	out := cur.Clone()
	if opt.Force {
		steps = append(steps, Step{Op: OpDeletePost, ID: cur.ID, Version: cur.Version})
	} else {
		if cur.Status == StatusTrash {
			return nil, newError(CodeGone, codesOf(KindEvent).inTrash, "The event is already in the trash.")
		}
		out.Status, out.Modified = StatusTrash, now
		steps = append(steps, Step{Op: OpUpdatePost, Post: out})
		out = out.Clone()
		out.Version++
	}
	if _, err := s.repo.Apply(ctx, &Write{Steps: steps}); err != nil {
		return nil, err
	}
	s.counts.eventWritten(cur, nil, now)
	return out, nil
}

// deleteSeriesOrOccurrence deletes ref when it is a series or an
// occurrence (handled true), with the permission and version checks of any
// delete, retrying after a concurrent write like other writes.
func (s *Service) deleteSeriesOrOccurrence(ctx context.Context, ref Ref, opt DeleteOptions) (*PostRecord, bool, error) {
	c := callerFrom(ctx)
	if !c.canCreatePosts() {
		return nil, false, nil // refused before any read, like every delete
	}
	retry := newRetrier()
	for {
		cur, err := s.findPost(ctx, KindEvent, ref)
		if err != nil {
			return nil, false, err
		}
		occurrence := cur.PostParent != 0 && !cur.RecurrenceID.IsZero()
		if !isSeries(cur) && !occurrence {
			return nil, false, nil
		}
		if !c.canCreatePosts() || !c.canEdit(cur, cur.EffectiveStatus(s.now())) {
			return nil, true, c.deny("Sorry, you are not allowed to delete this event.")
		}
		if opt.Force && !c.canForceDelete() {
			return nil, true, c.deny("Sorry, you are not allowed to delete this event permanently.")
		}
		if opt.IfVersion != 0 && cur.Version != opt.IfVersion {
			return nil, true, preconditionFailed(cur.Version)
		}
		ref = ByID(cur.ID)
		var out *PostRecord
		if occurrence {
			out, err = s.deleteOccurrence(ctx, cur, opt)
		} else {
			out, err = s.deleteSeries(ctx, cur, opt)
		}
		if err == nil {
			return out, true, nil
		}
		var ce *Error
		if errors.As(err, &ce) {
			return nil, true, err
		}
		if errors.Is(err, ErrConflict) && opt.IfVersion != 0 {
			return nil, true, preconditionFailed(cur.Version)
		}
		again, err := retry.after(ctx, err, opt.IfVersion)
		if again {
			continue
		}
		return nil, true, s.storageErr(ctx, "delete series", err)
	}
}

// ExtendSeries materialises the occurrences of open-ended series that
// entered the horizon since they were last extended. Each series is one
// write that also updates the series record with a version check, so two
// extenders running at once conflict on it and the loser reads again and
// finds nothing left to create.
func (s *Service) ExtendSeries(ctx context.Context) (int, error) {
	if c := callerFrom(ctx); !c.system {
		return 0, c.deny("Sorry, only the system may extend series.")
	}
	created := 0
	for offset := 0; ; offset += 200 {
		page, err := s.repo.ListPosts(ctx, &PostQuery{Kind: KindEvent, Offset: offset, Limit: 200})
		if err != nil {
			return created, s.storageErr(ctx, "extend series", err)
		}
		for _, p := range page.Records {
			if !isSeries(p) || p.Status == StatusTrash {
				continue
			}
			n, err := s.extendOne(ctx, p.ID)
			created += n
			if err != nil {
				return created, err
			}
		}
		if offset+200 >= page.Total {
			return created, nil
		}
	}
}

func (s *Service) extendOne(ctx context.Context, id int64) (int, error) {
	retry := newRetrier()
	for {
		series, err := s.repo.GetPost(ctx, id)
		if errors.Is(err, ErrNotFound) {
			return 0, nil
		}
		if err != nil {
			return 0, s.storageErr(ctx, "extend series", err)
		}
		if !isSeries(series) || series.Status == StatusTrash {
			return 0, nil
		}
		r, err := s.seriesRecurrence(series, series.Recurrence)
		if err != nil || r.Bounded() {
			return 0, nil // bounded series are whole from the start
		}
		occ, err := s.occurrences(ctx, id)
		if err != nil {
			return 0, s.storageErr(ctx, "extend series", err)
		}
		var last time.Time
		for _, o := range occ {
			if o.RecurrenceID.After(last) {
				last = o.RecurrenceID
			}
		}
		starts, _ := r.Occurrences(s.horizon(s.now()), s.maxOccurrences+len(occ))
		starts = slices.DeleteFunc(starts, func(t time.Time) bool { return !t.After(last) })
		if room := s.maxOccurrences - len(occ); len(starts) > room {
			starts = starts[:max(room, 0)]
		}
		if len(starts) == 0 {
			return 0, nil
		}
		// Rewriting the series (same content) checks its version: a
		// concurrent extender's write makes this one conflict.
		steps := append([]Step{{Op: OpUpdatePost, Post: series.Clone()}}, s.occurrenceSteps(series, id, starts)...)
		if _, err := s.repo.Apply(ctx, &Write{Steps: steps}); err != nil {
			again, err := retry.after(ctx, err, 0)
			if again {
				continue
			}
			return 0, s.storageErr(ctx, "extend series", err)
		}
		return len(starts), nil
	}
}

// seriesUpdateSteps is the part of an update of series rec (old: as stored)
// that reaches its occurrences: the set is recomputed (a kept recurrence id
// keeps its occurrence's id and slug, a missing one is removed for good, a
// new one is created) and every occurrence that is not detached takes the
// series' fields. Trashed occurrences that an EXDATE excludes stay as they
// are. An empty recurrence makes rec a single event and removes its
// occurrences. The steps run before the series' own update, in one write.
func (s *Service) seriesUpdateSteps(ctx context.Context, v *Validation, old, rec *PostRecord, in EventInput, now time.Time) ([]Step, error) {
	lines := old.Recurrence
	if in.Recurrence.Set {
		lines = in.Recurrence.Value
	}
	if len(old.Recurrence) == 0 && len(lines) == 0 {
		return nil, nil
	}
	if old.PostParent != 0 && !old.RecurrenceID.IsZero() && len(lines) > 0 {
		v.Add("recurrence", "recurrence can only be set on the series, not on one of its occurrences")
		return nil, nil
	}
	var occ []*PostRecord
	if old.ID != 0 && len(old.Recurrence) > 0 {
		var err error
		if occ, err = s.occurrences(ctx, old.ID); err != nil {
			return nil, err
		}
	}
	var steps []Step
	if len(lines) == 0 {
		rec.Recurrence = nil
		for _, o := range occ {
			steps = append(steps, Step{Op: OpDeletePost, ID: o.ID, Version: o.Version})
		}
		return steps, nil
	}
	starts := s.checkRecurrence(v, rec, lines, now)
	if v.Err() != nil {
		return nil, nil
	}
	want := map[int64]time.Time{}
	for _, t := range starts {
		want[t.Unix()] = t
	}
	loc := s.eventZone(rec.TimeZone)
	restoring := old.Status == StatusTrash && rec.Status != StatusTrash
	for _, o := range occ {
		rid := o.RecurrenceID.Unix()
		if _, ok := want[rid]; !ok {
			if o.Status != StatusTrash {
				steps = append(steps, Step{Op: OpDeletePost, ID: o.ID, Version: o.Version})
			}
			continue
		}
		delete(want, rid)
		n := o.Clone()
		if !o.Detached {
			n = occurrenceOf(rec, rec.ID, o.RecurrenceID, loc)
			n.ID, n.Version, n.Slug, n.Date = o.ID, o.Version, o.Slug, o.Date
		} else if restoring && o.Status == StatusTrash || rec.Status == StatusTrash {
			n.Status = rec.Status
		}
		n.Modified = now.UTC().Truncate(time.Second)
		steps = append(steps, Step{Op: OpUpdatePost, Post: n})
	}
	var fresh []time.Time
	for _, t := range starts {
		if _, ok := want[t.Unix()]; ok {
			fresh = append(fresh, t)
		}
	}
	return append(steps, s.occurrenceSteps(rec, rec.ID, fresh)...), nil
}
