package webhooks

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// worker delivers one subscription: it takes the subscription's lease, then
// reads changes after the stored cursor and posts them one at a time.
type worker struct {
	d        *Dispatcher
	id       int64
	settings atomic.Pointer[Subscription] // URL, secret, types, filter: the latest read
	cancel   func()
	done     chan struct{}
}

func (w *worker) exited() bool {
	select {
	case <-w.done:
		return true
	default:
		return false
	}
}

// outcome is why a worker stopped holding its lease.
type outcome int

const (
	delivered  outcome = iota // the change was acknowledged
	leaseLost                 // another instance may hold the lease now: take it again if free
	retryLater                // the store failed: give the lease up and come back later
	gone                      // disabled, deleted or stopping: the worker ends
)

const userAgent = "eventcal-webhooks/1"

func (w *worker) run(ctx context.Context) {
	cfg := &w.d.cfg
	key := "webhook:" + strconv.FormatInt(w.id, 10)
	for ctx.Err() == nil {
		start := cfg.clock.Now()
		ok, err := cfg.leaser.Acquire(ctx, key, cfg.instance, cfg.leaseTTL)
		if err != nil && ctx.Err() == nil {
			cfg.log.Warn("taking lease", "subscription", w.id, "error", err)
		}
		if err != nil || !ok {
			// Someone else delivers it (or the lease store is down): look
			// again about when its lease would expire, spread out.
			sleepReal(ctx, jitter(cfg.leaseTTL/3))
			continue
		}
		l := &lease{w: w, key: key, deadline: start.Add(cfg.leaseTTL)}
		res := w.hold(ctx, l)
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.timeout)
		if err := cfg.leaser.Release(rctx, key, cfg.instance); err != nil {
			cfg.log.Warn("releasing lease", "subscription", w.id, "error", err)
		}
		cancel()
		switch res {
		case gone:
			return
		case retryLater:
			sleepReal(ctx, jitter(cfg.leaseTTL/3))
		}
	}
}

// hold delivers while the lease is held.
func (w *worker) hold(ctx context.Context, l *lease) outcome {
	cfg := &w.d.cfg
	sub, err := w.d.store.Subscription(ctx, w.id)
	switch {
	case errors.Is(err, ErrNotFound):
		return gone
	case err != nil:
		if ctx.Err() == nil {
			cfg.log.Warn("reading subscription", "subscription", w.id, "error", err)
		}
		return retryLater
	case sub.Disabled:
		return gone
	}
	w.settings.Store(&sub)
	prog := sub.Progress
	for ctx.Err() == nil {
		wake := w.d.head.wait()
		page, err := w.d.src.Changes(ctx, prog.Cursor, cfg.pageSize)
		if errors.Is(err, ErrCursorExpired) {
			w.disable(ctx, prog, "the changes after its cursor were trimmed from the change log")
			return gone
		}
		if err != nil {
			if ctx.Err() == nil {
				cfg.log.Warn("reading changes", "subscription", w.id, "error", err)
			}
			if !w.idle(ctx, l, nil) {
				return leaseLost
			}
			continue
		}
		if len(page) == 0 {
			if !w.idle(ctx, l, wake) {
				return leaseLost
			}
			continue
		}
		skipped := false
		for _, c := range page {
			if c.Seq <= prog.Cursor {
				continue
			}
			if c.Seq != prog.Cursor+1 { // the source broke its contract; deliver what there is
				cfg.log.Error("gap in the change log", "subscription", w.id, "after", prog.Cursor, "next", c.Seq)
			}
			want, res := w.wants(ctx, l, c)
			if res != delivered {
				return res
			}
			if !want {
				prog.Cursor, skipped = c.Seq, true
				continue
			}
			if res := w.deliver(ctx, l, &prog, c); res != delivered {
				return res
			}
			skipped = false
		}
		if skipped {
			w.save(ctx, prog)
		}
	}
	return gone
}

// wants decides whether c goes to the subscription, waiting out Matcher
// errors rather than skipping the change.
func (w *worker) wants(ctx context.Context, l *lease, c Change) (bool, outcome) {
	cfg := &w.d.cfg
	for attempt := 1; ; attempt++ {
		s := w.settings.Load()
		if !s.Wants(c) {
			return false, delivered
		}
		if s.Filter.IsZero() || cfg.matcher == nil {
			return true, delivered
		}
		ok, err := cfg.matcher.Match(ctx, s.Filter, c)
		if err == nil {
			return ok, delivered
		}
		if ctx.Err() != nil {
			return false, gone
		}
		cfg.log.Warn("matching filter", "subscription", w.id, "seq", c.Seq, "error", err)
		if !w.sleep(ctx, l, backoff(attempt, cfg.minBackoff, cfg.maxBackoff)) {
			return false, leaseLost
		}
	}
}

