// Package engine runs gozie's work: every pending piece of work is a trigger
// row (see package store), and the engine claims due triggers with a lease,
// runs the handler registered for each trigger's kind, and releases the
// trigger with its next due time in the same transaction as the handler's
// state change.
//
// The loop never polls on a fixed period. It sleeps until the earliest due
// time (or lease expiry) in the store, and wakes at once when a transaction
// schedules work: in-process through the store's wake channel, and on
// PostgreSQL through NOTIFY from any server. A long fallback timer with
// jitter only guards against a lost notification.
//
// Life of one trigger:
//
//	scheduled ──claim (lease, attempts+1)──► running ──Finish/nil──► released (next due,
//	   ▲                                        │  │                  attempts 0) or deleted
//	   │                                        │  └──error/panic──► failed: due after backoff
//	   └──────── lease expired (server died) ◄──┘
//	claimed with attempts > MaxAttempts ──► given up: its entity ended (GiveUp), deleted
//
// Every claim counts an attempt and only a success clears the count, so a
// trigger whose handler keeps failing, or keeps taking its server down
// (a crash loop on restart), is given up on after MaxAttempts attempts: the
// kind's GiveUp handler ends its job or action with a visible error and the
// trigger goes, and the server goes on with the rest of its work.
//
// A kind registered with HandleBatch is claimed many triggers at a time,
// and its handler gets them all at once in one worker slot, so that it can
// finish them in one transaction (FinishBatch); each trigger keeps its own
// lease, outcome and metrics; one that failed before, or whose server died
// holding it, runs alone, so that a poison trigger never uses up the
// attempts of the others. See batch.go.
//
// # Trigger kinds
//
// A kind (store.TriggerKind) is declared as a constant by the package that
// handles it and registered here with Handle or HandleBatch; StartsNewWork
// marks the kinds that start new work, which the server holds in SAFEMODE
// (NewWorkKinds). Kinds lists the registrations, for this table and the admin
// queue dump. The table is generated from the registrations of a full
// server: the daemon's TestEngineDocListsKinds checks it, and rewrites it
// when run with GOZIE_UPDATE_DOC=1.
//
//	kind                 package                batch  new work  gives up
//	bundle-kickoff       bundle/bundlerun       -      yes       -
//	bundle-status        bundle/bundlerun       -      -         -
//	coord-input-check    coordinator/coordrun   yes    -         yes
//	coord-kill           coordinator/coordrun   -      -         yes
//	coord-materialize    coordinator/coordrun   yes    yes       yes
//	coord-start          coordinator/coordrun   -      yes       yes
//	coord-status         coordinator/coordrun   -      -         yes
//	coord-timeout        coordinator/coordrun   -      -         yes
//	coord-workflow-cmd   coordinator/coordrun   -      -         yes
//	purge                purge                  -      -         -
//	sla-deadline         sla                    -      -         -
//	sla-event            sla                    -      -         -
//	wf-action-check      workflow/wfrun         -      -         -
//	wf-action-kill       workflow/wfrun         -      -         -
//	wf-action-retry      workflow/wfrun         -      yes       yes
//	wf-action-start      workflow/wfrun         -      yes       yes
//	wf-poll              workflow/wfrun         -      -         -
package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/store"
)

// Handler does the work of one claimed trigger. Returning nil without
// calling run.Finish deletes the trigger; returning an error retries it
// after a backoff, with the error recorded on the trigger.
type Handler func(ctx context.Context, run *Claim) error

