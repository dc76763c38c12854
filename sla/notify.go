package sla

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/store"
)

// Notification is one judged event with the registration it belongs to, as
// notifiers receive it. What was judged (event, SLA status, job status,
// expected and actual times) is read from Event, which keeps it as it was
// at the judgment; SLA gives what describes the registration (names, user,
// nominal time, message, contacts, alerts), read at delivery.
type Notification struct {
	Event store.SLAEvent
	SLA   store.SLA
}

// Notifier delivers judged events somewhere (a webhook, email). Notify owns
// its retries; an error it returns is logged and counted, and the event is
// not offered again.
type Notifier interface {
	// Name names the notifier in logs and metrics ("webhook", "email").
	Name() string
	// Wants reports whether the notifier sends n.
	Wants(n Notification) bool
	// Notify sends n.
	Notify(ctx context.Context, n Notification) error
}

// handleEvent delivers one judged event (sla-event trigger): it is counted
// in the metrics and handed to every notifier that wants it. The trigger
// is written in the transaction that judged the event, so every event is
// delivered at least once, after its judgment committed.
func (s *Service) handleEvent(ctx context.Context, run *engine.Claim) error {
	seq, err := strconv.ParseInt(run.Trigger.EntityID, 10, 64)
	if err != nil {
		s.log.Error("SLA event trigger with a bad entity id; dropped", "entity_id", run.Trigger.EntityID)
		return nil
	}
	var n Notification
	err = s.tx(ctx, func(x store.Tx) (err error) {
		if n.Event, err = x.GetSLAEvent(ctx, seq); err != nil {
			return err
		}
		n.SLA, err = x.GetSLA(ctx, n.Event.SLAID)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil // purged meanwhile
	}
	if err != nil {
		return err
	}
	s.m.observe(n.SLA, n.Event)
	for _, nt := range s.cfg.Notifiers {
		if !nt.Wants(n) {
			continue
		}
		if err := nt.Notify(ctx, n); err != nil {
			s.m.notifications.WithLabelValues(nt.Name(), "failed").Inc()
			s.log.Warn("SLA notification failed", "notifier", nt.Name(), "sla_id", n.SLA.ID,
				"event", n.Event.EventStatus, "err", err)
			continue
		}
		s.m.notifications.WithLabelValues(nt.Name(), "sent").Inc()
	}
	return nil
}

// Retry describes how a notifier retries a failed delivery.
type Retry struct {
	// Attempts is how many times delivery is tried in all; default 5.
	Attempts int
	// Backoff is the delay after the first failure, doubled after each
	// further one up to MaxBackoff; defaults 1s and 1m.
	Backoff    time.Duration
	MaxBackoff time.Duration
	// Clock times the delays; default clock.Real{}.
	Clock clock.Clock
}

func (r Retry) withDefaults() Retry {
	if r.Attempts <= 0 {
		r.Attempts = 5
	}
	if r.Backoff <= 0 {
		r.Backoff = time.Second
	}
	if r.MaxBackoff <= 0 {
		r.MaxBackoff = time.Minute
	}
	if r.MaxBackoff < r.Backoff {
		r.MaxBackoff = r.Backoff
	}
	if r.Clock == nil {
		r.Clock = clock.Real{}
	}
	return r
}

// permanent marks a failure that another attempt cannot fix.
type permanent struct{ err error }

func (p permanent) Error() string { return p.err.Error() }
func (p permanent) Unwrap() error { return p.err }

// do runs fn until it succeeds, fails permanently, the attempts are spent
// or ctx ends, waiting the backoff between attempts.
func (r Retry) do(ctx context.Context, fn func(ctx context.Context) error) error {
	r = r.withDefaults()
	delay := r.Backoff
	var err error
	for attempt := 1; ; attempt++ {
		if err = fn(ctx); err == nil {
			return nil
		}
		var p permanent
		if errors.As(err, &p) || attempt >= r.Attempts {
			return err
		}
		t := r.Clock.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return errors.Join(err, ctx.Err())
		case <-t.C():
		}
		if delay *= 2; delay > r.MaxBackoff {
			delay = r.MaxBackoff
		}
	}
}
