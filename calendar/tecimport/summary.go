package tecimport

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// Summary is what a run did.
type Summary struct {
	Site SiteInfo
	// KeptIDs reports whether new records kept the site's ids.
	KeptIDs bool
	// Kinds counts per kind, in the order they were imported: categories,
	// tags, venues, organizers, events.
	Kinds []*KindSummary
	// Problems lists every record skipped and everything worth a look
	// (an id or slug that could not be kept, a link dropped).
	Problems []Problem
	// Requests and Retries count the HTTP requests made, retries included.
	Requests, Retries int64
	Elapsed           time.Duration
}

// KindSummary counts the records of one kind.
type KindSummary struct {
	Kind                                      calendar.Kind
	Read, Created, Updated, Unchanged, Failed int
}

// Problem is a record that was skipped, or a note about one that was stored.
type Problem struct {
	Kind calendar.Kind
	// ID is the record's id on the site; 0 when it could not be read.
	ID int64
	// Skipped is true when the record was not stored.
	Skipped bool
	Err     error
}

// String says what happened to which record.
func (p Problem) String() string {
	what := p.Kind.String()
	if p.ID != 0 {
		what = fmt.Sprintf("%s %d", p.Kind, p.ID)
	}
	if p.Skipped {
		return fmt.Sprintf("skipped %s: %s", what, reason(p.Err))
	}
	return fmt.Sprintf("%s: %s", what, reason(p.Err))
}

// reason is an error as a reader wants it: for a refused record, what is
// wrong with each field.
func reason(err error) string {
	var ce *calendar.Error
	if !errors.As(err, &ce) || len(ce.Params) == 0 {
		return fmt.Sprint(err)
	}
	msgs := make([]string, 0, len(ce.Params))
	for _, k := range slices.Sorted(maps.Keys(ce.Params)) {
		msgs = append(msgs, ce.Params[k])
	}
	return strings.Join(msgs, "; ")
}

// Kind returns the counts of kind k (zero counts when it was not imported).
func (s *Summary) Kind(k calendar.Kind) KindSummary {
	for _, ks := range s.Kinds {
		if ks.Kind == k {
			return *ks
		}
	}
	return KindSummary{Kind: k}
}

// Total adds up the counts of every kind.
func (s *Summary) Total() KindSummary {
	var t KindSummary
	for _, k := range s.Kinds {
		t.Read += k.Read
		t.Created += k.Created
		t.Updated += k.Updated
		t.Unchanged += k.Unchanged
		t.Failed += k.Failed
	}
	return t
}

// Skipped returns the problems whose record was not stored.
func (s *Summary) Skipped() []Problem {
	var out []Problem
	for _, p := range s.Problems {
		if p.Skipped {
			out = append(out, p)
		}
	}
	return out
}

// WriteTo prints the summary as a small table and the problems.
func (s *Summary) WriteTo(w io.Writer) (int64, error) {
	var n int64
	p := func(format string, args ...any) {
		m, _ := fmt.Fprintf(w, format, args...)
		n += int64(m)
	}
	p("imported from %s", s.Site.API)
	if s.Site.TimeZone != "" {
		p(" (site time zone %s)", s.Site.TimeZone)
	}
	p("\n%-11s %8s %8s %8s %9s %7s\n", "kind", "read", "created", "updated", "unchanged", "failed")
	for _, k := range append(s.Kinds, &KindSummary{}) {
		name := k.Kind.String()
		if k.Kind == 0 {
			t := s.Total()
			k, name = &t, "total"
		}
		p("%-11s %8d %8d %8d %9d %7d\n", name, k.Read, k.Created, k.Updated, k.Unchanged, k.Failed)
	}
	rate := 0.0
	if secs := s.Elapsed.Seconds(); secs > 0 {
		rate = float64(s.Total().Read) / secs
	}
	ids := "new ids (links mapped)"
	if s.KeptIDs {
		ids = "the site's ids kept"
	}
	p("%s in %s (%.0f records/s), %d requests, %d retried; %s\n", "done", s.Elapsed.Round(time.Millisecond), rate, s.Requests, s.Retries, ids)
	if len(s.Problems) > 0 {
		p("%d problem(s):\n", len(s.Problems))
		for _, pr := range s.Problems {
			p("  %s\n", pr)
		}
	}
	return n, nil
}