// Config configures an Engine. Zero values take the documented defaults; those
// that are server settings are the settings' defaults (package conf), which the
// daemon passes.
type Config struct {
	Store  store.Store
	Clock  clock.Clock  // default clock.Real{}
	Logger *slog.Logger // default slog.Default()
	// Owner identifies this engine in leases; default host-pid-random.
	Owner string
	// Lease is how long a claim holds before another engine may take the
	// trigger over; renewed every Lease/3 while the handler runs. Default
	// conf.DefaultEngineLease (gozie.engine.lease).
	Lease time.Duration
	// Workers is how many handlers run at once. Default
	// conf.DefaultEngineWorkers (gozie.engine.workers).
	Workers int
	// MaxSleep bounds a sleep with nothing due, as a guard against a lost
	// wake-up; jittered by up to 20%. Default conf.DefaultEngineMaxSleep
	// (gozie.engine.max-sleep).
	MaxSleep time.Duration
	// Backoff is the delay before retry number attempt (1-based) of a failed
	// handler. Default: 1s doubling to at most 5m, with 20% jitter.
	Backoff func(attempt int) time.Duration
	// MaxAttempts is how many claims of a trigger may end without success
	// (a handler error, or its server dying) before the engine gives up on
	// it (see HandleGiveUp). Default conf.DefaultEngineMaxAttempts
	// (gozie.engine.max-attempts).
	MaxAttempts int
	// Metrics receives observations; default none.
	Metrics *Metrics
}

// Engine is the trigger loop.
type Engine struct {
	cfg      Config
	handlers map[store.TriggerKind]Handler
	batches  map[store.TriggerKind]*batchKind
	giveUps  map[store.TriggerKind]GiveUp
	newWork  map[store.TriggerKind]bool // kinds registered with StartsNewWork
	wake     chan struct{}
	slots    chan struct{}
	freed    chan struct{}

	held   map[store.TriggerKind]bool // kinds not claimed for now (SAFEMODE)
	heldMu sync.Mutex

	mu      sync.Mutex
	cancel  context.CancelFunc
	done    chan struct{}
	running sync.WaitGroup
	stopped bool
}

// New returns an engine; register handlers with Handle before Start.
func New(cfg Config) *Engine {
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Owner == "" {
		cfg.Owner = defaultOwner()
	}
	if cfg.Lease <= 0 {
		cfg.Lease = conf.DefaultEngineLease
	}
	if cfg.Workers <= 0 {
		cfg.Workers = conf.DefaultEngineWorkers
	}
	if cfg.MaxSleep <= 0 {
		cfg.MaxSleep = conf.DefaultEngineMaxSleep
	}
	if cfg.Backoff == nil {
		cfg.Backoff = DefaultBackoff
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = conf.DefaultEngineMaxAttempts
	}
	return &Engine{
		cfg:      cfg,
		handlers: map[store.TriggerKind]Handler{},
		batches:  map[store.TriggerKind]*batchKind{},
		giveUps:  map[store.TriggerKind]GiveUp{},
		newWork:  map[store.TriggerKind]bool{},
		wake:     make(chan struct{}, 1),
		slots:    make(chan struct{}, cfg.Workers),
		freed:    make(chan struct{}, 1),
	}
}

// DefaultBackoff is 1s, 2s, 4s, ... capped at 5 minutes, with 20% jitter.
func DefaultBackoff(attempt int) time.Duration {
	d := time.Second
	for i := 1; i < attempt && d < 5*time.Minute; i++ {
		d *= 2
	}
	if d > 5*time.Minute {
		d = 5 * time.Minute
	}
	return d + time.Duration(mrand.Int64N(int64(d/5)+1))
}

// Owner returns the engine's lease owner id.
func (e *Engine) Owner() string { return e.cfg.Owner }

// Handle registers h for triggers of kind, with its options (StartsNewWork).
// It must be called before Start.
func (e *Engine) Handle(kind store.TriggerKind, h Handler, opts ...Option) {
	e.checkNewKind(kind)
	e.handlers[kind] = h
	e.apply(kind, opts)
}

// checkNewKind panics when kind is empty or has a handler already:
// registering twice is a programming error.
func (e *Engine) checkNewKind(kind store.TriggerKind) {
	_, single := e.handlers[kind]
	_, batch := e.batches[kind]
	if kind == "" || single || batch {
		panic(fmt.Sprintf("engine: two handlers for kind %q", kind))
	}
}

// Wake makes the loop look for due work at once.
func (e *Engine) Wake() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// Start starts the loop; it returns at once. ctx bounds the engine's life as
// Stop does.
func (e *Engine) Start(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.done != nil {
		return errors.New("engine: already started")
	}
	ctx, e.cancel = context.WithCancel(ctx)
	e.done = make(chan struct{})
	go e.loop(ctx)
	return nil
}

