package backup

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
)

// Option tunes Export and Import.
type Option func(*config)

type config struct {
	page   int
	batch  int
	now    func() time.Time
	cursor string
}

func newConfig(opts []Option) *config {
	c := &config{page: 500, batch: 200, now: time.Now}
	for _, o := range opts {
		o(c)
	}
	return c
}

// WithPageSize sets how many records Export reads per query (default 500).
func WithPageSize(n int) Option { return func(c *config) { c.page = max(n, 1) } }

// WithBatch sets how many records Import stores per atomic write (default 200).
func WithBatch(n int) Option { return func(c *config) { c.batch = max(n, 1) } }

// WithClock sets the clock of the header's "created" (default time.Now).
func WithClock(now func() time.Time) Option { return func(c *config) { c.now = now } }

// WithCursor writes cursor as the change-log position the export starts
// at. Without it, a repository that keeps a change log (calendar.ChangeLog,
// as every driver of this module does) gives its current end.
func WithCursor(cursor string) Option { return func(c *config) { c.cursor = cursor } }

// Stats counts what an export or import moved.
type Stats struct {
	Records int
	ByKind  map[calendar.Kind]int
	// Bytes is the size of the backup (Export).
	Bytes int64
	// DroppedLinks counts links to records the backup did not hold
	// (Import): a record removed while the export ran.
	DroppedLinks int
	// Replaced counts records the backup holds twice (Import): changed
	// while the export ran and read again; the later line wins.
	Replaced int
}

func (s *Stats) add(k calendar.Kind) {
	if s.ByKind == nil {
		s.ByKind = map[calendar.Kind]int{}
	}
	s.ByKind[k]++
	s.Records++
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Export writes every record of repo to w as a backup (see the package
// doc). It reads a page at a time, so its memory does not depend on the
// size of the calendar, and it leaves writers running.
func Export(ctx context.Context, repo calendar.Repository, w io.Writer, opts ...Option) (*Stats, error) {
	cfg := newConfig(opts)
	cw := &countingWriter{w: w}
	bw := bufio.NewWriterSize(cw, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	st := &Stats{}
	fail := func(err error) (*Stats, error) { return st, fmt.Errorf("backup: export: %w", err) }
	// The log's end before the first record is read: every change after it
	// may be missing from the file, none before it is.
	if log, ok := repo.(calendar.ChangeLog); ok && cfg.cursor == "" {
		seq, err := log.LastChangeSeq(ctx)
		if err != nil {
			return fail(err)
		}
		cfg.cursor = calendar.ChangeCursor(seq)
	}
	if err := enc.Encode(Header{Format: FormatName, Version: FormatVersion, Created: cfg.now().UTC().Truncate(time.Second), Cursor: cfg.cursor}); err != nil {
		return fail(err)
	}
	for _, tax := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
		ts, err := repo.ListTerms(ctx, tax)
		if err != nil {
			return fail(err)
		}
		for _, t := range parentsFirst(ts) {
			if err := enc.Encode(termLine(t)); err != nil {
				return fail(err)
			}
			st.add(t.Taxonomy.Kind())
		}
	}
	emit := func(p *calendar.PostRecord) error {
		st.add(p.Kind)
		return enc.Encode(postLine(p))
	}
	for _, k := range []calendar.Kind{calendar.KindVenue, calendar.KindOrganizer} {
		if err := scanByOffset(ctx, repo, k, cfg.page, cfg.now(), emit); err != nil {
			return fail(err)
		}
	}
	if err := scanEvents(ctx, repo, cfg.page, cfg.now(), emit); err != nil {
		return fail(err)
	}
	if err := enc.Encode(line{EndOfBackup: true, Records: st.Records}); err != nil {
		return fail(err)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	st.Bytes = cw.n
	return st, nil
}

// parentsFirst orders categories so each parent comes before its children
// (ids ascending otherwise), so an import can create them in file order.
func parentsFirst(ts []*calendar.TermRecord) []*calendar.TermRecord {
	byID := make(map[int64]*calendar.TermRecord, len(ts))
	for _, t := range ts {
		byID[t.ID] = t
	}
	out := make([]*calendar.TermRecord, 0, len(ts))
	done := make(map[int64]bool, len(ts))
	var visit func(t *calendar.TermRecord, depth int)
	visit = func(t *calendar.TermRecord, depth int) {
		if done[t.ID] {
			return
		}
		done[t.ID] = true // before the parent: a cycle (never stored) cannot loop
		if p := byID[t.Parent]; p != nil && depth < len(ts) {
			visit(p, depth+1)
		}
		out = append(out, t)
	}
	for _, t := range ts {
		visit(t, 0)
	}
	return out
}

// scanEvents reads every event in list order (start, then id) by key: each
// query asks for a window of start instants beginning at the last start
// written, leaving out the ids already written at that instant. Pages never
// shift when writers add or remove events, and every query touches about a
// page of events even on a driver that counts every match for its total:
// the window widens while it holds less than a page and narrows while it
// holds several.
func scanEvents(ctx context.Context, repo calendar.Repository, page int, now time.Time, emit func(*calendar.PostRecord) error) error {
	first, last, err := startBounds(ctx, repo, now)
	if err != nil || first.IsZero() {
		return err
	}
	from, span := first, max(time.Second, last.Sub(first)/64)
	var atFrom []int64
	write := func(recs []*calendar.PostRecord) error {
		for _, p := range recs {
			if err := emit(p); err != nil {
				return err
			}
			if !p.Start.Equal(from) {
				from, atFrom = p.Start, nil
			}
			atFrom = append(atFrom, p.ID)
		}
		return nil
	}
	for !from.After(last) {
		to := from.Add(span)
		got, err := repo.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, Now: now, Limit: page,
			Start: calendar.TimeRange{From: from, To: to, ToExclusive: true}, ExcludeIDs: atFrom})
		if err != nil {
			return err
		}
		if err := write(got.Records); err != nil {
			return err
		}
		switch {
		case got.Total > 4*page && span > time.Second:
			span /= 2
		case got.Total <= len(got.Records):
			from, atFrom = to, nil // the window is done
			if got.Total < page/2 {
				span *= 2
			}
		}
	}
	// Events that start after the last one seen at the beginning (written meanwhile).
	for {
		got, err := repo.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, Now: now, Limit: page,
			Start: calendar.TimeRange{From: from}, ExcludeIDs: atFrom})
		if err != nil {
			return err
		}
		if err := write(got.Records); err != nil {
			return err
		}
		if len(got.Records) < page {
			return ctx.Err()
		}
	}
}

