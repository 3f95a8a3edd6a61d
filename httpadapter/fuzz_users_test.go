package httpadapter

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzParseUsers: a users file either is refused or reads back the same
// after WriteUsers, and never yields a user without a bcrypt hash.
func FuzzParseUsers(f *testing.F) {
	h := "$2a$04$0123456789012345678901uSyV2SQHKbrEZfUj0aJnd1g9XfkXBRa"
	for _, s := range []string{"", "# c\n", "ann:" + h + ":editor:3\n", "ann:" + h + ":author\nbob:" + h + ":subscriber:9\n",
		"ann:pw:editor:1", "a:b:c:d:e", "\n\n#x\nann:" + h + ":administrator:18446744073709551615"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		users, err := ParseUsers(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, u := range users {
			if u.PasswordHash == "" || u.Password != "" {
				t.Fatalf("user without a hash: %+v", u)
			}
		}
		var b strings.Builder
		if err := WriteUsers(&b, users); err != nil {
			// ParseUsers leaves names and duplicates to BasicAuth.
			if _, berr := BasicAuth(users); berr == nil {
				t.Fatalf("accepted by BasicAuth, refused by WriteUsers: %v", err)
			}
			return
		}
		back, err := ParseUsers(strings.NewReader(b.String()))
		if err != nil {
			t.Fatalf("written file refused: %v\n%s", err, b.String())
		}
		if diff := cmp.Diff(users, back); diff != "" {
			t.Fatal(diff)
		}
	})
}
