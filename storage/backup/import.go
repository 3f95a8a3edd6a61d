package backup

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// Counts returns the number of records of each kind in repo, trashed ones
// included (zero counts left out).
func Counts(ctx context.Context, repo calendar.Repository) (map[calendar.Kind]int, error) {
	out := map[calendar.Kind]int{}
	for _, k := range []calendar.Kind{calendar.KindEvent, calendar.KindVenue, calendar.KindOrganizer} {
		got, err := repo.ListPosts(ctx, &calendar.PostQuery{Kind: k, Now: time.Now(), CountOnly: true})
		if err != nil {
			return nil, err
		}
		if got.Total > 0 {
			out[k] = got.Total
		}
	}
	for _, tax := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
		ts, err := repo.ListTerms(ctx, tax)
		if err != nil {
			return nil, err
		}
		if len(ts) > 0 {
			out[tax.Kind()] = len(ts)
		}
	}
	return out, nil
}

func describe(counts map[calendar.Kind]int) string {
	var parts []string
	for _, k := range []calendar.Kind{calendar.KindEvent, calendar.KindVenue, calendar.KindOrganizer, calendar.KindCategory, calendar.KindTag} {
		if n := counts[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s(s)", n, k))
		}
	}
	return strings.Join(parts, ", ")
}

// importer is the state of one Import.
type importer struct {
	ctx     context.Context
	repo    calendar.Repository
	batch   []calendar.Step
	st      *Stats
	parents [][2]int64 // event id, parent id: set once the parent exists
}

// Import reads a backup from r into repo, which must hold no record at all
// (ErrNotEmpty otherwise). Every record keeps its id, slug, UID, status,
// author, dates, texts and links; records are written in batches, each one
// atomic write. A link to a record the backup does not hold (one removed
// while the export ran) is dropped and counted. An input that is not a
// backup is ErrFormat; one that stops before its last line is ErrTruncated,
// and the records read until then stay in the store.
func Import(ctx context.Context, repo calendar.Repository, r io.Reader, opts ...Option) (*Stats, error) {
	cfg := newConfig(opts)
	dec := json.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	var h Header
	if err := dec.Decode(&h); err != nil || h.Format != FormatName {
		if err == nil {
			err = fmt.Errorf("the first line names format %q", h.Format)
		}
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if h.Version < 1 || h.Version > FormatVersion {
		return nil, fmt.Errorf("%w: format version %d (this program reads up to %d)", ErrFormat, h.Version, FormatVersion)
	}
	counts, err := Counts(ctx, repo)
	if err != nil {
		return nil, fmt.Errorf("backup: import: %w", err)
	}
	if len(counts) > 0 {
		return nil, fmt.Errorf("%w: it holds %s; import into a new store (a new bolt file, another Redis prefix)", ErrNotEmpty, describe(counts))
	}
	im := &importer{ctx: ctx, repo: repo, st: &Stats{}}
	for n := 2; ; n++ {
		var l line
		if err := dec.Decode(&l); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				if ferr := im.flush(); ferr != nil {
					return im.st, ferr
				}
				return im.st, fmt.Errorf("%w after %d records", ErrTruncated, im.st.Records)
			}
			return im.st, fmt.Errorf("%w: line %d: %v", ErrFormat, n, err)
		}
		if l.EndOfBackup {
			if err := im.flush(); err != nil {
				return im.st, err
			}
			if l.Records != im.st.Records {
				return im.st, fmt.Errorf("%w: the last line counts %d records, the backup holds %d", ErrFormat, l.Records, im.st.Records)
			}
			if err := im.setParents(); err != nil {
				return im.st, err
			}
			if dec.More() {
				return im.st, fmt.Errorf("%w: data after the last line", ErrFormat)
			}
			return im.st, nil
		}
		k, err := kindOf(l.Kind)
		if err != nil {
			return im.st, fmt.Errorf("line %d: %w", n, err)
		}
		if l.ID <= 0 {
			return im.st, fmt.Errorf("%w: line %d: a %s without id", ErrFormat, n, k)
		}
		if k.IsPost() {
			p := l.post(k)
			p.Version = 0
			im.batch = append(im.batch, calendar.Step{Op: calendar.OpCreatePost, Post: p})
		} else {
			t := l.term(k)
			t.Version = 0
			im.batch = append(im.batch, calendar.Step{Op: calendar.OpCreateTerm, Term: t})
		}
		im.st.add(k)
		if len(im.batch) >= cfg.batch {
			if err := im.flush(); err != nil {
				return im.st, err
			}
		}
	}
}

// flush writes the batch as one atomic write. A step whose links name
// records that do not exist loses those links (a parent event that may
// still come is set at the end) and the write is tried again.
func (im *importer) flush() error {
	for len(im.batch) > 0 {
		_, err := im.repo.Apply(im.ctx, &calendar.Write{Steps: im.batch})
		if err == nil {
			im.batch = im.batch[:0]
			return nil
		}
		var se *calendar.StepError
		if !errors.As(err, &se) || se.Step < 0 || se.Step >= len(im.batch) {
			return fmt.Errorf("backup: import: %w", err)
		}
		var fixed bool
		switch {
		case errors.Is(se.Err, calendar.ErrNotFound):
			fixed, err = im.dropMissing(se.Step)
		case errors.Is(se.Err, calendar.ErrConflict):
			fixed, err = im.replaceEarlier(se.Step)
		}
		if err != nil {
			return fmt.Errorf("backup: import: %w", err)
		}
		if !fixed {
			return fmt.Errorf("backup: import: %w", se)
		}
	}
	return nil
}

