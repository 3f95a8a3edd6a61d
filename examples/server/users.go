package main

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/bcrypt"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/httpadapter"
)

// bcryptCost is the cost of the password hashes the server writes. Tests
// lower it: the format and the checks are the same, only faster.
var bcryptCost = bcrypt.DefaultCost

// usersPath is the users file of cfg: -users, else one beside the store
// (eventcal.db → eventcal.users; for Redis, named after the prefix in the
// working directory). A memory store has none: its users live and die
// with it.
func (c config) usersPath() string {
	if c.UsersFile != "" {
		return c.UsersFile
	}
	switch c.Store {
	case "bolt":
		db := c.DB
		if db == "" {
			db = "eventcal.db"
		}
		return strings.TrimSuffix(db, filepath.Ext(db)) + ".users"
	case "redis":
		prefix := c.RedisPrefix
		if prefix == "" {
			prefix = "eventcal"
		}
		return prefix + ".users"
	}
	return ""
}

// loadUsers reads the users file. On first start, when there is none, it
// creates it with an administrator "admin" and a random password printed
// once; later starts find the file and print nothing. A memory store
// without -users gets such an admin in memory only.
func loadUsers(cfg config) ([]httpadapter.User, error) {
	path := cfg.usersPath()
	if path == "" {
		pw := randomPassword()
		fmt.Fprintf(cfg.Out, "created user admin with password %s (in memory only, like -store mem; use -users FILE to keep users)\n", pw)
		return []httpadapter.User{{Name: "admin", Password: pw, Role: calendar.RoleAdministrator, ID: 1}}, nil
	}
	users, err := readUsersFile(path)
	if err == nil {
		return users, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("-users %s: %w", path, err)
	}
	pw := randomPassword()
	hash, err := httpadapter.HashPasswordCost(pw, bcryptCost)
	if err != nil {
		return nil, err
	}
	admin := httpadapter.User{Name: "admin", PasswordHash: hash, Role: calendar.RoleAdministrator, ID: 1}
	var b bytes.Buffer
	b.WriteString("# eventcal users: name:bcrypt-hash:role:id — add or change users with: server useradd\n")
	if err := httpadapter.WriteUsers(&b, []httpadapter.User{admin}); err != nil {
		return nil, err
	}
	// O_EXCL: of two instances starting at once on one file, one creates
	// it and the other reads what the first wrote.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return readUsersFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("-users %s: %w", path, err)
	}
	if _, err := f.Write(b.Bytes()); err != nil {
		f.Close()
		return nil, fmt.Errorf("-users %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("-users %s: %w", path, err)
	}
	fmt.Fprintf(cfg.Out, "created %s with user admin, password %s (shown only this once; add users with: server useradd)\n", path, pw)
	return []httpadapter.User{admin}, nil
}

func readUsersFile(path string) ([]httpadapter.User, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	users, err := httpadapter.ParseUsers(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return users, nil
}

// writeUsersFile replaces the users file in one step (a temporary file
// renamed over it), readable by its owner only.
func writeUsersFile(path string, users []httpadapter.User, header string) error {
	var b bytes.Buffer
	b.WriteString(header)
	if err := httpadapter.WriteUsers(&b, users); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := io.Copy(tmp, &b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// randomPassword is 144 random bits, URL-safe.
func randomPassword() string {
	b := make([]byte, 18)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
