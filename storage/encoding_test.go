package storage_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

var update = flag.Bool("update", false, "rewrite the golden files of the current format version (never of older ones)")

var goldenTime = time.Date(2026, 5, 4, 19, 30, 0, 0, time.UTC)

// goldenPostV1 is the record storage/testdata/post-v1.bin was written from,
// by the format 1 encoder (commit 596784c): every field format 1 had.
func goldenPostV1() *calendar.PostRecord {
	yes, no := true, false
	lat, lng := 48.8566, 2.3522
	return &calendar.PostRecord{
		ID: 42, Kind: calendar.KindEvent, Status: calendar.StatusFuture, Author: 7,
		Date: goldenTime.Add(-48 * time.Hour), Modified: goldenTime.Add(-24*time.Hour + 123456789), Version: 3,
		Slug: "jazz-night", Lang: "fr",
		Title:       calendar.Text{"fr": "Soirée jazz", "en": "Jazz night"},
		Description: calendar.Text{"fr": "<p>Trio & invités</p>"},
		Excerpt:     calendar.Text{"en": "Trio"},
		Image:       "https://example.com/a.jpg", Website: "https://example.com", Phone: "+33 1 23 45 67 89",
		ShowMap: &yes, ShowMapLink: &no,
		Start: goldenTime, End: goldenTime.Add(3 * time.Hour), TimeZone: "Europe/Paris", AllDay: true,
		Cost: []string{"10", "15"}, HideFromListings: true, Sticky: true, Featured: true,
		Password: "secret", PostParent: 41,
		VenueIDs: []int64{5}, OrganizerIDs: []int64{6, 8}, CategoryIDs: []int64{2, 3}, TagIDs: []int64{4},
		Address: "1 rue de Rivoli", City: "Paris", Country: "France", Province: "IDF", State: "Île-de-France",
		Zip: "75001", StateProvince: "IDF", GeoLat: &lat, GeoLng: &lng, Email: "jazz@example.com",
	}
}

// goldenPostV2 is the record of storage/testdata/post-v2.bin: every field
// format 2 has, the recurrence fields and the UID included.
func goldenPostV2() *calendar.PostRecord {
	p := goldenPostV1()
	p.Kind = calendar.KindVenue
	p.UID = "venue-42@example.org"
	p.Recurrence = []string{"RRULE:FREQ=WEEKLY;COUNT=4", "EXDATE:20260511T193000Z"}
	p.RecurrenceID = goldenTime.Add(7 * 24 * time.Hour)
	p.Detached = true
	return p
}

func goldenTermV1() *calendar.TermRecord {
	return &calendar.TermRecord{ID: 9, Taxonomy: calendar.TaxonomyCategory, Version: 2, Slug: "jazz", Lang: "fr",
		Name: calendar.Text{"fr": "Jazz", "en": "Jazz music"}, Description: calendar.Text{"fr": "Tout le jazz"}, Parent: 3}
}

func goldenTermV2() *calendar.TermRecord {
	t := goldenTermV1()
	t.Taxonomy = calendar.TaxonomyTag
	t.Parent = 0
	return t
}

func readGolden(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("golden file: %v", err)
	}
	return b
}

// TestGoldenFormats decodes the committed record of every format version and
// compares it field by field with the record it was written from: bytes
// written by any earlier release are read by this one.
func TestGoldenFormats(t *testing.T) {
	if storage.FormatVersion != 2 {
		t.Fatalf("FormatVersion is %d: a new format needs its golden files and cases here", storage.FormatVersion)
	}
	posts := []struct {
		file    string
		version int
		want    *calendar.PostRecord
	}{
		{"post-v1.bin", 1, goldenPostV1()},
		{"post-v2.bin", 2, goldenPostV2()},
	}
	for _, tc := range posts {
		t.Run(tc.file, func(t *testing.T) {
			b := readGolden(t, tc.file)
			if got := storage.RecordFormat(b); got != tc.version {
				t.Errorf("RecordFormat = %d, want %d", got, tc.version)
			}
			got, err := storage.DecodePost(b)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("decoded (-want +got):\n%s", d)
			}
		})
	}
	terms := []struct {
		file    string
		version int
		want    *calendar.TermRecord
	}{
		{"term-v1.bin", 1, goldenTermV1()},
		{"term-v2.bin", 2, goldenTermV2()},
	}
	for _, tc := range terms {
		t.Run(tc.file, func(t *testing.T) {
			b := readGolden(t, tc.file)
			if got := storage.RecordFormat(b); got != tc.version {
				t.Errorf("RecordFormat = %d, want %d", got, tc.version)
			}
			got, err := storage.DecodeTerm(b)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("decoded (-want +got):\n%s", d)
			}
		})
	}
}