// replaceEarlier handles a record that is in the backup twice (it changed
// while the export ran and was read again): the later line wins. It reports
// whether step i was such a record.
func (im *importer) replaceEarlier(i int) (bool, error) {
	s := &im.batch[i]
	for j := range im.batch[:i] {
		e := &im.batch[j]
		if s.Post != nil && e.Post != nil && e.Post.ID == s.Post.ID || s.Term != nil && e.Term != nil && e.Term.ID == s.Term.ID {
			e.Post, e.Term = s.Post, s.Term
			im.batch = slices.Delete(im.batch, i, i+1)
			im.st.Replaced++
			return true, nil
		}
	}
	if s.Post != nil {
		cur, err := im.repo.GetPost(im.ctx, s.Post.ID)
		if errors.Is(err, calendar.ErrNotFound) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if cur.Kind != s.Post.Kind {
			return false, nil
		}
		s.Op, s.Post.Version = calendar.OpUpdatePost, cur.Version
	} else {
		cur, err := im.repo.GetTerm(im.ctx, s.Term.ID)
		if errors.Is(err, calendar.ErrNotFound) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if cur.Taxonomy != s.Term.Taxonomy {
			return false, nil
		}
		s.Op, s.Term.Version = calendar.OpUpdateTerm, cur.Version
	}
	im.st.Replaced++
	return true, nil
}

// dropMissing removes from step i the links to records that neither exist
// in the store nor come earlier in the batch; it reports whether it changed
// anything.
func (im *importer) dropMissing(i int) (bool, error) {
	earlierPosts, earlierTerms := map[int64]calendar.Kind{}, map[int64]calendar.Taxonomy{}
	for _, s := range im.batch[:i] {
		if s.Post != nil {
			earlierPosts[s.Post.ID] = s.Post.Kind
		} else if s.Term != nil {
			earlierTerms[s.Term.ID] = s.Term.Taxonomy
		}
	}
	postOK := func(id int64, k calendar.Kind) (bool, error) {
		if kk, ok := earlierPosts[id]; ok {
			return kk == k, nil
		}
		p, err := im.repo.GetPost(im.ctx, id)
		if errors.Is(err, calendar.ErrNotFound) {
			return false, nil
		}
		return err == nil && p.Kind == k, err
	}
	termOK := func(id int64, tax calendar.Taxonomy) (bool, error) {
		if tt, ok := earlierTerms[id]; ok {
			return tt == tax, nil
		}
		t, err := im.repo.GetTerm(im.ctx, id)
		if errors.Is(err, calendar.ErrNotFound) {
			return false, nil
		}
		return err == nil && t.Taxonomy == tax, err
	}
	changed := false
	keep := func(ids []int64, ok func(int64) (bool, error)) ([]int64, error) {
		out := ids[:0:0]
		for _, id := range ids {
			good, err := ok(id)
			if err != nil {
				return nil, err
			}
			if good {
				out = append(out, id)
			} else {
				changed = true
				im.st.DroppedLinks++
			}
		}
		return out, nil
	}
	s := &im.batch[i]
	if t := s.Term; t != nil {
		if t.Parent != 0 {
			ok, err := termOK(t.Parent, calendar.TaxonomyCategory)
			if err != nil {
				return false, err
			}
			if !ok {
				t.Parent, changed = 0, true
				im.st.DroppedLinks++
			}
		}
		return changed, nil
	}
	p := s.Post
	var err error
	for _, l := range []struct {
		ids  *[]int64
		kind calendar.Kind
	}{{&p.VenueIDs, calendar.KindVenue}, {&p.OrganizerIDs, calendar.KindOrganizer}} {
		k := l.kind
		if *l.ids, err = keep(*l.ids, func(id int64) (bool, error) { return postOK(id, k) }); err != nil {
			return false, err
		}
	}
	for _, l := range []struct {
		ids *[]int64
		tax calendar.Taxonomy
	}{{&p.CategoryIDs, calendar.TaxonomyCategory}, {&p.TagIDs, calendar.TaxonomyTag}} {
		tax := l.tax
		if *l.ids, err = keep(*l.ids, func(id int64) (bool, error) { return termOK(id, tax) }); err != nil {
			return false, err
		}
	}
	if p.PostParent != 0 {
		ok, err := postOK(p.PostParent, calendar.KindEvent)
		if err != nil {
			return false, err
		}
		if !ok {
			// The parent may come later in the backup: link it at the end.
			im.parents = append(im.parents, [2]int64{p.ID, p.PostParent})
			p.PostParent, changed = 0, true
		}
	}
	return changed, nil
}

// setParents links the events whose parent came after them in the backup.
func (im *importer) setParents() error {
	for _, cp := range im.parents {
		parent, err := im.repo.GetPost(im.ctx, cp[1])
		if errors.Is(err, calendar.ErrNotFound) || err == nil && parent.Kind != calendar.KindEvent {
			im.st.DroppedLinks++
			continue
		}
		if err != nil {
			return fmt.Errorf("backup: import: %w", err)
		}
		child, err := im.repo.GetPost(im.ctx, cp[0])
		if err != nil {
			return fmt.Errorf("backup: import: %w", err)
		}
		child.PostParent = cp[1]
		if _, err := im.repo.UpdatePost(im.ctx, child); err != nil {
			return fmt.Errorf("backup: import: %w", err)
		}
	}
	im.parents = slices.Delete(im.parents, 0, len(im.parents))
	return nil
}
