package calendar

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"
)

func eventCommon(in EventInput) commonInput {
	return commonInput{nameArg: "title", Name: in.Title, Description: in.Description, Excerpt: in.Excerpt,
		Slug: in.Slug, Status: in.Status, Author: in.Author, Date: in.Date, DateUTC: in.DateUTC,
		Image: in.Image, Website: in.Website}
}

// applyEvent validates an event write into v and writes the valid fields into rec.
func (s *Service) applyEvent(ctx context.Context, c caller, v *Validation, rec *PostRecord, in EventInput,
	lang Lang, now time.Time, creating bool) error {
	if creating {
		if !in.StartDate.Set {
			v.Missing("start_date")
		}
		if !in.EndDate.Set {
			v.Missing("end_date")
		}
	}
	oldLoc := s.eventZone(rec.TimeZone)
	zone := rec.TimeZone
	if in.TimeZone.Set {
		name := strings.TrimSpace(in.TimeZone.Value)
		if name == "" {
			zone = ""
		} else if loc, err := ParseZone(name); err != nil {
			v.Add("timezone", "timezone must be an IANA zone name or an offset like UTC+2 or UTC-5:30")
		} else {
			zone = loc.String()
		}
	}
	loc := s.eventZone(zone)
	if err := s.applyCommon(ctx, c, v, rec, eventCommon(in), lang, loc, now, creating); err != nil {
		return err
	}

	start, end := rec.Start, rec.End
	if !creating && zone != rec.TimeZone {
		// A new zone keeps the wall-clock times the event had.
		start, end = sameWallClock(start, oldLoc, loc), sameWallClock(end, oldLoc, loc)
	}
	rec.TimeZone = zone
	parse := func(arg string, o Opt[string], dst *time.Time) {
		if !o.Set {
			return
		}
		if strings.TrimSpace(o.Value) == "" {
			v.Add(arg, arg+" must not be empty")
			return
		}
		t, err := ParseDate(o.Value, loc, now)
		if err != nil {
			v.Add(arg, err.Error())
			return
		}
		*dst = t
	}
	parse("start_date", in.StartDate, &start)
	parse("end_date", in.EndDate, &end)
	if in.AllDay.Set {
		rec.AllDay = in.AllDay.Value
	}
	if rec.AllDay && !start.IsZero() && !end.IsZero() {
		start, end = StartOfDay(start, loc), EndOfDay(end, loc)
	}
	if !v.Has("start_date") && !v.Has("end_date") && !start.IsZero() && end.Before(start) {
		v.Add("end_date", "end_date must not be before start_date")
	}
	rec.Start, rec.End = start.UTC().Truncate(time.Second), end.UTC().Truncate(time.Second)

	if in.Cost.Set && !s.tooMany(v, "cost", len(in.Cost.Value)) {
		rec.Cost = checkCost(v, in.Cost.Value)
	}
	setFlag(&rec.ShowMap, in.ShowMap)
	setFlag(&rec.ShowMapLink, in.ShowMapLink)
	for _, f := range []struct {
		o   Opt[bool]
		dst *bool
	}{{in.HideFromListings, &rec.HideFromListings}, {in.Sticky, &rec.Sticky}, {in.Featured, &rec.Featured}} {
		if f.o.Set {
			*f.dst = f.o.Value
		}
	}
	if in.Password.Set {
		if !utf8.ValidString(in.Password.Value) || len(in.Password.Value) > 255 {
			v.Add("password", "password must be valid UTF-8 of at most 255 bytes")
		} else {
			rec.Password = in.Password.Value
		}
	}
	if in.PostParent.Set {
		id := in.PostParent.Value
		switch {
		case id == 0:
			rec.PostParent = 0
		case id < 0 || id == rec.ID:
			v.Add("post_parent", "post_parent must be the id of another event")
		default:
			if parents, err := s.postsOfKind(ctx, v, "post_parent", KindEvent, []int64{id}); err != nil {
				return err
			} else if len(parents) == 1 {
				rec.PostParent = id
			}
		}
	}
	return nil
}

// sameWallClock re-reads the wall-clock time t had in from as a time in to.
func sameWallClock(t time.Time, from, to *time.Location) time.Time {
	if t.IsZero() {
		return t
	}
	w := t.In(from)
	return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), 0, to)
}

// CreateEvent creates an event, creating the venues, organizers and terms it
// names by value in the same atomic write.
func (s *Service) CreateEvent(ctx context.Context, in EventInput, opt WriteOptions) (*Event, error) {
	return s.createEvent(ctx, in, opt, "")
}

