package calendar

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"time"
)

// kindCodes are the wire error codes that differ per post kind.
type kindCodes struct {
	notAccessible   string
	inTrash         string
	archiveNotFound string
}

// kindCodeTable holds every kind's codes, made once: checkRead runs on every
// GET, and making them there was three allocations a read.
var kindCodeTable = func() (t [len(kindNames)]kindCodes) {
	for k := range t {
		t[k] = makeCodes(Kind(k))
	}
	return t
}()

func codesOf(k Kind) kindCodes {
	if int(k) < len(kindCodeTable) {
		return kindCodeTable[k]
	}
	return makeCodes(k)
}

func makeCodes(k Kind) kindCodes {
	n := k.String()
	return kindCodes{
		notAccessible:   n + "-not-accessible",
		inTrash:         n + "-is-in-trash",
		archiveNotFound: n + "-archive-page-not-found",
	}
}

// findPost loads the post a Ref names, with the errors of the wire contract
// for ids and slugs that name nothing of the kind.
func (s *Service) findPost(ctx context.Context, kind Kind, ref Ref) (*PostRecord, error) {
	return s.findPostIn(ctx, s.repo, kind, ref)
}

// findPostIn is findPost reading from repo (see Service.reads).
func (s *Service) findPostIn(ctx context.Context, repo Repository, kind Kind, ref Ref) (*PostRecord, error) {
	if ref.ID < 0 || ref.ID == 0 && ref.Slug == "" {
		return nil, invalidParam("id", "id must be a positive integer")
	}
	if ref.ID > 0 {
		p, err := repo.GetPost(ctx, ref.ID)
		if errors.Is(err, ErrNotFound) || err == nil && p.Kind != kind {
			if kind == KindEvent {
				if err != nil {
					return nil, newError(CodeNotFound, "rest-event-not-found", fmt.Sprintf("Event %d not found.", ref.ID))
				}
				e := newError(CodeInvalid, "rest-invalid-event-id", fmt.Sprintf("%d is not a valid event id.", ref.ID))
				e.Err = ErrNotFound
				return nil, e
			}
			return nil, noSuchRecord("id", fmt.Sprintf("%d is not a valid %s id", ref.ID, kind))
		}
		if err != nil {
			return nil, s.storageErr(ctx, "get post", err)
		}
		return p, nil
	}
	slug := NormalizeSlug(ref.Slug)
	if slug == "" {
		return nil, invalidParam("slug", "slug must not be empty")
	}
	p, err := repo.PostBySlug(ctx, kind, slug)
	if errors.Is(err, ErrNotFound) {
		return nil, noSuchRecord("slug", fmt.Sprintf("no %s has the slug %q", kind, slug))
	}
	if err != nil {
		return nil, s.storageErr(ctx, "get post by slug", err)
	}
	return p, nil
}

// checkRead decides whether the caller may read post p in full: the error
// says why not (not accessible, no longer available, password protected).
func (s *Service) checkRead(c caller, p *PostRecord, now time.Time, password string) error {
	st := p.EffectiveStatus(now)
	codes := codesOf(p.Kind)
	if st == StatusTrash && !c.canEdit(p, st) {
		if p.Kind == KindEvent {
			return newError(CodeForbidden, "event-no-longer-available", "The requested event is no longer available.")
		}
		return newError(CodeForbidden, codes.notAccessible, fmt.Sprintf("The requested %s is not accessible.", p.Kind))
	}
	if !c.canRead(p, st) {
		return newError(CodeForbidden, codes.notAccessible, fmt.Sprintf("The requested %s is not accessible.", p.Kind))
	}
	if isProtected(c, p, now) && !passwordMatches(p.Password, password) {
		return newError(CodeForbidden, "event-password-protected", "The requested event is password protected.")
	}
	return nil
}

// isProtected reports whether the caller sees p only with a password.
func isProtected(c caller, p *PostRecord, now time.Time) bool {
	return p.Password != "" && !c.canEdit(p, p.EffectiveStatus(now))
}

func passwordMatches(want, got string) bool {
	if got == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(want), []byte(got)) == 1
}

// updatePost runs the read-modify-write of an update: it re-reads and
// re-applies on a concurrent write (unless the caller pinned a version), so
// no write is lost and a caller who did not ask for a version check never
// sees a conflict. apply gets a clone of the stored record; it returns the
// steps to write before the record (venues, organizers and terms its links
// create by name, referred to by StepRef), or a validation or permission
// error to stop. The record and those steps are one atomic write.
func (s *Service) updatePost(ctx context.Context, kind Kind, ref Ref, ifVersion int64,
	apply func(c caller, rec *PostRecord) ([]Step, error)) (*PostRecord, error) {
	stored, _, err := s.writePost(ctx, kind, ref, ifVersion, apply)
	return stored, err
}

