package tecimport

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// progress prints a line per kind at most every interval, every problem
// and every retry, to the writer of WithProgress.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	every time.Duration
	now   func() time.Time
	start time.Time // of the current kind
	last  time.Time
}

func (p *progress) printf(format string, args ...any) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "tecimport: "+format+"\n", args...)
}

// begin starts the clock of a kind.
func (p *progress) begin() {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.start, p.last = p.now(), p.now()
	p.mu.Unlock()
}

// tick prints the counts of k when the interval has passed, or always when final.
func (p *progress) tick(k *KindSummary, final bool) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	now := p.now()
	due := final || now.Sub(p.last) >= p.every
	if due {
		p.last = now
	}
	elapsed := now.Sub(p.start)
	p.mu.Unlock()
	if !due {
		return
	}
	rate := 0.0
	if elapsed > 0 {
		rate = float64(k.Read) / elapsed.Seconds()
	}
	p.printf("%s: %d read, %d created, %d updated, %d unchanged, %d failed (%.0f/s)",
		plural(k.Kind), k.Read, k.Created, k.Updated, k.Unchanged, k.Failed, rate)
}

// plural is the collection name of a kind ("categories", "events").
func plural(k calendar.Kind) string {
	if k == calendar.KindCategory {
		return "categories"
	}
	return k.String() + "s"
}