// Stop stops claiming and waits for running handlers to finish. It is
// idempotent and safe to call before Start.
func (e *Engine) Stop() {
	e.mu.Lock()
	if e.done == nil || e.stopped {
		done := e.done
		e.mu.Unlock()
		if done != nil {
			<-done
		}
		return
	}
	e.stopped = true
	e.cancel()
	done := e.done
	e.mu.Unlock()
	<-done
}

// Hold stops the engine from claiming triggers of the given kinds until the
// next Hold call replaces the set (Hold() with none releases all). Work
// already running finishes; held triggers wait, due, in the store. The
// server holds the kinds that start new work while in SAFEMODE.
func (e *Engine) Hold(kinds ...store.TriggerKind) {
	e.heldMu.Lock()
	e.held = map[store.TriggerKind]bool{}
	for _, k := range kinds {
		e.held[k] = true
	}
	e.heldMu.Unlock()
	e.Wake()
}

// kinds returns the kinds to claim, those with a handler and not held:
// the kinds handled one trigger at a time, and the batched ones.
func (e *Engine) kinds() (singles []store.TriggerKind, batched []*batchKind) {
	e.heldMu.Lock()
	defer e.heldMu.Unlock()
	singles = make([]store.TriggerKind, 0, len(e.handlers))
	for k := range e.handlers {
		if !e.held[k] {
			singles = append(singles, k)
		}
	}
	for k, b := range e.batches {
		if !e.held[k] {
			batched = append(batched, b)
		}
	}
	return singles, batched
}

func (e *Engine) loop(ctx context.Context) {
	defer close(e.done)
	// Handlers get a context that outlives the loop's: on Stop the loop
	// stops claiming at once, and in-flight handlers finish their work.
	work, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	defer func() {
		e.running.Wait()
		cancelWork()
	}()
	if len(e.handlers) == 0 && len(e.batches) == 0 {
		<-ctx.Done() // nothing to claim: an empty kind list would claim every kind
		return
	}
	reaped := make(chan struct{})
	go func() {
		defer close(reaped)
		e.reapLoop(ctx)
	}()
	defer func() { <-reaped }()
	for {
		if ctx.Err() != nil {
			return
		}
		singles, batched := e.kinds()
		free := e.cfg.Workers - len(e.slots)
		if len(singles) == 0 && len(batched) == 0 {
			free = 0 // everything is held: sleep until woken
		}
		if free > 0 && e.claimAndRun(ctx, work, free, singles, batched) {
			continue // more may be due right now
		}
		if !e.sleep(ctx, free > 0) {
			return
		}
	}
}

// claimAndRun claims up to free due triggers of every kind, oldest first,
// and runs them: each single trigger in a worker slot, and the triggers of
// a batch kind together in one slot, the batch first topped up with more
// due triggers of its kind (a claim of that kind alone, made only when the
// oldest due work holds some, so that it never searches past a backlog of
// other kinds for nothing). It reports whether more may be due now.
func (e *Engine) claimAndRun(ctx, work context.Context, free int, singles []store.TriggerKind, batched []*batchKind) bool {
	now := e.cfg.Clock.Now()
	kinds := append([]store.TriggerKind(nil), singles...)
	byKind := make(map[store.TriggerKind]*batchKind, len(batched))
	for _, b := range batched {
		kinds = append(kinds, b.kind)
		byKind[b.kind] = b
	}
	ts := e.claim(ctx, now, free, kinds)
	more := len(ts) == free
	var groups map[*batchKind][]store.Trigger
	var order []*batchKind
	for _, t := range ts {
		e.cfg.Metrics.claimed(t.Kind, now.Sub(t.DueAt))
		if b := byKind[t.Kind]; b != nil && !e.exhausted(t) {
			if suspect(t) {
				e.slots <- struct{}{}
				e.running.Add(1)
				go e.runBatch(work, b, []store.Trigger{t}, now)
				continue
			}
			if groups == nil {
				groups = map[*batchKind][]store.Trigger{}
			}
			if groups[b] == nil {
				order = append(order, b)
			}
			groups[b] = append(groups[b], t)
			continue
		}
		e.slots <- struct{}{}
		e.running.Add(1)
		go e.run(work, t, now)
	}
	for _, b := range order {
		g := groups[b]
		for len(g) > b.max { // a claim of more than a batch: whole batches first
			e.slots <- struct{}{}
			e.running.Add(1)
			go e.runBatch(work, b, g[:b.max:b.max], now)
			g = g[b.max:]
		}
		if want := b.max - len(g); want > 0 {
			extra := e.claim(ctx, now, want, []store.TriggerKind{b.kind})
			for _, t := range extra {
				e.cfg.Metrics.claimed(t.Kind, now.Sub(t.DueAt))
				if e.exhausted(t) || suspect(t) { // on their own, as above
					e.slots <- struct{}{}
					e.running.Add(1)
					if e.exhausted(t) {
						go e.run(work, t, now)
					} else {
						go e.runBatch(work, b, []store.Trigger{t}, now)
					}
					continue
				}
				g = append(g, t)
			}
			more = more || len(extra) == want
		}
		e.slots <- struct{}{}
		e.running.Add(1)
		go e.runBatch(work, b, g, now)
	}
	return more
}

