package calendar

import (
	"errors"
	"fmt"
	"time"
)

// Write is one atomic multi-record write (Repository.Apply): its steps apply
// in order and all together, or none of them does — also when the process
// dies or the connection drops mid-write. An event with the venues,
// organizers and terms it creates by name, a series with its occurrences:
// each is one Write, so a refused, conflicting or failed write leaves
// nothing behind and the calendar never needs a compensating delete.
//
// A step may refer to the record of an earlier step of the same Write by a
// placeholder id, StepRef(i), wherever an id of another record goes: in
// VenueIDs, OrganizerIDs, CategoryIDs, TagIDs and PostParent of a post, and
// in Parent of a term. The driver replaces it with the id the record got.
type Write struct {
	Steps []Step
}

// Op says what a Step does.
type Op uint8

// The step operations. Links named by a step's record must exist when the
// write happens (earlier steps count): venues must be venues, organizers
// organizers, categories and tags terms of that taxonomy, PostParent an
// event and a term's Parent a category; otherwise the Write fails with an
// error wrapping ErrNotFound and changes nothing.
const (
	// OpCreatePost stores Step.Post as a new event, venue or organizer
	// with Version 1, its slug reserved like CreatePost does. Post.ID 0
	// takes the next id of the post sequence; a positive Post.ID asks for
	// exactly that id (migration into an empty store): it fails with
	// ErrConflict when a post holds it, and the sequence moves past it so
	// it is never handed out again. A non-empty Post.UID must be free
	// among posts of that kind, else ErrConflict.
	OpCreatePost Op = iota + 1
	// OpUpdatePost replaces post Step.Post.ID with compare-and-set on
	// Post.Version (ErrConflict on a mismatch), like UpdatePost.
	OpUpdatePost
	// OpDeletePost removes post Step.ID for good with its cascades, like
	// DeletePost(Step.ID, Step.Version).
	OpDeletePost
	// OpEnsurePost links an existing venue or organizer by name, or
	// creates one: among the posts of Step.Post.Kind that have a name key
	// (NameKey) equal to the key of Post.Title in Post.Lang, are not
	// trashed and are allowed by Step.Visible at Step.Now (effective
	// status), the one with the lowest id is the result (StepResult.Found);
	// when there is none, Step.Post is created as by OpCreatePost. The
	// look-up and the create are one atomic step: concurrent ensures of
	// one new name make one record. The look-up uses an index.
	OpEnsurePost
	// OpCreateTerm stores Step.Term as a new category or tag with Version
	// 1 (Term.ID as for OpCreatePost, on the term sequence). Its slug is
	// made unique per taxonomy; each of its names (NameKeys) must be free
	// among the terms of the taxonomy with the same Parent, else the write
	// fails with a *NameTakenError (wrapping ErrNameTaken).
	OpCreateTerm
	// OpUpdateTerm replaces term Step.Term.ID with compare-and-set on
	// Version; its names are reserved like on create (a term never clashes
	// with itself).
	OpUpdateTerm
	// OpDeleteTerm removes term Step.ID for good with its cascades, like
	// DeleteTerm(Step.ID, Step.Version).
	OpDeleteTerm
	// OpEnsureTerm links an existing term by name, or creates one: the
	// term of Step.Term.Taxonomy with the lowest id having a name key equal
	// to the key of Term.Name in Term.Lang, at any level, is the result
	// (Found); when there is none, Step.Term is created as by
	// OpCreateTerm. Atomic and indexed like OpEnsurePost.
	OpEnsureTerm
)

var opNames = [...]string{"", "create post", "update post", "delete post", "ensure post", "create term", "update term", "delete term", "ensure term"}

func (o Op) String() string {
	if int(o) < len(opNames) && o != 0 {
		return opNames[o]
	}
	return fmt.Sprintf("op(%d)", uint8(o))
}

// Step is one record operation of a Write; which fields count depends on Op.
type Step struct {
	Op   Op
	Post *PostRecord // create, update, ensure post
	Term *TermRecord // create, update, ensure term

	// ID and Version name the record to delete; Version 0 deletes whatever
	// version is stored.
	ID, Version int64

	// Visible and Now decide which existing posts an OpEnsurePost may
	// reuse (the records the caller may read).
	Visible Visibility
	Now     time.Time
}

// StepRef is the placeholder id that stands for the record of step i of the
// same Write.
func StepRef(i int) int64 { return -int64(i) - 1 }

// StepOf reports which step a placeholder id refers to; ok is false for a
// real (positive) id.
func StepOf(id int64) (step int, ok bool) {
	if id >= 0 {
		return 0, false
	}
	return int(-id - 1), true
}

// WriteResult holds one StepResult per step of the Write, in order.
type WriteResult struct {
	Steps []StepResult
}

// StepResult is the outcome of one step: the record as stored after it (nil
// for deletes) and, for ensure steps, whether an existing record was reused.
type StepResult struct {
	Post  *PostRecord
	Term  *TermRecord
	Found bool
}

// ErrNameTaken reports that a term name is held by another term of the same
// taxonomy and level (domain rule: term names are unique per level).
var ErrNameTaken = errors.New("name taken")

// NameTakenError is the ErrNameTaken of one write: which term holds the name.
type NameTakenError struct {
	Taxonomy Taxonomy
	Parent   int64
	Name     string // the name key that clashed
	ID       int64  // the term holding it
}

func (e *NameTakenError) Error() string {
	return fmt.Sprintf("%s name %q is taken by term %d", e.Taxonomy, e.Name, e.ID)
}

// Unwrap makes errors.Is(err, ErrNameTaken) true.
func (e *NameTakenError) Unwrap() error { return ErrNameTaken }

// StepError says which step of a Write failed; it wraps the cause
// (ErrConflict, ErrNotFound, a *NameTakenError, …), so errors.Is and
// errors.As see through it.
type StepError struct {
	Step int
	Op   Op
	Err  error
}

func (e *StepError) Error() string { return fmt.Sprintf("step %d (%s): %v", e.Step, e.Op, e.Err) }

// Unwrap returns the cause.
func (e *StepError) Unwrap() error { return e.Err }
