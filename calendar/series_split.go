package calendar

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"
)

// splitSeries updates occurrence ref with scope=following: the series ends
// before it (its rule gets an UNTIL, its later RDATEs move), and a new series
// starting at this occurrence takes the change and the remaining
// occurrences, which keep their ids and slugs (matched by their day in the
// zone). One write.
func (s *Service) splitSeries(ctx context.Context, ref Ref, in EventInput, opt WriteOptions, lang Lang) (*Event, error) {
	c := callerFrom(ctx)
	if !c.canCreatePosts() {
		return nil, c.deny("Sorry, you are not allowed to edit this event.")
	}
	retry := newRetrier()
	for {
		occ, err := s.findPost(ctx, KindEvent, ref)
		if err != nil {
			return nil, err
		}
		ref = ByID(occ.ID)
		now := s.now()
		if !c.canEdit(occ, occ.EffectiveStatus(now)) {
			return nil, c.deny("Sorry, you are not allowed to edit this event.")
		}
		if opt.IfVersion != 0 && occ.Version != opt.IfVersion {
			return nil, preconditionFailed(occ.Version)
		}
		var v Validation
		if occ.PostParent == 0 || occ.RecurrenceID.IsZero() {
			v.Add("scope", "scope=following applies to an occurrence of a series")
			return nil, v.Err()
		}
		if in.Recurrence.Set && len(in.Recurrence.Value) == 0 {
			v.Add("recurrence", "recurrence must not be empty when splitting a series")
			return nil, v.Err()
		}
		series, err := s.repo.GetPost(ctx, occ.PostParent)
		if err != nil {
			return nil, s.storageErr(ctx, "split series", err)
		}
		if !c.canEdit(series, series.EffectiveStatus(now)) {
			return nil, c.deny("Sorry, you are not allowed to edit this event.")
		}
		w, stored, err := s.planSplit(ctx, c, &v, series, occ, in, lang, now)
		if err != nil {
			return nil, err
		}
		if err := v.Err(); err != nil {
			return nil, err
		}
		if opt.ValidateOnly {
			return nil, nil
		}
		res, err := s.repo.Apply(ctx, w)
		if err != nil {
			if errors.Is(err, ErrConflict) && opt.IfVersion != 0 {
				return nil, preconditionFailed(occ.Version)
			}
			again, err := retry.after(ctx, err, opt.IfVersion)
			if again {
				continue
			}
			return nil, s.storageErr(ctx, "split series", err)
		}
		out := res.Steps[stored].Post
		for _, r := range res.Steps {
			if r.Post != nil {
				s.counts.eventWritten(nil, r.Post, now)
			}
		}
		return s.newRender(ctx, c, lang, now).event(out, false)
	}
}