// claim leases up to limit due triggers of kinds.
func (e *Engine) claim(ctx context.Context, now time.Time, limit int, kinds []store.TriggerKind) []store.Trigger {
	ts, err := e.cfg.Store.ClaimTriggers(ctx, store.ClaimRequest{Owner: e.cfg.Owner, Now: now,
		LeaseUntil: now.Add(e.cfg.Lease), Limit: limit, Kinds: kinds})
	if err != nil && ctx.Err() == nil {
		e.cfg.Logger.Warn("claiming triggers", "err", err)
		e.cfg.Metrics.claimError()
	}
	return ts
}

// sleep waits for a wake-up, the next due time, a freed worker slot or the
// fallback timer; it returns false when the engine is stopping.
func (e *Engine) sleep(ctx context.Context, haveSlots bool) bool {
	// A deadline, not a duration: a clock that moves between the look at
	// the next due time and the timer (a test's fake clock advanced by
	// another goroutine) must not push the wake-up past that due time.
	now := e.cfg.Clock.Now()
	deadline := now.Add(e.cfg.MaxSleep - time.Duration(mrand.Int64N(int64(e.cfg.MaxSleep)/5+1)))
	if haveSlots {
		var next time.Time
		var ok bool
		err := e.cfg.Store.View(ctx, func(x store.Tx) (err error) { next, ok, err = x.NextDue(ctx); return })
		switch {
		case err != nil && ctx.Err() == nil:
			e.cfg.Logger.Warn("finding next due trigger", "err", err)
			deadline = now.Add(time.Second)
		case ok && next.Before(deadline):
			deadline = next
		}
		if !deadline.After(now) {
			return true
		}
	}
	timer := e.cfg.Clock.NewTimerAt(deadline)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-e.wake:
	case <-e.cfg.Store.Wakeups():
	case <-e.freed:
	case <-timer.C():
	}
	return true
}

func (e *Engine) release() {
	<-e.slots
	select {
	case e.freed <- struct{}{}:
	default:
	}
}