// TestCurrentFormatIsStable encodes the golden records with today's encoder
// and compares with the committed bytes of the current version: any change to
// what is written (a renamed stored field, a domain tag leaking in, another
// time format) fails here and calls for a new format version.
func TestCurrentFormatIsStable(t *testing.T) {
	pb, err := storage.EncodePost(goldenPostV2())
	if err != nil {
		t.Fatal(err)
	}
	tb, err := storage.EncodeTerm(goldenTermV2())
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		for name, b := range map[string][]byte{"post-v2.bin": pb, "term-v2.bin": tb} {
			if err := os.WriteFile(filepath.Join("testdata", name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, b := range map[string][]byte{"post-v2.bin": pb, "term-v2.bin": tb} {
		if want := readGolden(t, name); !bytes.Equal(b, want) {
			t.Errorf("%s: the encoder no longer writes the committed bytes of format %d:\n got %s\nwant %s\n"+
				"A change of the stored form needs a new FormatVersion, golden files and a decoder for the old one.",
				name, storage.FormatVersion, b, want)
		}
	}
	// Format 2 begins with the tag and the id member (redisstore cuts
	// records there).
	if !bytes.HasPrefix(pb, []byte("\x02{\"id\":42,")) || !bytes.HasPrefix(tb, []byte("\x02{\"id\":9,")) {
		t.Errorf("format 2 records must begin with the tag and the id: %q", pb[:12])
	}
}

// fill sets v, a settable field, to a non-zero value; ok is false for a type
// it does not know (add one when the domain gains a field of a new type).
func fill(v reflect.Value) bool {
	switch v.Interface().(type) {
	case calendar.Kind:
		v.Set(reflect.ValueOf(calendar.KindOrganizer))
	case calendar.Taxonomy:
		v.Set(reflect.ValueOf(calendar.TaxonomyTag))
	case calendar.Status:
		v.Set(reflect.ValueOf(calendar.StatusPrivate))
	case calendar.Lang:
		v.Set(reflect.ValueOf(calendar.Lang("pt-br")))
	case calendar.Text:
		v.Set(reflect.ValueOf(calendar.Text{"de": "Wert", "en": "value"}))
	case time.Time:
		v.Set(reflect.ValueOf(goldenTime.Add(1234567891)))
	case int64:
		v.SetInt(987654321)
	case string:
		v.SetString("some value ✓")
	case bool:
		v.SetBool(true)
	case []int64:
		v.Set(reflect.ValueOf([]int64{3, 1, 2}))
	case []string:
		v.Set(reflect.ValueOf([]string{"a", "b"}))
	case *bool:
		f := false // a set false must survive, unlike a nil
		v.Set(reflect.ValueOf(&f))
	case *float64:
		f := -12.345678901234
		v.Set(reflect.ValueOf(&f))
	default:
		return false
	}
	return true
}

// TestStoredFormCarriesEveryField sets each field of the domain records, one
// at a time, encodes and decodes: a field the stored form does not carry
// comes back empty and is named. A field added to calendar.PostRecord or
// calendar.TermRecord fails here until the stored form carries it.
func TestStoredFormCarriesEveryField(t *testing.T) {
	check := func(rec any, roundTrip func(any) (any, error)) {
		typ := reflect.TypeOf(rec).Elem()
		for i := range typ.NumField() {
			f := typ.Field(i)
			in := reflect.New(typ)
			if !fill(in.Elem().Field(i)) {
				t.Errorf("%s.%s: no test value for type %s; add one to fill and carry the field in the stored form", typ.Name(), f.Name, f.Type)
				continue
			}
			out, err := roundTrip(in.Interface())
			if err != nil {
				t.Errorf("%s.%s: %v", typ.Name(), f.Name, err)
				continue
			}
			got := reflect.ValueOf(out).Elem().Field(i)
			if d := cmp.Diff(in.Elem().Field(i).Interface(), got.Interface()); d != "" {
				t.Errorf("%s.%s is not carried by the stored form (-set +decoded):\n%s", typ.Name(), f.Name, d)
			}
		}
	}
	check(&calendar.PostRecord{}, func(v any) (any, error) {
		b, err := storage.EncodePost(v.(*calendar.PostRecord))
		if err != nil {
			return nil, err
		}
		return storage.DecodePost(b)
	})
	check(&calendar.TermRecord{}, func(v any) (any, error) {
		b, err := storage.EncodeTerm(v.(*calendar.TermRecord))
		if err != nil {
			return nil, err
		}
		return storage.DecodeTerm(b)
	})
}

// The stored form does not depend on the domain's JSON tags: the bytes hold
// none of the domain's member names.
func TestStoredFormIgnoresDomainTags(t *testing.T) {
	b, err := storage.EncodePost(goldenPostV2())
	if err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeOf(calendar.PostRecord{})
	for i := range typ.NumField() {
		tag, _, _ := bytes.Cut([]byte(typ.Field(i).Tag.Get("json")), []byte(","))
		if len(tag) > 2 && bytes.Contains(b, []byte(fmt.Sprintf("%q:", tag))) {
			t.Errorf("the encoding holds the domain's member name %q", tag)
		}
	}
}

func TestEncodeRefusesUnknownKinds(t *testing.T) {
	if _, err := storage.EncodePost(&calendar.PostRecord{Kind: calendar.KindTag}); err == nil {
		t.Error("a tag encoded as a post")
	}
	if _, err := storage.EncodeTerm(&calendar.TermRecord{Taxonomy: "genre"}); err == nil {
		t.Error("an unknown taxonomy encoded")
	}
	for _, bad := range [][]byte{
		[]byte("\x02{\"id\":1,\"k\":\"widget\"}"),
		[]byte("\x01{\"id\":1,\"kind\":9}"),
		[]byte("\x03{\"id\":1}"),
	} {
		if _, err := storage.DecodePost(bad); !errors.Is(err, storage.ErrBadRecord) {
			t.Errorf("DecodePost(%q) = %v, want ErrBadRecord", bad, err)
		}
	}
	if _, err := storage.DecodeTerm([]byte("\x02{\"id\":1,\"tx\":\"genre\"}")); !errors.Is(err, storage.ErrBadRecord) {
		t.Errorf("DecodeTerm of an unknown taxonomy: %v", err)
	}
}

// FuzzDecode feeds the decoders arbitrary bytes (seeded with the golden
// records of every format): they never panic, and what they accept encodes
// again to the same record.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"post-v1.bin", "post-v2.bin", "term-v1.bin", "term-v2.bin"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("\x02{\"id\":1,\"k\":\"event\",\"ti\":{}}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if p, err := storage.DecodePost(b); err == nil {
			again, err := storage.EncodePost(p)
			if err != nil {
				return // e.g. a year the JSON time form cannot write
			}
			q, err := storage.DecodePost(again)
			if err != nil {
				t.Fatalf("re-encoded post does not decode: %v", err)
			}
			if d := cmp.Diff(p, q, cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("post changed through a re-encode (-first +second):\n%s", d)
			}
		}
		if tr, err := storage.DecodeTerm(b); err == nil {
			again, err := storage.EncodeTerm(tr)
			if err != nil {
				return
			}
			u, err := storage.DecodeTerm(again)
			if err != nil {
				t.Fatalf("re-encoded term does not decode: %v", err)
			}
			if d := cmp.Diff(tr, u, cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("term changed through a re-encode (-first +second):\n%s", d)
			}
		}
	})
}
