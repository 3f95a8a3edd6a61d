package httpadapter

import (
	"bufio"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/eventcal/eventcal/calendar"
)

// Authenticator identifies the caller of a request (wire §6).
type Authenticator interface {
	// Authenticate returns the caller's principal with ok true; ok false
	// when the request carries no credentials this authenticator handles
	// (the caller is anonymous); an error when it carries bad credentials
	// (401 rest_invalid_credentials; the error text is never sent).
	Authenticate(r *http.Request) (p calendar.Principal, ok bool, err error)
}

// AuthenticatorFunc adapts a function to Authenticator.
type AuthenticatorFunc func(r *http.Request) (calendar.Principal, bool, error)

// Authenticate calls f.
func (f AuthenticatorFunc) Authenticate(r *http.Request) (calendar.Principal, bool, error) {
	return f(r)
}

// ErrInvalidCredentials is returned by the ready-made authenticators for a
// wrong user name, password or token.
var ErrInvalidCredentials = errors.New("invalid credentials")

// Chain tries each authenticator in turn; the first that finds credentials
// decides.
func Chain(as ...Authenticator) Authenticator {
	return AuthenticatorFunc(func(r *http.Request) (calendar.Principal, bool, error) {
		for _, a := range as {
			if p, ok, err := a.Authenticate(r); ok || err != nil {
				return p, ok, err
			}
		}
		return calendar.Anonymous, false, nil
	})
}

// User is one entry of a user table.
type User struct {
	Name     string
	Password string
	Role     calendar.Role
	ID       int64
}

type userEntry struct {
	principal calendar.Principal
	hash      [sha256.Size]byte
}

// UserTable authenticates HTTP Basic credentials against a fixed list of
// users. It also implements calendar.UserDirectory, so the same table can be
// given to calendar.WithUsers.
type UserTable struct {
	byName map[string]*userEntry
	byID   map[int64]calendar.Principal
}

var _ calendar.UserDirectory = (*UserTable)(nil)

// BasicAuth returns a user table authenticator. Names and ids must be unique,
// ids positive and roles known.
func BasicAuth(users []User) (*UserTable, error) {
	t := &UserTable{byName: map[string]*userEntry{}, byID: map[int64]calendar.Principal{}}
	for _, u := range users {
		if u.Name == "" || strings.ContainsAny(u.Name, ":") {
			return nil, fmt.Errorf("httpadapter: invalid user name %q", u.Name)
		}
		if _, err := calendar.ParseRole(string(u.Role)); err != nil {
			return nil, fmt.Errorf("httpadapter: user %q: %w", u.Name, err)
		}
		if u.ID <= 0 {
			return nil, fmt.Errorf("httpadapter: user %q: id must be positive", u.Name)
		}
		if _, dup := t.byName[u.Name]; dup {
			return nil, fmt.Errorf("httpadapter: duplicate user name %q", u.Name)
		}
		if _, dup := t.byID[u.ID]; dup {
			return nil, fmt.Errorf("httpadapter: duplicate user id %d", u.ID)
		}
		p := calendar.Principal{ID: u.ID, Role: u.Role}
		t.byName[u.Name] = &userEntry{principal: p, hash: sha256.Sum256([]byte(u.Password))}
		t.byID[u.ID] = p
	}
	return t, nil
}

// ParseUsers reads a user table: one user per line "name:password:role[:id]";
// the id defaults to the line number. Blank lines and lines starting with '#'
// are skipped.
func ParseUsers(r io.Reader) ([]User, error) {
	var out []User
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		parts := strings.Split(text, ":")
		if len(parts) < 3 || len(parts) > 4 {
			return nil, fmt.Errorf("line %d: want name:password:role[:id]", line)
		}
		role, err := calendar.ParseRole(parts[2])
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		u := User{Name: parts[0], Password: parts[1], Role: role, ID: int64(line)}
		if len(parts) == 4 {
			if u.ID, err = strconv.ParseInt(parts[3], 10, 64); err != nil || u.ID <= 0 {
				return nil, fmt.Errorf("line %d: id must be a positive integer", line)
			}
		}
		out = append(out, u)
	}
	return out, sc.Err()
}

// dummyHash is compared against when the user name is unknown, so the time
// taken does not tell which names exist.
var dummyHash = sha256.Sum256([]byte("eventcal-no-such-user"))

// Authenticate checks an "Authorization: Basic" header.
func (t *UserTable) Authenticate(r *http.Request) (calendar.Principal, bool, error) {
	name, pass, ok := r.BasicAuth()
	if !ok {
		return calendar.Anonymous, false, nil
	}
	got := sha256.Sum256([]byte(pass))
	u := t.byName[name]
	want := dummyHash
	if u != nil {
		want = u.hash
	}
	if subtle.ConstantTimeCompare(got[:], want[:]) != 1 || u == nil {
		return calendar.Anonymous, false, ErrInvalidCredentials
	}
	return u.principal, true, nil
}

// LookupUser implements calendar.UserDirectory.
func (t *UserTable) LookupUser(_ context.Context, id int64) (calendar.Principal, bool, error) {
	p, ok := t.byID[id]
	return p, ok, nil
}

// BearerAuth authenticates "Authorization: Bearer <token>" headers against a
// fixed token table, comparing in constant time.
func BearerAuth(tokens map[string]calendar.Principal) Authenticator {
	type entry struct {
		hash [sha256.Size]byte
		p    calendar.Principal
	}
	entries := make([]entry, 0, len(tokens))
	for tok, p := range tokens {
		entries = append(entries, entry{sha256.Sum256([]byte(tok)), p})
	}
	return AuthenticatorFunc(func(r *http.Request) (calendar.Principal, bool, error) {
		h := r.Header.Get("Authorization")
		if len(h) < 7 || !strings.EqualFold(h[:7], "bearer ") {
			return calendar.Anonymous, false, nil
		}
		got := sha256.Sum256([]byte(strings.TrimSpace(h[7:])))
		found := -1
		for i := range entries { // every entry is compared: no early exit
			if subtle.ConstantTimeCompare(got[:], entries[i].hash[:]) == 1 {
				found = i
			}
		}
		if found < 0 {
			return calendar.Anonymous, false, ErrInvalidCredentials
		}
		return entries[found].p, true, nil
	})
}

func errInvalidCredentials() error {
	return &httpError{http.StatusUnauthorized, "rest_invalid_credentials", "The credentials given are not valid."}
}

var roleRank = map[calendar.Role]int{
	calendar.RoleAdministrator: 5, calendar.RoleEditor: 4, calendar.RoleAuthor: 3,
	calendar.RoleContributor: 2, calendar.RoleSubscriber: 1,
}

// mayWrite is the coarse check made before any argument is read: a caller
// below the least role that could ever perform the write is refused at
// once (401 anonymous, 403 otherwise). The calendar still checks the
// concrete record.
func mayWrite(p calendar.Principal, need calendar.Role) error {
	if p.IsAnonymous() {
		return &calendar.Error{Code: calendar.CodeUnauthenticated, Reason: "rest_forbidden",
			Message: "Sorry, you are not allowed to do that. Log in first."}
	}
	if roleRank[p.Role] < roleRank[need] {
		return &calendar.Error{Code: calendar.CodeForbidden, Reason: "rest_forbidden",
			Message: "Sorry, you are not allowed to do that."}
	}
	return nil
}
