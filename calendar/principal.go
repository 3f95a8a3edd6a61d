package calendar

import (
	"context"
	"fmt"
)

// Role is what a principal may do: administrators and editors everything,
// authors their own posts and categories, contributors their own drafts,
// subscribers and anonymous callers only reading published records.
type Role string

// Roles, from most to least capable.
const (
	RoleAdministrator Role = "administrator"
	RoleEditor        Role = "editor"
	RoleAuthor        Role = "author"
	RoleContributor   Role = "contributor"
	RoleSubscriber    Role = "subscriber"
	RoleAnonymous     Role = "anonymous"
	// RoleSystem is the role of the System principal only. No user table
	// can grant it (ParseRole refuses it).
	RoleSystem Role = "system"
)

// ParseRole accepts the role names of the user table.
func ParseRole(s string) (Role, error) {
	switch r := Role(s); r {
	case RoleAdministrator, RoleEditor, RoleAuthor, RoleContributor, RoleSubscriber:
		return r, nil
	}
	return "", fmt.Errorf("unknown role %q (want administrator, editor, author, contributor or subscriber)", s)
}

// Principal is the caller of an operation: a known user with an id and a role,
// or the anonymous caller.
type Principal struct {
	ID   int64
	Role Role
}

// Anonymous is the principal of a caller without credentials. A context
// without any principal is anonymous too.
var Anonymous = Principal{Role: RoleAnonymous}

// System is the principal of trusted code (tools, jobs, migrations, tests):
// every right, no user behind it. Posts it creates get the calendar's
// default author (WithDefaultAuthor) unless the write names one. Only code
// that means it asks for it; the HTTP adapter never passes it.
var System = Principal{Role: RoleSystem}

// IsAnonymous reports whether p is the anonymous caller.
func (p Principal) IsAnonymous() bool {
	if p.Role == RoleSystem {
		return false
	}
	return p.ID == 0 || p.Role == RoleAnonymous || p.Role == ""
}

// IsSystem reports whether p is the System principal.
func (p Principal) IsSystem() bool { return p.Role == RoleSystem }

type principalKey struct{}

// WithPrincipal returns a context whose operations run as p. Without it an
// operation runs as Anonymous; trusted code passes System explicitly.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the principal on ctx; ok is false when none is set
// (the caller is then anonymous).
func PrincipalFrom(ctx context.Context) (p Principal, ok bool) {
	p, ok = ctx.Value(principalKey{}).(Principal)
	return p, ok
}

// caller is the resolved principal of one operation.
type caller struct {
	Principal
	system bool
}

func callerFrom(ctx context.Context) caller {
	p, ok := PrincipalFrom(ctx)
	if !ok {
		return caller{Principal: Anonymous}
	}
	if p.IsSystem() {
		return caller{system: true, Principal: System}
	}
	if p.IsAnonymous() {
		return caller{Principal: Anonymous}
	}
	return caller{Principal: p}
}

func (c caller) atLeast(r Role) bool {
	if c.system {
		return true
	}
	rank := map[Role]int{RoleAdministrator: 5, RoleEditor: 4, RoleAuthor: 3, RoleContributor: 2, RoleSubscriber: 1}
	return rank[c.Role] >= rank[r]
}

// canCreatePosts: contributors and up.
func (c caller) canCreatePosts() bool { return c.atLeast(RoleContributor) }

// canPublish: keep publish/future, set private.
func (c caller) canPublish() bool { return c.atLeast(RoleAuthor) }

// canEditOthers: edit/delete/read others' non-published posts.
func (c caller) canEditOthers() bool { return c.atLeast(RoleEditor) }

// canForceDelete: permanent delete.
func (c caller) canForceDelete() bool { return c.atLeast(RoleEditor) }

func (c caller) canManageTerms(k Kind) bool {
	if k == KindCategory {
		return c.atLeast(RoleAuthor)
	}
	return c.atLeast(RoleEditor)
}

func (c caller) owns(p *PostRecord) bool { return !c.IsAnonymous() && p.Author == c.ID }

// canRead reports whether the caller may read post p whose effective status is st.
func (c caller) canRead(p *PostRecord, st Status) bool {
	if st == StatusPublish {
		return true
	}
	if c.canEditOthers() {
		return true
	}
	return c.owns(p) && c.atLeast(RoleContributor)
}

// canEdit reports whether the caller may edit or delete post p (effective status st).
func (c caller) canEdit(p *PostRecord, st Status) bool {
	if c.canEditOthers() {
		return true
	}
	if !c.owns(p) || !c.atLeast(RoleContributor) {
		return false
	}
	if st == StatusPublish || st == StatusFuture || st == StatusPrivate {
		return c.canPublish()
	}
	return true
}

// deny is the refusal for this caller: 401 for anonymous, 403 otherwise.
func (c caller) deny(msg string) error {
	if c.IsAnonymous() {
		return newError(CodeUnauthenticated, "rest_forbidden", msg)
	}
	return newError(CodeForbidden, "rest_forbidden", msg)
}

// UserDirectory tells the calendar which user ids exist, so that an author
// set on write names a known user.
type UserDirectory interface {
	// LookupUser returns the user with that id; ok is false when there is none.
	LookupUser(ctx context.Context, id int64) (p Principal, ok bool, err error)
}

// authorOf is the author of a post c creates without naming one: its own id,
// or the default author for System.
func (s *Service) authorOf(c caller) int64 {
	if c.system {
		return s.defaultAuthor
	}
	return c.ID
}
