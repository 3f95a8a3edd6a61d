package webhooks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Dispatcher delivers changes to the active subscriptions. Create it with
// New and run it with Run; one goroutine per subscription delivers in
// order while at most WithConcurrency requests are in flight.
type Dispatcher struct {
	src     ChangeSource
	store   SubscriptionStore
	cfg     config
	client  *http.Client
	sem     chan struct{}
	head    headNotifier
	refresh chan struct{}
	running atomic.Bool
}

// ErrRunning is returned by Run when the dispatcher is already running.
var ErrRunning = errors.New("webhooks: dispatcher already running")

// New returns a dispatcher reading changes from src and subscriptions from
// store.
func New(src ChangeSource, store SubscriptionStore, opts ...Option) *Dispatcher {
	cfg := config{
		log:          slog.Default(),
		timeout:      DefaultTimeout,
		minBackoff:   DefaultMinBackoff,
		maxBackoff:   DefaultMaxBackoff,
		disableAfter: DefaultDisableAfter,
		concurrency:  DefaultConcurrency,
		leaseTTL:     DefaultLeaseTTL,
		clock:        realClock{},
		refresh:      DefaultRefreshInterval,
		pageSize:     DefaultPageSize,
	}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.leaseTTL < 2*cfg.timeout {
		cfg.leaseTTL = 2 * cfg.timeout
	}
	if cfg.instance == "" {
		var b [8]byte
		rand.Read(b[:])
		cfg.instance = hex.EncodeToString(b[:])
	}
	if cfg.leaser == nil {
		cfg.leaser = NewMemoryLeaser(cfg.clock.Now)
	}
	cfg.log = cfg.log.With("component", "webhooks", "instance", cfg.instance)
	return &Dispatcher{
		src:     src,
		store:   store,
		cfg:     cfg,
		client:  newClient(cfg.policy, cfg.timeout, cfg.tlsConf, cfg.lookup, cfg.concurrency),
		sem:     make(chan struct{}, cfg.concurrency),
		head:    headNotifier{ch: make(chan struct{})},
		refresh: make(chan struct{}, 1),
	}
}

// Refresh asks a running dispatcher to re-read the active subscriptions now,
// e.g. after one was created, changed, re-enabled or deleted. It does not
// wait.
func (d *Dispatcher) Refresh() {
	select {
	case d.refresh <- struct{}{}:
	default:
	}
}

// Run delivers until ctx ends, then stops every delivery (one cut short is
// delivered again later, with the same webhook-id), gives up its leases and
// returns nil.
func (d *Dispatcher) Run(ctx context.Context) error {
	if !d.running.CompareAndSwap(false, true) {
		return ErrRunning
	}
	defer d.running.Store(false)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	wg.Go(func() { d.watchHead(ctx) })
	workers := map[int64]*worker{}
	tick := time.NewTicker(d.cfg.refresh)
	defer tick.Stop()
	for {
		d.sync(ctx, &wg, workers)
		select {
		case <-ctx.Done():
			cancel()
			wg.Wait()
			return nil
		case <-tick.C:
		case <-d.refresh:
		}
	}
}

// sync starts a worker for each active subscription that has none, hands
// the latest settings to the others and stops the workers of subscriptions
// that are no longer active.
func (d *Dispatcher) sync(ctx context.Context, wg *sync.WaitGroup, workers map[int64]*worker) {
	subs, err := d.store.ActiveSubscriptions(ctx)
	if err != nil {
		if ctx.Err() == nil {
			d.cfg.log.Warn("reading subscriptions", "error", err)
		}
		return
	}
	active := make(map[int64]bool, len(subs))
	for _, s := range subs {
		if s.Disabled {
			continue
		}
		active[s.ID] = true
		if w := workers[s.ID]; w != nil && !w.exited() {
			w.settings.Store(&s)
			continue
		}
		w := &worker{d: d, id: s.ID, done: make(chan struct{})}
		w.settings.Store(&s)
		wctx, wcancel := context.WithCancel(ctx)
		w.cancel = wcancel
		workers[s.ID] = w
		wg.Go(func() {
			defer close(w.done)
			defer wcancel()
			w.run(wctx)
		})
	}
	for id, w := range workers {
		if !active[id] {
			w.cancel()
			delete(workers, id)
		}
	}
}

// watchHead follows the end of the change log so idle workers wake when it
// moves; one Wait per dispatcher, not one per subscription.
func (d *Dispatcher) watchHead(ctx context.Context) {
	var last uint64
	for ctx.Err() == nil {
		h, err := d.src.Wait(ctx, last)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			d.cfg.log.Warn("waiting for changes", "error", err)
			sleepReal(ctx, d.cfg.minBackoff)
			continue
		}
		if h <= last { // an early return: do not spin on a source that does that
			sleepReal(ctx, 50*time.Millisecond)
			continue
		}
		last = h
		d.head.publish(h)
	}
}

// headNotifier broadcasts that the change log grew.
type headNotifier struct {
	mu   sync.Mutex
	last uint64
	ch   chan struct{} // closed and replaced when last grows
}

func (h *headNotifier) wait() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ch
}

func (h *headNotifier) publish(last uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if last > h.last {
		h.last = last
		close(h.ch)
		h.ch = make(chan struct{})
	}
}

// sleepReal waits d of real time or until ctx ends; false when ctx ended.
func sleepReal(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
