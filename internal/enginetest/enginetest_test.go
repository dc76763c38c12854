package enginetest

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/sqlite"
	"github.com/gozie/gozie/workflow"
)

var (
	ctx = context.Background()
	t0  = time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
)

// recorder is a testing.TB that records the first Fatal instead of stopping.
type recorder struct {
	testing.TB
	mu  sync.Mutex
	msg string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.msg == "" {
		r.msg = fmt.Sprintf(format, args...)
	}
}

func openStore(t *testing.T) store.Store {
	t.Helper()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "gozie.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestSettleWaitsForDueWorkAndIgnoresUnhandledKinds(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	now := t0
	short := testwait.Poll{Timeout: 50 * time.Millisecond}
	set := Settler{Store: s, Now: func() time.Time { return now }, Poll: short,
		Unhandled: func() []store.TriggerKind { return []store.TriggerKind{store.KindSLADeadline} }}
	set.Settle(t) // an empty queue is settled
	if err := s.Tx(ctx, func(x store.Tx) error {
		if err := x.Schedule(ctx, store.KindSLADeadline, "sla", t0, ""); err != nil {
			return err
		}
		return x.Schedule(ctx, "k", "a", t0.Add(time.Hour), "")
	}); err != nil {
		t.Fatal(err)
	}
	set.Settle(t) // an SLA deadline nobody handles, and work not yet due
	now = t0.Add(time.Hour)
	r := &recorder{TB: t}
	set.Settle(r)
	if !strings.Contains(r.msg, "the engine to settle") || !strings.Contains(r.msg, "k/a") {
		t.Fatalf("settling with due work: %q, want a timeout naming trigger k/a", r.msg)
	}
}

func TestSettleFailsOnAFailedTrigger(t *testing.T) {
	t.Parallel()
	s := openStore(t)
	if err := s.Tx(ctx, func(x store.Tx) error { return x.Schedule(ctx, "k", "bad", t0, "") }); err != nil {
		t.Fatal(err)
	}
	claimed, err := s.ClaimTriggers(ctx, store.ClaimRequest{Owner: "o", Now: t0, LeaseUntil: t0.Add(time.Minute), Limit: 1})
	if err != nil || len(claimed) != 1 {
		t.Fatalf("claim: %v %+v", err, claimed)
	}
	if err := s.Tx(ctx, func(x store.Tx) error { return x.Fail(ctx, claimed[0], t0.Add(time.Hour), "boom") }); err != nil {
		t.Fatal(err)
	}
	set := Settler{Store: s, Now: func() time.Time { return t0 }}
	r := &recorder{TB: t}
	set.Settle(r)
	if !strings.Contains(r.msg, "k/bad failed: boom") {
		t.Fatalf("settling over a failed trigger: %q", r.msg)
	}
	set.AllowErrors = true
	set.Settle(t)
}

func TestScriptedEndsAttemptsAsTold(t *testing.T) {
	t.Parallel()
	e := NewScripted(false)
	a := &actions.Attempt{JobID: "wf-1", Tag: "t1"}
	if st, _ := e.Start(ctx, a); st.Done || st.ExternalID != "ext-t1" {
		t.Fatalf("start: %+v, want a running attempt", st)
	}
	if st, _ := e.Check(ctx, a); st.Done {
		t.Fatalf("check before End: %+v", st)
	}
	e.End("t1", actions.Status{Done: true, Outcome: workflow.OutcomeOK})
	if st, _ := e.Check(ctx, a); !st.Done || st.Outcome != workflow.OutcomeOK {
		t.Fatalf("check after End: %+v", st)
	}
	if run, ok := e.RunOf("wf-1"); !ok || run.Tag != "t1" || len(e.Started()) != 1 {
		t.Fatalf("RunOf: %+v %v", run, ok)
	}
	b := &actions.Attempt{JobID: "wf-2", Tag: "t2"}
	_, _ = e.Start(ctx, b)
	_ = e.Kill(ctx, b)
	if st, _ := e.Check(ctx, b); !e.WasKilled("t2") || st.Outcome != workflow.OutcomeError || st.ExternalStatus != "KILLED" {
		t.Fatalf("after Kill: %+v", st)
	}
	if st, _ := NewScripted(true).Start(ctx, a); !st.Done || st.Outcome != workflow.OutcomeOK {
		t.Fatalf("auto start: %+v", st)
	}
}