// writePost is updatePost that also returns the result of every step.
func (s *Service) writePost(ctx context.Context, kind Kind, ref Ref, ifVersion int64,
	apply func(c caller, rec *PostRecord) ([]Step, error)) (*PostRecord, *WriteResult, error) {
	c := callerFrom(ctx)
	if !c.canCreatePosts() {
		return nil, nil, c.deny(fmt.Sprintf("Sorry, you are not allowed to edit this %s.", kind))
	}
	retry := newRetrier()
	for {
		cur, err := s.findPost(ctx, kind, ref)
		if err != nil {
			return nil, nil, err
		}
		ref = ByID(cur.ID)
		now := s.now()
		if !c.canEdit(cur, cur.EffectiveStatus(now)) {
			return nil, nil, c.deny(fmt.Sprintf("Sorry, you are not allowed to edit this %s.", kind))
		}
		if ifVersion != 0 && cur.Version != ifVersion {
			return nil, nil, preconditionFailed(cur.Version)
		}
		next := cur.Clone()
		steps, err := apply(c, next)
		if err != nil {
			return nil, nil, err
		}
		next.Version = cur.Version
		next.Modified = now.UTC().Truncate(time.Second)
		steps = append(steps, Step{Op: OpUpdatePost, Post: next})
		res, err := s.repo.Apply(ctx, &Write{Steps: steps})
		if err != nil {
			if errors.Is(err, ErrConflict) && ifVersion != 0 {
				return nil, nil, preconditionFailed(cur.Version)
			}
			again, err := retry.after(ctx, err, ifVersion)
			if again {
				continue
			}
			return nil, nil, s.storageErr(ctx, "update post", err)
		}
		stored := res.Steps[len(res.Steps)-1].Post
		s.counts.eventWritten(cur, stored, now)
		return stored, res, nil
	}
}

func preconditionFailed(have int64) error {
	return &Error{Code: CodePreconditionFailed, Reason: "rest_precondition_failed",
		Message: fmt.Sprintf("The record has changed (it is at version %d).", have)}
}

// deletePost trashes a post, or removes it for good with force. It returns
// the record as it was before (force) or as trashed.
func (s *Service) deletePost(ctx context.Context, kind Kind, ref Ref, opt DeleteOptions) (*PostRecord, error) {
	c := callerFrom(ctx)
	if !c.canCreatePosts() {
		return nil, c.deny(fmt.Sprintf("Sorry, you are not allowed to delete this %s.", kind))
	}
	if opt.Force && !c.canForceDelete() {
		return nil, c.deny(fmt.Sprintf("Sorry, you are not allowed to delete this %s permanently.", kind))
	}
	if opt.Force {
		retry := newRetrier()
		for {
			cur, err := s.findPost(ctx, kind, ref)
			if err != nil {
				return nil, err
			}
			ref = ByID(cur.ID)
			if opt.IfVersion != 0 && cur.Version != opt.IfVersion {
				return nil, preconditionFailed(cur.Version)
			}
			if err := s.repo.DeletePost(ctx, cur.ID, cur.Version); err != nil {
				if errors.Is(err, ErrConflict) && opt.IfVersion != 0 {
					return nil, preconditionFailed(cur.Version)
				}
				// A concurrent delete makes the next read answer with the
				// kind's own not-found error.
				again, err := retry.after(ctx, err, opt.IfVersion)
				if again {
					continue
				}
				return nil, s.storageErr(ctx, "delete post", err)
			}
			s.counts.eventWritten(cur, nil, s.now())
			return cur, nil
		}
	}
	return s.updatePost(ctx, kind, ref, opt.IfVersion, func(c caller, rec *PostRecord) ([]Step, error) {
		if rec.Status == StatusTrash {
			return nil, newError(CodeGone, codesOf(kind).inTrash, fmt.Sprintf("The %s is already in the trash.", kind))
		}
		rec.Status = StatusTrash
		return nil, nil
	})
}

// postVisibility is what a caller sees in a list, given the statuses asked.
func postVisibility(c caller, v *Validation, asked []string) Visibility {
	if len(asked) == 0 {
		switch {
		case c.canEditOthers():
			return Visibility{Statuses: []Status{StatusPublish, StatusFuture, StatusDraft, StatusPending, StatusPrivate}}
		case c.atLeast(RoleContributor):
			return Visibility{Statuses: []Status{StatusPublish}, Owner: c.ID,
				OwnStatuses: []Status{StatusFuture, StatusDraft, StatusPending, StatusPrivate}}
		}
		return Visibility{Statuses: []Status{StatusPublish}}
	}
	var vis Visibility
	for _, part := range splitList(asked) {
		st := Status(part) // exact lower-case words (wire §2): PUBLISH is no status
		switch {
		case !st.Valid():
			v.Add("status", fmt.Sprintf("%q is not a status", part))
		case st == StatusPublish || c.canEditOthers():
			vis.Statuses = append(vis.Statuses, st)
		case c.atLeast(RoleContributor):
			vis.Owner = c.ID
			vis.OwnStatuses = append(vis.OwnStatuses, st)
		default:
			v.Add("status", fmt.Sprintf("you may not list posts with status %q", st))
		}
	}
	if vis.IsZero() && !v.Has("status") {
		return postVisibility(c, v, nil)
	}
	return vis
}

// postsOfKind loads the posts with these ids and checks they are of kind;
// argument names the filter for the error.
func (s *Service) postsOfKind(ctx context.Context, v *Validation, arg string, kind Kind, ids []int64) ([]*PostRecord, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	for _, id := range ids {
		if id <= 0 {
			v.Add(arg, fmt.Sprintf("%s must hold positive %s ids", arg, kind))
			return nil, nil
		}
	}
	found, err := s.repo.GetPosts(ctx, ids)
	if err != nil {
		return nil, s.storageErr(ctx, "get posts", err)
	}
	byID := make(map[int64]*PostRecord, len(found))
	for _, p := range found {
		byID[p.ID] = p
	}
	out := make([]*PostRecord, 0, len(ids))
	for _, id := range ids {
		p, ok := byID[id]
		if !ok || p.Kind != kind {
			v.Add(arg, fmt.Sprintf("%d is not a valid %s id", id, kind))
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

// uniqueIDs drops duplicates, keeping the first occurrence.
func uniqueIDs(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := ids[:0:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
