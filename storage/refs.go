package storage

import (
	"fmt"

	"github.com/eventcal/eventcal/calendar"
)

// Placeholder ids (calendar.StepRef) are resolved the same way by every
// driver that applies a Write step by step, so the rule lives here.

// ResolvePostRefs replaces the placeholders in p's links (venues,
// organizers, categories, tags, parent) with the ids of the records the
// earlier steps done made. A placeholder of a later step, or of a step that
// made no record of that sort, is an error wrapping calendar.ErrInvalid.
func ResolvePostRefs(p *calendar.PostRecord, done []calendar.StepResult) error {
	for _, ref := range []struct {
		ids  []int64
		post bool
	}{{p.VenueIDs, true}, {p.OrganizerIDs, true}, {p.CategoryIDs, false}, {p.TagIDs, false}} {
		for i, id := range ref.ids {
			r, err := resolveRef(id, done, ref.post)
			if err != nil {
				return err
			}
			ref.ids[i] = r
		}
	}
	var err error
	p.PostParent, err = resolveRef(p.PostParent, done, true)
	return err
}

// ResolveTermRefs replaces a placeholder in t's Parent, like ResolvePostRefs.
func ResolveTermRefs(t *calendar.TermRecord, done []calendar.StepResult) error {
	var err error
	t.Parent, err = resolveRef(t.Parent, done, false)
	return err
}

func resolveRef(id int64, done []calendar.StepResult, wantPost bool) (int64, error) {
	i, ok := calendar.StepOf(id)
	if !ok {
		return id, nil
	}
	if i >= len(done) {
		return 0, fmt.Errorf("storage: placeholder %d refers to step %d, which is not an earlier step: %w", id, i, calendar.ErrInvalid)
	}
	switch r := done[i]; {
	case wantPost && r.Post != nil:
		return r.Post.ID, nil
	case !wantPost && r.Term != nil:
		return r.Term.ID, nil
	}
	return 0, fmt.Errorf("storage: placeholder %d refers to step %d, which made no record of that sort: %w", id, i, calendar.ErrInvalid)
}
