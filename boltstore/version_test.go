package boltstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
)

func TestOpenRefusesUnknownVersions(t *testing.T) {
	cases := []struct {
		name    string
		key     []byte
		value   []byte
		mention string
	}{
		{"newer record format", kFormat, u64(99), "format 99"},
		{"newer layout", kLayout, u64(42), "layout 42"},
		{"format 1 with the current layout (never written)", kFormat, u64(1), fmt.Sprintf("format 1, layout %d", LayoutVersion)},
		{"malformed stamp", kFormat, []byte("x"), "malformed"},
		{"foreign magic", kMagic, []byte("someone-else"), "not an eventcal store"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cal.db")
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			mustCreate(t, s, event("kept", base))
			s.Close()
			rewriteMeta(t, path, tc.key, tc.value)

			s, err = Open(path)
			if err == nil {
				s.Close()
				t.Fatal("Open accepted a file it does not understand")
			}
			if !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("Open error = %q; want ErrIncompatible mentioning %q", err, tc.mention)
			}
			// Refusing must not have changed the file: restoring the stamp
			// makes it readable again with its data.
			rewriteMeta(t, path, kFormat, u64(storage.FormatVersion))
			rewriteMeta(t, path, kLayout, u64(LayoutVersion))
			rewriteMeta(t, path, kMagic, []byte(magic))
			s, err = Open(path)
			if err != nil {
				t.Fatalf("reopen after restoring the stamp: %v", err)
			}
			defer s.Close()
			mustCheck(t, s)
		})
	}
}

// rewriteMeta changes one key of the meta bucket with bbolt directly, as a
// file written by another version would have it.
func rewriteMeta(t *testing.T, path string, key, value []byte) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bMeta).Put(key, value) }); err != nil {
		t.Fatal(err)
	}
}

func TestOpenRefusesForeignFiles(t *testing.T) {
	dir := t.TempDir()
	t.Run("other bbolt file", func(t *testing.T) {
		path := filepath.Join(dir, "other.db")
		db, err := bolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("widgets")); return err }); err != nil {
			t.Fatal(err)
		}
		db.Close()
		if s, err := Open(path); !errors.Is(err, ErrIncompatible) {
			if s != nil {
				s.Close()
			}
			t.Errorf("Open of a foreign bbolt file: %v, want ErrIncompatible", err)
		}
	})
	t.Run("not a database", func(t *testing.T) {
		path := filepath.Join(dir, "notes.txt")
		if err := os.WriteFile(path, []byte(strings.Repeat("not a database\n", 1000)), 0o600); err != nil {
			t.Fatal(err)
		}
		if s, err := Open(path); !errors.Is(err, ErrIncompatible) {
			if s != nil {
				s.Close()
			}
			t.Errorf("Open of a text file: %v, want ErrIncompatible", err)
		}
	})
}