// createEvent creates an event carrying uid ("" for none; see EventUIDs).
func (s *Service) createEvent(ctx context.Context, in EventInput, opt WriteOptions, uid string) (*Event, error) {
	c := callerFrom(ctx)
	if !c.canCreatePosts() {
		return nil, c.deny("Sorry, you are not allowed to create events.")
	}
	lang, err := s.lang(opt.Lang)
	if err != nil {
		return nil, err
	}
	retry := newRetrier()
	for {
		now := s.now()
		var v Validation
		rec := &PostRecord{Kind: KindEvent, Lang: lang, Author: s.authorOf(c), UID: uid}
		plan, err := s.planEventLinks(ctx, c, &v, in, lang)
		if err != nil {
			return nil, err
		}
		if err := s.applyEvent(ctx, c, &v, rec, in, lang, now, true); err != nil {
			return nil, err
		}
		var starts []time.Time
		if in.Recurrence.Set {
			starts = s.checkRecurrence(&v, rec, in.Recurrence.Value, now)
		}
		if err := v.Err(); err != nil {
			return nil, err
		}
		if opt.ValidateOnly {
			return nil, nil
		}
		steps := append(plan.steps(rec), Step{Op: OpCreatePost, Post: rec})
		seriesStep := len(steps) - 1
		if len(starts) > 0 {
			// The series and its occurrences: one atomic write.
			steps = append(steps, s.occurrenceSteps(rec, StepRef(seriesStep), starts)...)
		}
		res, err := s.repo.Apply(ctx, &Write{Steps: steps})
		if err != nil {
			if errors.Is(err, ErrNotFound) {
				// A linked record went away since it was checked: plan
				// again, and validation names the argument.
				again, rerr := retry.after(ctx, err, 0)
				if again {
					continue
				}
				err = rerr
			}
			return nil, s.storageErr(ctx, "create event", err)
		}
		stored := res.Steps[seriesStep].Post
		s.counts.eventWritten(nil, stored, now)
		for _, r := range res.Steps[seriesStep+1:] {
			s.counts.eventWritten(nil, r.Post, now)
		}
		return s.newRender(ctx, c, lang, now).knowNewTerms(res, stored).event(stored, false)
	}
}

// UpdateEvent changes the fields that are set in in; the others stay.
func (s *Service) UpdateEvent(ctx context.Context, ref Ref, in EventInput, opt WriteOptions) (*Event, error) {
	lang, err := s.lang(opt.Lang)
	if err != nil {
		return nil, err
	}
	if in.Scope == ScopeFollowing {
		return s.splitSeries(ctx, ref, in, opt, lang)
	}
	stored, res, err := s.writePost(ctx, KindEvent, ref, opt.IfVersion, func(c caller, rec *PostRecord) ([]Step, error) {
		// Planned on every attempt: a retry after a concurrent write
		// sees the links as they are now.
		var v Validation
		plan, err := s.planEventLinks(ctx, c, &v, in, lang)
		if err != nil {
			return nil, err
		}
		old, now := rec.Clone(), s.now()
		if err := s.applyEvent(ctx, c, &v, rec, in, lang, now, false); err != nil {
			return nil, err
		}
		if old.PostParent != 0 && !old.RecurrenceID.IsZero() {
			// An occurrence edited on its own keeps its own fields from now on.
			switch in.Scope {
			case "", ScopeThis:
				rec.Detached = true
			default:
				v.Add("scope", "scope must be this or following")
			}
		}
		series, err := s.seriesUpdateSteps(ctx, &v, old, rec, in, now)
		if err != nil {
			return nil, err
		}
		if err := v.Err(); err != nil {
			return nil, err
		}
		if opt.ValidateOnly {
			return nil, errValidated
		}
		return append(plan.steps(rec), series...), nil
	})
	if err != nil {
		return nil, dropValidated(err)
	}
	return s.newRender(ctx, callerFrom(ctx), lang, s.now()).knowNewTerms(res, stored).event(stored, false)
}

// GetEvent reads one event by id or slug.
func (s *Service) GetEvent(ctx context.Context, ref Ref, opt ReadOptions) (*Event, error) {
	lang, err := s.lang(opt.Lang)
	if err != nil {
		return nil, err
	}
	rec, err := s.findPostIn(ctx, s.reads(), KindEvent, ref)
	if err != nil {
		return nil, err
	}
	c, now := callerFrom(ctx), s.now()
	if err := s.checkRead(c, rec, now, opt.Password); err != nil {
		return nil, err
	}
	return s.newRender(ctx, c, lang, now).event(rec, false)
}

// DeleteEvent moves an event to the trash, or removes it for good with opt.Force.
func (s *Service) DeleteEvent(ctx context.Context, ref Ref, opt DeleteOptions) (*Event, error) {
	lang, err := s.lang(opt.Lang)
	if err != nil {
		return nil, err
	}
	rec, handled, err := s.deleteSeriesOrOccurrence(ctx, ref, opt)
	if !handled && err == nil {
		rec, err = s.deletePost(ctx, KindEvent, ref, opt)
	}
	if err != nil {
		return nil, err
	}
	return s.newRender(ctx, callerFrom(ctx), lang, s.now()).event(rec, false)
}
