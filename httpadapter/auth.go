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
	"time"
	"unicode"

	"golang.org/x/crypto/bcrypt"

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
// decides. Its 401 challenges are those of its members.
func Chain(as ...Authenticator) Authenticator { return chain(as) }

type chain []Authenticator

func (c chain) Authenticate(r *http.Request) (calendar.Principal, bool, error) {
	for _, a := range c {
		if p, ok, err := a.Authenticate(r); ok || err != nil {
			return p, ok, err
		}
	}
	return calendar.Anonymous, false, nil
}

// Challenges implements Challenger.
func (c chain) Challenges(realm string) []string {
	var out []string
	for _, a := range c {
		if ch, ok := a.(Challenger); ok {
			out = append(out, ch.Challenges(realm)...)
		}
	}
	return out
}

// User is one entry of a user table. Give the password either as
// PasswordHash, a bcrypt hash (what a users file holds: see HashPassword,
// ParseUsers and WriteUsers), or as Password, the password itself, for
// tables built in code that hold it anyway.
type User struct {
	Name         string
	Password     string
	Role         calendar.Role
	ID           int64
	PasswordHash string
}

type userEntry struct {
	principal calendar.Principal
	sum       [sha256.Size]byte // of Password, when no hash is given
	hash      []byte            // bcrypt
}

// UserTable authenticates HTTP Basic credentials against a fixed list of
// users. It also implements calendar.UserDirectory, so the same table can be
// given to calendar.WithUsers.
//
// bcrypt is slow on purpose (tens of milliseconds a check), and Basic
// credentials come with every request: paying that each time would make
// the hash dominate the cost of the API and hand anyone an easy way to
// load the CPU. So a password that has passed bcrypt is remembered for
// CredentialCacheTTL as an HMAC-SHA-256 under a random per-table key, and
// the same name and password are accepted on that digest alone meanwhile.
// Failed checks are never remembered: every wrong guess costs a full
// bcrypt comparison.
type UserTable struct {
	byName map[string]*userEntry
	byID   map[int64]calendar.Principal
	dummy  []byte // bcrypt hash compared against for unknown names
	cache  credentialCache
}

var _ calendar.UserDirectory = (*UserTable)(nil)

// CredentialCacheTTL is how long a UserTable accepts a password that passed
// bcrypt without checking it again.
const CredentialCacheTTL = 10 * time.Minute

// BasicAuth returns a user table authenticator. Names and ids must be unique,
// ids positive, roles known, names valid (ValidUserName) and hashes bcrypt.
func BasicAuth(users []User) (*UserTable, error) {
	t := &UserTable{byName: map[string]*userEntry{}, byID: map[int64]calendar.Principal{}}
	t.cache.init()
	for _, u := range users {
		if err := ValidUserName(u.Name); err != nil {
			return nil, fmt.Errorf("httpadapter: %w", err)
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
		e := &userEntry{principal: p}
		if u.PasswordHash != "" {
			cost, err := hashCost(u.PasswordHash)
			if err != nil {
				return nil, fmt.Errorf("httpadapter: user %q: password hash: %w", u.Name, err)
			}
			e.hash = []byte(u.PasswordHash)
			if t.dummy == nil {
				// Unknown names cost as much as known ones: a bcrypt
				// comparison at the cost the table uses.
				if t.dummy, err = bcrypt.GenerateFromPassword(randomBytes(18), cost); err != nil {
					return nil, fmt.Errorf("httpadapter: %w", err)
				}
			}
		} else {
			e.sum = sha256.Sum256([]byte(u.Password))
		}
		t.byName[u.Name] = e
		t.byID[u.ID] = p
	}
	return t, nil
}

// ValidUserName reports why name cannot be a user name: empty, containing
// ':' (HTTP Basic splits there) or a control character, starting with '#'
// (a comment in a users file) or with surrounding spaces.
func ValidUserName(name string) error {
	switch {
	case name == "":
		return errors.New("empty user name")
	case strings.ContainsRune(name, ':'):
		return fmt.Errorf("user name %q contains ':'", name)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return fmt.Errorf("user name %q contains a control character", name)
	case strings.HasPrefix(name, "#"):
		return fmt.Errorf("user name %q starts with '#'", name)
	case strings.TrimSpace(name) != name:
		return fmt.Errorf("user name %q starts or ends with a space", name)
	}
	return nil
}

// MaxHashCost is the highest bcrypt cost accepted in a users file: each step
// doubles the time a check takes, and at this cost one takes seconds.
const MaxHashCost = 16

// hashCost returns the cost of a bcrypt hash, refusing anything else.
func hashCost(hash string) (int, error) {
	cost, err := bcrypt.Cost([]byte(hash))
	if err != nil {
		return 0, err
	}
	if cost > MaxHashCost {
		return 0, fmt.Errorf("bcrypt cost %d above %d", cost, MaxHashCost)
	}
	return cost, nil
}

// MaxPasswordLen is the longest password HashPassword accepts: bcrypt reads
// at most 72 bytes, and silently ignoring the rest would be worse than
// refusing.
const MaxPasswordLen = 72

// HashPassword returns the bcrypt hash of a password (cost
// bcrypt.DefaultCost) for a users file. Any character is allowed; the
// password must not be empty or longer than MaxPasswordLen bytes.
func HashPassword(password string) (string, error) {
	return HashPasswordCost(password, bcrypt.DefaultCost)
}

// HashPasswordCost is HashPassword with another bcrypt cost (each step
// doubles the time a check takes; bcrypt.MinCost is for tests only).
func HashPasswordCost(password string, cost int) (string, error) {
	if password == "" {
		return "", errors.New("empty password")
	}
	if len(password) > MaxPasswordLen {
		return "", fmt.Errorf("password longer than %d bytes", MaxPasswordLen)
	}
	if cost > MaxHashCost {
		return "", fmt.Errorf("bcrypt cost %d above %d", cost, MaxHashCost)
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), cost)
	return string(h), err
}