// startBounds returns the start of the first and of the last event (zero
// when there is none).
func startBounds(ctx context.Context, repo calendar.Repository, now time.Time) (first, last time.Time, err error) {
	head, err := repo.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, Now: now, Limit: 1})
	if err != nil || len(head.Records) == 0 {
		return first, last, err
	}
	tail, err := repo.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, Now: now, Offset: head.Total - 1, Limit: 1})
	if err != nil {
		return first, last, err
	}
	first, last = head.Records[0].Start, head.Records[0].Start
	if len(tail.Records) == 1 {
		last = tail.Records[0].Start
	}
	return first, last, nil
}

// scanByOffset reads every post of kind k (venues, organizers: few) in list
// order page by page. An offset alone would skip records when others are
// removed meanwhile, so each page overlaps the previous one and starts after
// the last record written (by the list order); when the page starts past
// it, records before it were removed and the scan steps back.
func scanByOffset(ctx context.Context, repo calendar.Repository, k calendar.Kind, page int, now time.Time, emit func(*calendar.PostRecord) error) error {
	const overlap = 16
	var last *calendar.PostRecord
	offset, back := 0, overlap
	for {
		q := &calendar.PostQuery{Kind: k, Now: now, Offset: max(0, offset-back), Limit: page + back}
		got, err := repo.ListPosts(ctx, q)
		if err != nil {
			return err
		}
		recs := got.Records
		start := 0
		if last != nil {
			for start < len(recs) && storage.ComparePosts(recs[start], last) <= 0 {
				start++
			}
			if start == 0 && q.Offset > 0 {
				back *= 2 // the page begins past the last record written
				continue
			}
		}
		for _, p := range recs[start:] {
			if err := emit(p); err != nil {
				return err
			}
		}
		if len(recs) < q.Limit {
			return ctx.Err()
		}
		last = recs[len(recs)-1]
		offset, back = q.Offset+len(recs), overlap
	}
}