// deliver posts c until it is acknowledged, the subscription is disabled or
// the lease is lost.
func (w *worker) deliver(ctx context.Context, l *lease, prog *Progress, c Change) outcome {
	cfg := &w.d.cfg
	body, err := payloadFor(c, cfg.restBase)
	if err != nil { // cannot happen with these field types; do not skip silently
		cfg.log.Error("encoding payload", "subscription", w.id, "seq", c.Seq, "error", err)
		return gone
	}
	id := MessageID(w.id, c.Seq)
	for {
		select {
		case w.d.sem <- struct{}{}:
		case <-ctx.Done():
			return gone
		}
		if !l.ensure(ctx, cfg.timeout+cfg.leaseTTL/6) {
			<-w.d.sem
			return leaseLost
		}
		err := w.post(ctx, w.settings.Load(), id, body)
		<-w.d.sem
		if ctx.Err() != nil {
			return gone // cut short by stopping: not the receiver's failure
		}
		now := cfg.clock.Now()
		if err == nil {
			*prog = Progress{Cursor: c.Seq}
			w.save(ctx, *prog)
			return delivered
		}
		prog.Attempts++
		prog.LastError = truncate(err.Error(), 300)
		if prog.FailingSince.IsZero() {
			prog.FailingSince = now
		}
		if now.Sub(prog.FailingSince) >= cfg.disableAfter {
			w.disable(ctx, *prog, "deliveries failed for "+now.Sub(prog.FailingSince).Round(time.Second).String()+"; last error: "+prog.LastError)
			return gone
		}
		w.save(ctx, *prog)
		delay := backoff(prog.Attempts, cfg.minBackoff, cfg.maxBackoff)
		cfg.log.Info("delivery failed", "subscription", w.id, "seq", c.Seq, "webhook_id", id,
			"attempt", prog.Attempts, "error", prog.LastError, "retry_in", delay)
		if !w.sleep(ctx, l, delay) {
			if ctx.Err() != nil {
				return gone
			}
			return leaseLost
		}
	}
}

// StatusError is the failure of an attempt the receiver answered with a
// status other than 2xx (redirects included: they are not followed).
type StatusError struct{ Code int }

// Error names the status.
func (e *StatusError) Error() string { return "receiver answered " + strconv.Itoa(e.Code) }

func (w *worker) post(ctx context.Context, s *Subscription, id string, body []byte) error {
	cfg := &w.d.cfg
	if err := ValidateTarget(s.URL, cfg.policy); err != nil {
		return err
	}
	ts := time.Now() // the receiver compares it with its clock, so never a test clock
	sig, err := Sign(s.Secret, id, ts, body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", userAgent)
	h.Set(HeaderID, id)
	h.Set(HeaderTimestamp, strconv.FormatInt(ts.Unix(), 10))
	h.Set(HeaderSignature, sig)
	resp, err := w.d.client.Do(req)
	if err != nil {
		return err
	}
	// Drain a little so the connection can be reused; the answer's content
	// does not matter.
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &StatusError{Code: resp.StatusCode}
	}
	return nil
}

// save stores progress even while stopping: an acknowledged change that is
// not recorded would be delivered again.
func (w *worker) save(ctx context.Context, p Progress) {
	cfg := &w.d.cfg
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.timeout)
	defer cancel()
	if err := w.d.store.SaveProgress(sctx, w.id, p); err != nil {
		cfg.log.Warn("saving progress", "subscription", w.id, "cursor", p.Cursor, "error", err)
	}
}

func (w *worker) disable(ctx context.Context, p Progress, reason string) {
	cfg := &w.d.cfg
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.timeout)
	defer cancel()
	if err := w.d.store.Disable(sctx, w.id, p, reason); err != nil {
		cfg.log.Error("disabling subscription", "subscription", w.id, "reason", reason, "error", err)
		return
	}
	cfg.log.Warn("subscription disabled", "subscription", w.id, "reason", reason)
}

// idle waits for the log to grow (wake), for the poll interval or for ctx,
// renewing the lease when due; false when the lease was lost or ctx ended.
func (w *worker) idle(ctx context.Context, l *lease, wake <-chan struct{}) bool {
	t := time.NewTimer(w.d.cfg.leaseTTL / 3)
	defer t.Stop()
	select {
	case <-wake:
	case <-t.C:
	case <-ctx.Done():
		return false
	}
	return l.ensure(ctx, w.d.cfg.leaseTTL*2/3)
}

// sleep waits d on the dispatcher's clock in steps short enough to keep
// the lease; false when the lease was lost or ctx ended.
func (w *worker) sleep(ctx context.Context, l *lease, d time.Duration) bool {
	step := w.d.cfg.leaseTTL / 3
	for d > 0 {
		s := min(d, step)
		if w.d.cfg.clock.Sleep(ctx, s) != nil {
			return false
		}
		d -= s
		if !l.ensure(ctx, w.d.cfg.leaseTTL*2/3) {
			return false
		}
	}
	return true
}

// lease is a worker's view of the lease it holds.
type lease struct {
	w        *worker
	key      string
	deadline time.Time // when it expires unless renewed, on the dispatcher's clock
}

// ensure renews the lease unless it is still valid for at least need;
// false when it could not be renewed.
func (l *lease) ensure(ctx context.Context, need time.Duration) bool {
	cfg := &l.w.d.cfg
	now := cfg.clock.Now()
	if now.Add(need).Before(l.deadline) {
		return true
	}
	ok, err := cfg.leaser.Renew(ctx, l.key, cfg.instance, cfg.leaseTTL)
	if err != nil {
		if ctx.Err() == nil {
			cfg.log.Warn("renewing lease", "subscription", l.w.id, "error", err)
		}
		return false
	}
	if ok {
		l.deadline = now.Add(cfg.leaseTTL)
	}
	return ok
}

// backoff is the wait before retry n (n ≥ 1): random between lo and
// lo·2ⁿ⁻¹, capped at hi (full jitter above a floor).
func backoff(n int, lo, hi time.Duration) time.Duration {
	ceil := lo
	for i := 1; i < n && ceil < hi; i++ {
		ceil *= 2
	}
	ceil = min(ceil, hi)
	if ceil <= lo {
		return lo
	}
	return lo + time.Duration(rand.Int64N(int64(ceil-lo)+1))
}

// jitter spreads d over [d/2, 3d/2).
func jitter(d time.Duration) time.Duration {
	if d <= 1 {
		return d
	}
	return d/2 + time.Duration(rand.Int64N(int64(d)))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