// ParseUsers reads a users file: one user per line "name:hash:role[:id]",
// where hash is the bcrypt hash of the password (HashPassword) — a plain
// password is refused. The id defaults to the line number. Blank lines and
// lines starting with '#' are skipped.
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
			return nil, fmt.Errorf("line %d: want name:bcrypt-hash:role[:id]", line)
		}
		if _, err := hashCost(parts[1]); err != nil {
			return nil, fmt.Errorf("line %d: the second field must be a bcrypt password hash, never the password itself (%v)", line, err)
		}
		role, err := calendar.ParseRole(parts[2])
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		u := User{Name: parts[0], PasswordHash: parts[1], Role: role, ID: int64(line)}
		if len(parts) == 4 {
			if u.ID, err = strconv.ParseInt(parts[3], 10, 64); err != nil || u.ID <= 0 {
				return nil, fmt.Errorf("line %d: id must be a positive integer", line)
			}
		}
		out = append(out, u)
	}
	return out, sc.Err()
}

// WriteUsers writes users in the format ParseUsers reads, ids included.
// Every user needs a PasswordHash: a plain Password is never written.
func WriteUsers(w io.Writer, users []User) error {
	bw := bufio.NewWriter(w)
	for _, u := range users {
		if err := ValidUserName(u.Name); err != nil {
			return err
		}
		if _, err := hashCost(u.PasswordHash); err != nil {
			return fmt.Errorf("user %q: no bcrypt password hash (%v)", u.Name, err)
		}
		if _, err := calendar.ParseRole(string(u.Role)); err != nil {
			return fmt.Errorf("user %q: %w", u.Name, err)
		}
		if u.ID <= 0 {
			return fmt.Errorf("user %q: id must be positive", u.Name)
		}
		fmt.Fprintf(bw, "%s:%s:%s:%d\n", u.Name, u.PasswordHash, u.Role, u.ID)
	}
	return bw.Flush()
}

// dummySum is compared against when the user name is unknown and the
// table holds plain passwords, so the time taken does not tell which names
// exist.
var dummySum = sha256.Sum256([]byte("eventcal-no-such-user"))

// Authenticate checks an "Authorization: Basic" header.
func (t *UserTable) Authenticate(r *http.Request) (calendar.Principal, bool, error) {
	name, pass, ok := r.BasicAuth()
	if !ok {
		return calendar.Anonymous, false, nil
	}
	u := t.byName[name]
	if (u != nil && u.hash == nil) || (u == nil && t.dummy == nil) {
		got := sha256.Sum256([]byte(pass))
		want := dummySum
		if u != nil {
			want = u.sum
		}
		if subtle.ConstantTimeCompare(got[:], want[:]) != 1 || u == nil {
			return calendar.Anonymous, false, ErrInvalidCredentials
		}
		return u.principal, true, nil
	}
	if len(pass) > MaxPasswordLen {
		// bcrypt compares only the first 72 bytes; no stored hash can
		// stand for a longer password, so one must not match by prefix.
		return calendar.Anonymous, false, ErrInvalidCredentials
	}
	mac := t.cache.mac(name, pass)
	if u != nil && t.cache.verified(name, mac) {
		return u.principal, true, nil
	}
	hash := t.dummy
	if u != nil {
		hash = u.hash
	}
	if err := bcrypt.CompareHashAndPassword(hash, []byte(pass)); err != nil || u == nil {
		return calendar.Anonymous, false, ErrInvalidCredentials
	}
	t.cache.remember(name, mac)
	return u.principal, true, nil
}

// Challenges implements Challenger: HTTP Basic.
func (t *UserTable) Challenges(realm string) []string {
	return []string{"Basic realm=" + quote(realm) + `, charset="UTF-8"`}
}

// LookupUser implements calendar.UserDirectory.
func (t *UserTable) LookupUser(_ context.Context, id int64) (calendar.Principal, bool, error) {
	p, ok := t.byID[id]
	return p, ok, nil
}

// BearerAuth authenticates "Authorization: Bearer <token>" headers against a
// fixed token table, comparing in constant time.
func BearerAuth(tokens map[string]calendar.Principal) Authenticator {
	b := make(bearerTable, 0, len(tokens))
	for tok, p := range tokens {
		b = append(b, bearerEntry{sha256.Sum256([]byte(tok)), p})
	}
	return b
}

type bearerEntry struct {
	hash [sha256.Size]byte
	p    calendar.Principal
}

type bearerTable []bearerEntry

func (b bearerTable) Authenticate(r *http.Request) (calendar.Principal, bool, error) {
	h := r.Header.Get("Authorization")
	if len(h) < 7 || !strings.EqualFold(h[:7], "bearer ") {
		return calendar.Anonymous, false, nil
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(h[7:])))
	found := -1
	for i := range b { // every entry is compared: no early exit
		if subtle.ConstantTimeCompare(got[:], b[i].hash[:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		return calendar.Anonymous, false, ErrInvalidCredentials
	}
	return b[found].p, true, nil
}

// Challenges implements Challenger: bearer tokens.
func (b bearerTable) Challenges(realm string) []string {
	return []string{"Bearer realm=" + quote(realm)}
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
