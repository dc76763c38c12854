package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/store"
)

// gaveUp records the calls of a GiveUp handler.
type gaveUp struct {
	mu     sync.Mutex
	causes map[string]string // entity → cause
	done   chan string
}

func newGaveUp() *gaveUp { return &gaveUp{causes: map[string]string{}, done: make(chan string, 16)} }

func (g *gaveUp) handler(ctx context.Context, x store.Tx, t store.Trigger, cause string) error {
	g.mu.Lock()
	g.causes[t.EntityID] = cause
	g.mu.Unlock()
	g.done <- t.EntityID
	return nil
}

func (g *gaveUp) cause(entity string) (string, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	c, ok := g.causes[entity]
	return c, ok
}

func triggerOf(t *testing.T, s store.Store, kind store.TriggerKind, entity string) (store.Trigger, error) {
	t.Helper()
	var tr store.Trigger
	err := s.Tx(context.Background(), func(x store.Tx) (err error) {
		tr, err = x.GetTrigger(context.Background(), kind, entity)
		return
	})
	return tr, err
}

// A handler that keeps failing on one entity runs MaxAttempts times; then
// the engine gives up: the kind's GiveUp ends the entity with the last
// error, and the trigger is gone for good.
func TestGiveUpAfterMaxAttempts(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		fake := clock.NewFake(t0)
		var calls atomic.Int32
		e := engine.New(engine.Config{Store: s, Clock: fake, Logger: quietLogger(), MaxSleep: time.Hour, MaxAttempts: 3,
			Backoff: func(int) time.Duration { return 0 }})
		e.Handle("coord-status", func(ctx context.Context, r *engine.Claim) error {
			n := calls.Add(1)
			if r.Trigger.Attempts != int(n) {
				return fmt.Errorf("claim %d counted %d attempts", n, r.Trigger.Attempts)
			}
			return fmt.Errorf("poison #%d", n)
		})
		g := newGaveUp()
		e.HandleGiveUp("coord-status", g.handler)
		schedule(t, s, "coord-status", "C1", t0)
		start(t, e)

		if got := <-g.done; got != "C1" {
			t.Fatalf("gave up on %s", got)
		}
		testwait.WaitFor(t, testwait.Timeout, "the trigger to be removed", func() bool {
			_, err := triggerOf(t, s, "coord-status", "C1")
			return errors.Is(err, store.ErrNotFound)
		})
		cause, _ := g.cause("C1")
		if n := calls.Load(); n != 3 {
			t.Fatalf("the handler ran %d times, want 3 (MaxAttempts)", n)
		}
		if !strings.Contains(cause, "after 3 attempts") || !strings.Contains(cause, "poison #3") {
			t.Fatalf("cause %q", cause)
		}
	})
}

// A trigger whose server dies while running it (an out-of-memory kill, a
// crash on restart) records no failure, yet each claim counts: after
// MaxAttempts dead servers the next one gives up on it without running its
// handler, and goes on with its other work.
func TestGiveUpOnATriggerThatKeepsKillingItsServer(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		schedule(t, s, "coord-materialize", "C-poison", t0)
		now := t0
		for i := 1; i <= 3; i++ { // three servers claim it and die
			ts, err := s.ClaimTriggers(context.Background(), store.ClaimRequest{Owner: fmt.Sprintf("dead-%d", i), Now: now,
				LeaseUntil: now.Add(30 * time.Second), Limit: 1})
			if err != nil || len(ts) != 1 || ts[0].Attempts != i {
				t.Fatalf("dead server %d: %+v %v", i, ts, err)
			}
			now = now.Add(time.Minute)
		}
		schedule(t, s, "coord-materialize", "C-fine", t0)
		fake := clock.NewFake(now)
		ran := make(chan string, 4)
		e := engine.New(engine.Config{Store: s, Clock: fake, Logger: quietLogger(), MaxSleep: time.Hour, MaxAttempts: 3})
		e.HandleBatch("coord-materialize", 10, func(ctx context.Context, runs []*engine.Claim) error {
			for _, r := range runs {
				ran <- r.Trigger.EntityID
			}
			return nil
		})
		g := newGaveUp()
		e.HandleGiveUp("coord-materialize", g.handler)
		start(t, e)

		if got := <-g.done; got != "C-poison" {
			t.Fatalf("gave up on %s", got)
		}
		if got := <-ran; got != "C-fine" {
			t.Fatalf("ran %s", got)
		}
		cause, _ := g.cause("C-poison")
		if !strings.Contains(cause, "after 3 attempts") || !strings.Contains(cause, "the server stopped while running it") {
			t.Fatalf("cause %q", cause)
		}
		testwait.WaitFor(t, testwait.Timeout, "both triggers to go", func() bool {
			var n int
			_ = s.Tx(context.Background(), func(x store.Tx) (err error) { n, err = x.CountTriggers(context.Background()); return })
			return n == 0
		})
		select {
		case id := <-ran:
			t.Fatalf("ran %s after giving up", id)
		default:
		}
	})
}