func (e *Engine) run(ctx context.Context, t store.Trigger, claimedAt time.Time) {
	defer e.running.Done()
	defer e.release()
	log := e.cfg.Logger.With("trigger", t.Kind, "entity_id", t.EntityID)
	if e.exhausted(t) {
		e.giveUp(ctx, t, log)
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &Claim{Trigger: t, Now: claimedAt, e: e}

	renewDone := make(chan struct{})
	go func() {
		defer close(renewDone)
		e.renew(ctx, r, cancel, log)
	}()
	err := e.call(ctx, r)
	cancel()
	<-renewDone
	e.cfg.Metrics.handled(t.Kind, err, e.cfg.Clock.Now().Sub(claimedAt))

	// The handler's own context may be cancelled (lease lost); the release
	// still goes through on a fresh one unless the lease is gone.
	rctx := context.WithoutCancel(ctx)
	switch {
	case r.finished.Load():
		return
	case err == nil:
		if err := e.cfg.Store.Tx(rctx, func(x store.Tx) error { return x.Release(rctx, t, time.Time{}) }); err != nil {
			e.logReleaseErr(log, err)
		}
	case errors.Is(err, store.ErrLeaseLost):
		log.Warn("lease lost while running; another engine has the trigger", "err", err)
	default:
		retry := e.cfg.Clock.Now().Add(e.cfg.Backoff(t.Attempts))
		log.Warn("trigger handler failed; will retry", "err", err, "attempt", t.Attempts, "retry_at", retry)
		if err := e.cfg.Store.Tx(rctx, func(x store.Tx) error { return x.Fail(rctx, t, retry, err.Error()) }); err != nil {
			e.logReleaseErr(log, err)
		}
	}
}

func (e *Engine) logReleaseErr(log *slog.Logger, err error) {
	if errors.Is(err, store.ErrLeaseLost) {
		log.Warn("lease lost before release; another engine has the trigger")
		return
	}
	log.Error("releasing trigger", "err", err)
}

// call runs the handler, turning a panic into an error.
func (e *Engine) call(ctx context.Context, r *Claim) (err error) {
	h := e.handlers[r.Trigger.Kind]
	if h == nil {
		return fmt.Errorf("no handler for trigger kind %q", r.Trigger.Kind)
	}
	defer func() {
		if p := recover(); p != nil {
			e.cfg.Logger.Error("trigger handler panicked", "trigger", r.Trigger.Kind, "entity_id", r.Trigger.EntityID,
				"panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("handler panicked: %v", p)
		}
	}()
	return h(ctx, r)
}

// renew extends the lease every Lease/3 until ctx ends; a lost lease cancels
// the handler.
func (e *Engine) renew(ctx context.Context, r *Claim, cancel context.CancelFunc, log *slog.Logger) {
	for {
		timer := e.cfg.Clock.NewTimer(e.cfg.Lease / 3)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C():
		}
		until := e.cfg.Clock.Now().Add(e.cfg.Lease)
		err := e.cfg.Store.Tx(ctx, func(x store.Tx) error { return x.RenewLease(ctx, r.Trigger, until) })
		switch {
		case err == nil:
		case errors.Is(err, store.ErrLeaseLost):
			log.Warn("lease lost; cancelling handler")
			cancel()
			return
		case ctx.Err() != nil:
			return
		default:
			log.Warn("renewing lease", "err", err)
		}
	}
}

// Claim is one claimed trigger being handled.
type Claim struct {
	// Trigger is the claimed trigger.
	Trigger store.Trigger
	// Now is the engine's clock when the trigger was claimed.
	Now time.Time
	e   *Engine
	// finished: the trigger was released with the run's writes. Atomic
	// because a batch's lease renewal reads it while the handler runs.
	finished atomic.Bool
	// lost: a renewal found the lease gone (batches only).
	lost atomic.Bool
	// err is why FinishBatch could not finish the run (batches only).
	err error
}

// Finish commits fn's writes and releases the trigger in one transaction:
// the trigger stays due at next, or is deleted when next is zero (a schedule
// that arrived meanwhile still wins). If the lease was lost, nothing of fn is
// committed and the error wraps store.ErrLeaseLost. fn may be nil.
func (r *Claim) Finish(ctx context.Context, next time.Time, fn func(store.Tx) error) error {
	if r.finished.Load() {
		return errors.New("engine: trigger already finished")
	}
	err := r.e.cfg.Store.Tx(ctx, func(x store.Tx) error {
		if fn != nil {
			if err := fn(x); err != nil {
				return err
			}
		}
		return x.Release(ctx, r.Trigger, next)
	})
	if err == nil {
		r.finished.Store(true)
	}
	return err
}

// Clock returns the engine's clock, for handlers.
func (r *Claim) Clock() clock.Clock { return r.e.cfg.Clock }
