package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

func TestMain(m *testing.M) {
	if bcryptCost != bcrypt.DefaultCost {
		panic("the server must hash at bcrypt.DefaultCost")
	}
	// Hashes at the default cost take seconds under -race; what the tests
	// check does not depend on the cost.
	bcryptCost = bcrypt.MinCost
	code := m.Run()
	for _, f := range benchCleanups { // calendars BenchmarkHTTP seeded
		f()
	}
	os.Exit(code)
}

// writeUsers writes a users file from "name:password:role[:id]" lines,
// hashing each password (at bcrypt's minimum cost, to keep tests fast:
// the file format and the check are the same).
func writeUsers(t *testing.T, lines string) string {
	t.Helper()
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimSpace(lines), "\n") {
		f := strings.Split(line, ":")
		h, err := bcrypt.GenerateFromPassword([]byte(f[1]), bcrypt.MinCost)
		if err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprint(i + 1)
		if len(f) > 3 {
			id = f[3]
		}
		fmt.Fprintf(&b, "%s:%s:%s:%s\n", f[0], h, f[2], id)
	}
	p := filepath.Join(t.TempDir(), "users")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