// planSplit builds the write of a split and says which step stores the
// addressed occurrence.
func (s *Service) planSplit(ctx context.Context, c caller, v *Validation, series, occ *PostRecord, in EventInput,
	lang Lang, now time.Time) (*Write, int, error) {
	loc := s.eventZone(series.TimeZone)
	at := occ.RecurrenceID
	oldR, err := s.seriesRecurrence(series, series.Recurrence)
	if err != nil {
		return nil, 0, s.storageErr(ctx, "split series", err)
	}
	before, _ := oldR.Occurrences(at.Add(-time.Second), s.maxOccurrences)
	if len(before) == 0 {
		v.Add("scope", "scope=following on the first occurrence: edit the series instead")
		return nil, 0, nil
	}
	// COUNT counts the rule's instances, RDATEs not included and EXDATEs
	// not taken off (RFC 5545 §3.8.5.3), so the tail's COUNT is what is left
	// of those, not of the occurrences that exist.
	done := len(before)
	var ruleOnly []string
	for _, line := range series.Recurrence {
		if name, _, _ := splitLine(line); name == "RRULE" {
			ruleOnly = append(ruleOnly, line)
		}
	}
	if len(ruleOnly) > 0 {
		if rr, err := s.seriesRecurrence(series, ruleOnly); err == nil {
			instances, _ := rr.Occurrences(at.Add(-time.Second), s.maxOccurrences)
			done = len(instances)
		}
	}
	oldLines, newLines := splitLines(series.Recurrence, at, loc, done)

	head := series.Clone()
	head.Recurrence = oldLines
	head.Modified = now.UTC().Truncate(time.Second)

	tail := series.Clone()
	tail.ID, tail.Version, tail.UID = 0, 0, ""
	tail.Start, tail.End = at.UTC(), at.Add(series.End.Sub(series.Start)).UTC()
	if err := s.applyEvent(ctx, c, v, tail, in, lang, now, false); err != nil {
		return nil, 0, err
	}
	plan, err := s.planEventLinks(ctx, c, v, in, lang)
	if err != nil {
		return nil, 0, err
	}
	if in.Recurrence.Set {
		newLines = in.Recurrence.Value
	}
	starts := s.checkRecurrence(v, tail, newLines, now)
	if v.Err() != nil {
		return nil, 0, nil
	}
	steps := plan.steps(tail)
	steps = append(steps, Step{Op: OpUpdatePost, Post: head}, Step{Op: OpCreatePost, Post: tail})
	tailRef := StepRef(len(steps) - 1)
	tloc := s.eventZone(tail.TimeZone)

	byDay := map[civilDay]time.Time{}
	for _, t := range starts {
		byDay[dayOf(t.In(tloc))] = t
	}
	all, err := s.occurrences(ctx, series.ID)
	if err != nil {
		return nil, 0, s.storageErr(ctx, "split series", err)
	}
	stored := -1
	for _, o := range all {
		if o.RecurrenceID.Before(at) {
			continue
		}
		day := dayOf(o.RecurrenceID.In(loc))
		t, ok := byDay[day]
		if !ok {
			if o.Status == StatusTrash {
				n := o.Clone()
				n.PostParent = tailRef
				steps = append(steps, Step{Op: OpUpdatePost, Post: n})
			} else {
				steps = append(steps, Step{Op: OpDeletePost, ID: o.ID, Version: o.Version})
			}
			continue
		}
		delete(byDay, day)
		n := o.Clone()
		if !o.Detached || o.ID == occ.ID {
			n = occurrenceOf(tail, tailRef, t, tloc)
			n.ID, n.Version, n.Slug, n.Date = o.ID, o.Version, o.Slug, o.Date
		} else {
			n.PostParent, n.RecurrenceID = tailRef, t.UTC()
		}
		n.Modified = now.UTC().Truncate(time.Second)
		if o.ID == occ.ID {
			stored = len(steps)
		}
		steps = append(steps, Step{Op: OpUpdatePost, Post: n})
	}
	var fresh []time.Time
	for _, t := range starts {
		if _, ok := byDay[dayOf(t.In(tloc))]; ok {
			fresh = append(fresh, t)
		}
	}
	steps = append(steps, s.occurrenceSteps(tail, tailRef, fresh)...)
	if stored < 0 {
		// The change moved the addressed occurrence out of the new set:
		// show the new series.
		stored = int(-tailRef - 1)
	}
	return &Write{Steps: steps}, stored, nil
}

// splitLines divides the lines of a series at instant at: the first part
// ends before it (COUNT becomes UNTIL), the second starts there (COUNT less
// the done occurrences); RDATE values go to the part they fall in, EXDATE
// lines stay in both.
func splitLines(lines []string, at time.Time, loc *time.Location, done int) (head, tail []string) {
	count := 0
	for _, line := range lines {
		name, params, value := splitLine(line)
		switch name {
		case "RRULE":
			for _, p := range strings.Split(value, ";") {
				if k, v, _ := strings.Cut(p, "="); strings.EqualFold(k, "COUNT") {
					count, _ = strconv.Atoi(v)
				}
			}
			head = append(head, rewriteRule([]string{line}, func(p []rulePart) []rulePart {
				return setRulePart(setRulePart(p, "COUNT", ""), "UNTIL", icalUTC(at.Add(-time.Second)))
			})[0])
			tail = append(tail, rewriteRule([]string{line}, func(p []rulePart) []rulePart {
				if count > 0 {
					return setRulePart(p, "COUNT", strconv.Itoa(max(count-done, 1)))
				}
				return p
			})[0])
		case "RDATE":
			dates, err := parseDateList(name, params, value, at, loc)
			if err != nil {
				head, tail = append(head, line), append(tail, line)
				continue
			}
			var h, t []string
			for _, d := range dates {
				if d.at.Before(at) {
					h = append(h, icalUTC(d.at))
				} else {
					t = append(t, icalUTC(d.at))
				}
			}
			if len(h) > 0 {
				head = append(head, "RDATE:"+strings.Join(h, ","))
			}
			if len(t) > 0 {
				tail = append(tail, "RDATE:"+strings.Join(t, ","))
			}
		default:
			head, tail = append(head, line), append(tail, line)
		}
	}
	return head, tail
}

func splitLine(line string) (name string, params []string, value string) {
	h, value, _ := strings.Cut(strings.TrimSpace(line), ":")
	parts := strings.Split(h, ";")
	return strings.ToUpper(parts[0]), parts[1:], value
}
