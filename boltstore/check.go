package boltstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	bolt "go.etcd.io/bbolt"
)

// ErrInconsistent is wrapped by the error Check returns when the indexes do
// not agree with the records.
var ErrInconsistent = errors.New("boltstore: inconsistent store")

// Check walks every bucket in one read transaction and verifies that the
// file is consistent: the version stamp is known; every record decodes, sits
// under its own id and below its sequence; every index entry a record implies
// (slug, order with its summary, end, featured, links, parent, names with
// their summaries or parents, UID, scheduled and odd-ended events, links in
// list order, event counts) is present with the right value; and no index
// holds an entry that no record implies.
// It reads the whole file, so it is for tests, tools and after-crash checks,
// not for the request path. It returns nil or an error wrapping
// ErrInconsistent that names up to ten problems.
func (s *Store) Check(ctx context.Context) error {
	return s.view(ctx, func(tx *bolt.Tx) error { return check(ctx, tx) })
}

func check(ctx context.Context, tx *bolt.Tx) error {
	var problems []error
	report := func(format string, args ...any) {
		if len(problems) < 10 {
			problems = append(problems, fmt.Errorf(format, args...))
		}
	}
	if meta := tx.Bucket(bMeta); meta == nil {
		report("meta bucket missing")
	} else if err := checkMeta(meta); err != nil {
		report("%v", err)
	}
	for _, name := range allBuckets {
		if tx.Bucket(name) == nil {
			report("bucket %s missing", name)
		}
	}
	if len(problems) > 0 {
		return inconsistent(problems)
	}

	// want[bucket][key] = value: every index entry the records imply.
	want := map[string]map[string]string{}
	expect := func(bucket, key, value []byte) {
		m := want[string(bucket)]
		if m == nil {
			m = map[string]string{}
			want[string(bucket)] = m
		}
		// Only slugs and UIDs can clash across records: every other index
		// key ends with the record's own id (a repeated link is one entry).
		if _, dup := m[string(key)]; dup && (string(bucket) == string(bPostSlugs) || string(bucket) == string(bTermSlugs) || string(bucket) == string(bPostUIDs)) {
			report("%s: two records claim key %x", bucket, key)
		}
		m[string(key)] = string(value)
	}

	postSeq, _ := readU64(tx.Bucket(bSeq).Get(kPostSeq))
	maxDur := maxDuration(tx)
	var odd uint64
	counts := map[string]uint64{} // event_counts, summed from the records
	n := 0
	err := tx.Bucket(bPosts).ForEach(func(k, v []byte) error {
		if n++; n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		id := storage.ParseIDKey(k)
		p, err := storage.DecodePost(v)
		if err != nil {
			report("post %d: %v", id, err)
			return nil
		}
		if f := storage.RecordFormat(v); f != storage.FormatVersion {
			report("post %d: stored in format %d, not %d", id, f, storage.FormatVersion)
		}
		switch {
		case p.ID != id:
			report("post under key %d carries id %d", id, p.ID)
		case !p.Kind.IsPost():
			report("post %d: kind %v is not a post kind", id, p.Kind)
		case p.Version < 1:
			report("post %d: version %d", id, p.Version)
		case uint64(id) > postSeq || id < 1:
			report("post %d: id outside the sequence (last %d)", id, postSeq)
		}
		if oddEnd(p) {
			odd++
		}
		if p.Kind == calendar.KindEvent && p.End.Sub(p.Start) > maxDur {
			report("post %d: lasts %v, longer than the stored bound %v", id, p.End.Sub(p.Start), maxDur)
		}
		if p.Slug != "" {
			expect(bPostSlugs, slugKey(p.Kind, p.Slug), storage.IDKey(id))
		}
		for _, e := range postEntries(p) {
			expect(e.bucket, e.key, e.value)
		}
		for _, k := range countKeys(p) {
			counts[string(k)]++
		}
		return nil
	})
	if err != nil {
		return err
	}
	for k, c := range counts {
		expect(bEventCounts, []byte(k), u64(c))
	}
	if stored := oddEnds(tx); stored != odd {
		report("%d events end before they start, the stored count says %d", odd, stored)
	}

	termSeq, _ := readU64(tx.Bucket(bSeq).Get(kTermSeq))
	err = tx.Bucket(bTerms).ForEach(func(k, v []byte) error {
		id := storage.ParseIDKey(k)
		t, err := storage.DecodeTerm(v)
		if err != nil {
			report("term %d: %v", id, err)
			return nil
		}
		if f := storage.RecordFormat(v); f != storage.FormatVersion {
			report("term %d: stored in format %d, not %d", id, f, storage.FormatVersion)
		}
		switch {
		case t.ID != id:
			report("term under key %d carries id %d", id, t.ID)
		case t.Taxonomy.Kind() == 0:
			report("term %d: unknown taxonomy %q", id, t.Taxonomy)
		case t.Version < 1:
			report("term %d: version %d", id, t.Version)
		case uint64(id) > termSeq || id < 1:
			report("term %d: id outside the sequence (last %d)", id, termSeq)
		}
		if t.Slug != "" {
			expect(bTermSlugs, slugKey(t.Taxonomy.Kind(), t.Slug), storage.IDKey(id))
		}
		for _, e := range termEntries(t) {
			expect(e.bucket, e.key, e.value)
		}
		return nil
	})
	if err != nil {
		return err
	}

	for _, name := range indexBuckets {
		m := want[string(name)]
		err := tx.Bucket(name).ForEach(func(k, v []byte) error {
			if n++; n%256 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			w, ok := m[string(k)]
			switch {
			case !ok:
				report("%s: orphan entry %x", name, k)
			case w != string(v):
				report("%s: entry %x holds %x, want %x", name, k, v, w)
			}
			delete(m, string(k))
			return nil
		})
		if err != nil {
			return err
		}
		for k := range m {
			report("%s: entry %x missing", name, k)
		}
	}
	return inconsistent(problems)
}

func inconsistent(problems []error) error {
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %w", ErrInconsistent, errors.Join(problems...))
}
