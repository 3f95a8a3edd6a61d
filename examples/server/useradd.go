package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/httpadapter"
)

// useradd adds a user to the users file, or with -replace changes the
// password, role or id of one. The password comes from -password (or
// EVENTCAL_PASSWORD) or else standard input: from a terminal one line,
// from a pipe everything up to the end (one final line feed removed), so a
// password may hold any character. Nothing secret is printed.
//
//	printf %s 'pa:ss wörd' | go run ./examples/server useradd -users eventcal.users -role editor ann
func useradd(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var cfg config
	var role, password string
	var id int64
	var replace bool
	flags := flag.NewFlagSet("useradd", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: server useradd [flags] NAME   (password from -password, EVENTCAL_PASSWORD or standard input)")
		flags.PrintDefaults()
	}
	cfg.storeFlags(flags)
	flags.StringVar(&cfg.UsersFile, "users", "", "users file (default: beside the store, as the server uses it)")
	flags.StringVar(&role, "role", string(calendar.RoleAuthor), "role: administrator, editor, author, contributor or subscriber")
	flags.Int64Var(&id, "id", 0, "user id, the author id of what the user creates (default: one more than the largest)")
	flags.BoolVar(&replace, "replace", false, "change the password, role and id of an existing user")
	flags.StringVar(&password, "password", "", "the password (visible to other local users in the process list: prefer standard input)")
	if err := parseWithEnv(flags, args); err != nil {
		return err
	}
	if flags.NArg() != 1 {
		flags.Usage()
		return errors.New("useradd: want exactly one user name")
	}
	name := flags.Arg(0)
	if err := httpadapter.ValidUserName(name); err != nil {
		return fmt.Errorf("useradd: %w", err)
	}
	r, err := calendar.ParseRole(role)
	if err != nil || r == calendar.RoleAnonymous {
		return fmt.Errorf("useradd: -role %q: want administrator, editor, author, contributor or subscriber", role)
	}
	path := cfg.usersPath()
	if path == "" {
		return errors.New("useradd: -store mem keeps no users file; give -users FILE")
	}
	users, err := readUsersFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("useradd: %w", err)
	}
	i := slices.IndexFunc(users, func(u httpadapter.User) bool { return u.Name == name })
	if i >= 0 && !replace {
		return fmt.Errorf("useradd: user %q exists in %s (use -replace to change it)", name, path)
	}
	if id < 0 {
		return errors.New("useradd: -id must be positive")
	}
	if id == 0 {
		if i >= 0 {
			id = users[i].ID
		} else {
			for _, u := range users {
				id = max(id, u.ID)
			}
			id++
		}
	}
	for j, u := range users {
		if u.ID == id && j != i {
			return fmt.Errorf("useradd: id %d belongs to %q", id, u.Name)
		}
	}
	if password == "" {
		if password, err = readPassword(stdin, stderr, name); err != nil {
			return fmt.Errorf("useradd: %w", err)
		}
	}
	hash, err := httpadapter.HashPasswordCost(password, bcryptCost)
	if err != nil {
		return fmt.Errorf("useradd: %w", err)
	}
	u := httpadapter.User{Name: name, PasswordHash: hash, Role: r, ID: id}
	verb := "added"
	if i >= 0 {
		users[i], verb = u, "updated"
	} else {
		users = append(users, u)
	}
	if err := writeUsersFile(path, users, "# eventcal users: name:bcrypt-hash:role:id — add or change users with: server useradd\n"); err != nil {
		return fmt.Errorf("useradd: %w", err)
	}
	fmt.Fprintf(stdout, "%s user %s (%s, id %d) in %s; restart the server to use it\n", verb, name, r, id, path)
	return nil
}

// readPassword reads the password from standard input: one line from a
// terminal (after a prompt), everything from a pipe or file.
func readPassword(stdin io.Reader, stderr io.Writer, name string) (string, error) {
	if f, ok := stdin.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			fmt.Fprintf(stderr, "password for %s (shown as typed): ", name)
			line, err := bufio.NewReader(f).ReadString('\n')
			if err != nil && !errors.Is(err, io.EOF) {
				return "", err
			}
			return trimNewline(line), nil
		}
	}
	b, err := io.ReadAll(io.LimitReader(stdin, httpadapter.MaxPasswordLen+3))
	if err != nil {
		return "", err
	}
	if len(b) == 0 {
		return "", errors.New("no password on standard input (or give -password / EVENTCAL_PASSWORD)")
	}
	return trimNewline(string(b)), nil
}

// trimNewline removes one final line feed (or CR LF), the one echo and
// most editors add.
func trimNewline(s string) string {
	if t, ok := strings.CutSuffix(s, "\r\n"); ok {
		return t
	}
	return strings.TrimSuffix(s, "\n")
}