// A trigger of a batch kind that failed before, or whose server died
// holding it, runs alone: if it is poison, it uses up its own attempts,
// never those of the triggers it was batched with.
func TestSuspectTriggerOfABatchKindRunsAlone(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		schedule(t, s, "m", "e0", t0.Add(-time.Minute))
		if ts, err := s.ClaimTriggers(context.Background(), store.ClaimRequest{Owner: "dead", Now: t0,
			LeaseUntil: t0.Add(30 * time.Second), Limit: 1}); err != nil || len(ts) != 1 {
			t.Fatalf("claim: %+v %v", ts, err)
		}
		for i := 1; i <= 5; i++ {
			schedule(t, s, "m", fmt.Sprintf("e%d", i), t0)
		}
		fake := clock.NewFake(t0.Add(time.Minute))
		batches := make(chan []string, 10)
		e := engine.New(engine.Config{Store: s, Clock: fake, Logger: quietLogger(), MaxSleep: time.Hour, Workers: 1})
		e.HandleBatch("m", 10, func(ctx context.Context, runs []*engine.Claim) error {
			var ids []string
			for _, r := range runs {
				ids = append(ids, r.Trigger.EntityID)
			}
			batches <- ids
			return nil
		})
		start(t, e)
		seen := 0
		for seen < 6 {
			ids := <-batches
			seen += len(ids)
			for _, id := range ids {
				if id == "e0" && len(ids) != 1 {
					t.Fatalf("the suspect trigger ran in the batch %v", ids)
				}
			}
		}
	})
}

// A kind without a GiveUp handler is work on the outside world: an outage (its handler
// returning errors) is retried past MaxAttempts for as long as it lasts, and the trigger
// runs again when the outage ends.
func TestOutageOfAKindWithoutGiveUpIsRiddenOut(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		fake := clock.NewFake(t0)
		var calls atomic.Int32
		healed := make(chan struct{})
		e := engine.New(engine.Config{Store: s, Clock: fake, Logger: quietLogger(), MaxSleep: time.Hour, MaxAttempts: 3,
			Backoff: func(int) time.Duration { return 0 }})
		e.Handle("wf-poll", func(ctx context.Context, r *engine.Claim) error {
			if n := calls.Add(1); n <= 7 {
				return fmt.Errorf("the ResourceManager is down (#%d)", n)
			}
			close(healed)
			return nil
		})
		schedule(t, s, "wf-poll", "poll", t0)
		start(t, e)
		testwait.WaitFor(t, testwait.Timeout, "the poll to succeed after the outage", func() bool {
			select {
			case <-healed:
				return true
			default:
				return false
			}
		})
		if n := calls.Load(); n != 8 {
			t.Fatalf("the handler ran %d times, want 8: seven failures past MaxAttempts 3, then success", n)
		}
	})
}
