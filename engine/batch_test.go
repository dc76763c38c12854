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

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/store"
)

// scheduleMany schedules n triggers of kind, entities e000, e001, ...
func scheduleMany(t *testing.T, s store.Store, kind store.TriggerKind, n int, due time.Time) {
	t.Helper()
	err := s.Tx(context.Background(), func(x store.Tx) error {
		for i := 0; i < n; i++ {
			if err := x.Schedule(context.Background(), kind, fmt.Sprintf("e%03d", i), due, ""); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// insertJobs is a FinishBatch function that records each run's work as a
// coordinator job named prefix+entity.
func insertJobs(ctx context.Context, prefix string) func(store.Tx, []*engine.Claim) ([]time.Time, error) {
	return func(x store.Tx, runs []*engine.Claim) ([]time.Time, error) {
		for _, r := range runs {
			j := store.CoordJob{ID: prefix + r.Trigger.EntityID, Status: store.JobRunning, ExecutionOrder: "FIFO",
				CreatedTime: r.Now}
			if err := x.InsertCoordJob(ctx, &j); err != nil {
				return nil, err
			}
		}
		return nil, nil
	}
}

// jobIDs lists the coordinator jobs in the store.
func jobIDs(t *testing.T, s store.Store) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	err := s.Tx(context.Background(), func(x store.Tx) error {
		jobs, _, err := x.ListCoordJobs(context.Background(), store.JobFilter{})
		for _, j := range jobs {
			out[j.ID] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func countTriggers(t *testing.T, s store.Store) int {
	t.Helper()
	var n int
	if err := s.Tx(context.Background(), func(x store.Tx) (err error) { n, err = x.CountTriggers(context.Background()); return }); err != nil {
		t.Fatal(err)
	}
	return n
}

func getTrigger(t *testing.T, s store.Store, kind store.TriggerKind, id string) (store.Trigger, error) {
	t.Helper()
	var tr store.Trigger
	err := s.Tx(context.Background(), func(x store.Tx) (err error) { tr, err = x.GetTrigger(context.Background(), kind, id); return })
	return tr, err
}

// TestBatchHandlerFinishesManyTriggersTogether: the engine hands due
// triggers of a batch kind to its handler up to max at a time; FinishBatch
// commits every run's work with its release; each trigger runs once and is
// counted in the metrics on its own.
func TestBatchHandlerFinishesManyTriggersTogether(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		const n, limit = 250, 100
		scheduleMany(t, s, "m", n, t0)
		reg := prometheus.NewRegistry()
		var mu sync.Mutex
		var sizes []int
		seen := map[string]int{}
		e := engine.New(engine.Config{Store: s, Clock: clock.NewFake(t0), Logger: quietLogger(),
			Metrics: engine.NewMetrics(reg), MaxSleep: time.Hour})
		e.HandleBatch("m", limit, func(ctx context.Context, runs []*engine.Claim) error {
			mu.Lock()
			sizes = append(sizes, len(runs))
			for _, r := range runs {
				seen[r.Trigger.EntityID]++
			}
			mu.Unlock()
			return engine.FinishBatch(ctx, runs, insertJobs(ctx, "J-"))
		})
		start(t, e)
		testwait.WaitFor(t, testwait.Timeout, "every trigger to be finished", func() bool { return countTriggers(t, s) == 0 })
		e.Stop()
		mu.Lock()
		defer mu.Unlock()
		if len(seen) != n {
			t.Fatalf("%d triggers handled, want %d", len(seen), n)
		}
		for id, k := range seen {
			if k != 1 {
				t.Fatalf("%s handled %d times", id, k)
			}
		}
		most := 0
		for _, k := range sizes {
			if k > limit {
				t.Fatalf("a batch of %d triggers, more than %d", k, limit)
			}
			most = max(most, k)
		}
		if most < 2 || len(sizes) >= n {
			t.Fatalf("batches of %v: triggers were not handed over together", sizes)
		}
		if jobs := jobIDs(t, s); len(jobs) != n || !jobs["J-e000"] || !jobs["J-e249"] {
			t.Fatalf("%d jobs written, want %d", len(jobs), n)
		}
		if got := counterValue(t, reg, "gozie_triggers_total", "m", "ok"); got != n {
			t.Fatalf("metrics count %v triggers handled, want %d", got, n)
		}
	})
}

// TestBatchesNeverExceedTheirMax: when one claim returns more triggers of
// a batch kind than a batch takes, they are split into batches of at most
// max, each in its own worker slot.
func TestBatchesNeverExceedTheirMax(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		const n, limit = 40, 3
		scheduleMany(t, s, "m", n, t0)
		var mu sync.Mutex
		var sizes []int
		handled := 0
		e := engine.New(engine.Config{Store: s, Clock: clock.NewFake(t0), Logger: quietLogger(), MaxSleep: time.Hour})
		e.HandleBatch("m", limit, func(ctx context.Context, runs []*engine.Claim) error {
			mu.Lock()
			sizes = append(sizes, len(runs))
			handled += len(runs)
			mu.Unlock()
			return nil
		})
		start(t, e)
		testwait.WaitFor(t, testwait.Timeout, "every trigger to be handled", func() bool { return countTriggers(t, s) == 0 })
		e.Stop()
		mu.Lock()
		defer mu.Unlock()
		if handled != n {
			t.Fatalf("%d triggers handled, want %d", handled, n)
		}
		for _, k := range sizes {
			if k > limit {
				t.Fatalf("batches of %v: one is larger than %d", sizes, limit)
			}
		}
	})
}

// counterValue reads the counter name{kind, outcome} from reg.
func counterValue(t *testing.T, reg *prometheus.Registry, name, kind, outcome string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["kind"] == kind && labels["outcome"] == outcome {
				return m.GetCounter().GetValue()
			}
		}
	}
	t.Fatalf("no %s{kind=%q,outcome=%q}", name, kind, outcome)
	return 0
}

// TestFinishBatchFallsBackOneByOne: a run whose work conflicts does not
// sink the batch. The whole transaction fails, the runs are finished one
// by one; a conflict that goes away on a second try commits, a run that
// keeps failing is retried by the engine with its own error, and every
// other run commits once.
func TestFinishBatchFallsBackOneByOne(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		scheduleMany(t, s, "m", 5, t0)
		// e001's job exists already: inserting it is a conflict, every time.
		if err := s.Tx(context.Background(), insertJobsTx("J-e001")); err != nil {
			t.Fatal(err)
		}
		var flaky atomic.Int32 // e003 conflicts on its first try only
		var mu sync.Mutex
		var firstBatch []string
		var batchErr error
		done := make(chan struct{})
		fake := clock.NewFake(t0)
		e := engine.New(engine.Config{Store: s, Clock: fake, Logger: quietLogger(), MaxSleep: time.Hour,
			Backoff: func(int) time.Duration { return time.Hour }})
		e.HandleBatch("m", 10, func(ctx context.Context, runs []*engine.Claim) error {
			ins := insertJobs(ctx, "J-")
			err := engine.FinishBatch(ctx, runs, func(x store.Tx, part []*engine.Claim) ([]time.Time, error) {
				for _, r := range part {
					if r.Trigger.EntityID == "e003" && flaky.Add(1) == 1 {
						return nil, fmt.Errorf("row moved: %w", store.ErrConflict)
					}
				}
				return ins(x, part)
			})
			mu.Lock()
			defer mu.Unlock()
			if firstBatch == nil {
				for _, r := range runs {
					firstBatch = append(firstBatch, r.Trigger.EntityID)
				}
				batchErr = err
				close(done)
			}
			return err
		})
		start(t, e)
		<-done
		testwait.WaitFor(t, testwait.Timeout, "the runs to be settled", func() bool {
			tr, err := getTrigger(t, s, "m", "e001")
			return countTriggers(t, s) == 1 && err == nil && tr.LeaseOwner == ""
		})
		mu.Lock()
		if len(firstBatch) != 5 {
			t.Fatalf("first batch %v, want all five", firstBatch)
		}
		if !errors.Is(batchErr, store.ErrConflict) || !strings.Contains(batchErr.Error(), "e001") || strings.Contains(batchErr.Error(), "e003") {
			t.Fatalf("FinishBatch returned %v, want e001's conflict only", batchErr)
		}
		mu.Unlock()
		jobs := jobIDs(t, s)
		for _, id := range []string{"J-e000", "J-e001", "J-e002", "J-e003", "J-e004"} {
			if !jobs[id] {
				t.Errorf("%s not written", id)
			}
		}
		tr, err := getTrigger(t, s, "m", "e001")
		if err != nil || tr.Attempts != 1 || !strings.Contains(tr.LastError, "conflict") || !tr.DueAt.Equal(t0.Add(time.Hour)) {
			t.Fatalf("the conflicting trigger after the batch: %+v %v", tr, err)
		}
	})
}

func insertJobsTx(ids ...string) func(store.Tx) error {
	return func(x store.Tx) error {
		for _, id := range ids {
			j := store.CoordJob{ID: id, Status: store.JobRunning, ExecutionOrder: "FIFO", CreatedTime: t0}
			if err := x.InsertCoordJob(context.Background(), &j); err != nil {
				return err
			}
		}
		return nil
	}
}

// TestStalledBatchLosesTakenOverTriggers: a batch handler stalls past its
// lease and another engine takes one of its triggers over. When the stalled
// one finishes, nothing of its work on the taken trigger is committed (its
// release fails), while its other runs, still leased to it, commit.
func TestStalledBatchLosesTakenOverTriggers(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		scheduleMany(t, s, "m", 3, t0)
		entered, resume := make(chan []*engine.Claim), make(chan struct{})
		finished := make(chan error, 1)
		a := engine.New(engine.Config{Store: s, Clock: clock.NewFake(t0), Logger: quietLogger(), Owner: "a",
			Lease: 5 * time.Second, MaxSleep: time.Hour, Backoff: func(int) time.Duration { return time.Hour }})
		a.HandleBatch("m", 10, func(ctx context.Context, runs []*engine.Claim) error {
			entered <- runs
			<-resume
			err := engine.FinishBatch(ctx, runs, insertJobs(ctx, "A-"))
			finished <- err
			return err
		})
		start(t, a)
		runs := <-entered
		if len(runs) != 3 {
			t.Fatalf("batch of %d, want 3", len(runs))
		}
		// Another server, past the lease, takes one trigger over.
		later := t0.Add(10 * time.Second)
		stolen, err := s.ClaimTriggers(context.Background(), store.ClaimRequest{Owner: "b", Now: later,
			LeaseUntil: later.Add(time.Minute), Limit: 1, Kinds: []store.TriggerKind{"m"}})
		if err != nil || len(stolen) != 1 {
			t.Fatalf("takeover: %v %v", stolen, err)
		}
		close(resume)
		if err := <-finished; !errors.Is(err, store.ErrLeaseLost) {
			t.Fatalf("FinishBatch after a takeover: %v, want a lost lease", err)
		}
		a.Stop()
		jobs := jobIDs(t, s)
		if jobs["A-"+stolen[0].EntityID] || len(jobs) != 2 {
			t.Fatalf("jobs after the stalled batch: %v, want the two it still held", jobs)
		}
		for _, r := range runs {
			if r.Trigger.EntityID == stolen[0].EntityID {
				if r.Finished() || !errors.Is(r.Err(), store.ErrLeaseLost) {
					t.Fatalf("taken-over run: finished %v, err %v", r.Finished(), r.Err())
				}
			} else if !r.Finished() {
				t.Fatalf("run %s not finished: %v", r.Trigger.EntityID, r.Err())
			}
		}
		tr, err := getTrigger(t, s, "m", stolen[0].EntityID)
		if err != nil || tr.LeaseOwner != "b" || tr.LeaseSeq != 2 {
			t.Fatalf("the taken-over trigger: %+v %v, want still b's", tr, err)
		}
		if n := countTriggers(t, s); n != 1 {
			t.Fatalf("%d triggers left, want the taken-over one", n)
		}
	})
}

// TestBatchLeasesAreRenewed: while a batch handler runs, the leases of its
// unfinished triggers are renewed every third of the lease.
func TestBatchLeasesAreRenewed(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		scheduleMany(t, s, "m", 2, t0)
		fake := clock.NewFake(t0)
		entered, resume := make(chan struct{}), make(chan struct{})
		e := engine.New(engine.Config{Store: s, Clock: fake, Logger: quietLogger(), Lease: 30 * time.Second,
			MaxSleep: time.Hour})
		e.HandleBatch("m", 10, func(ctx context.Context, runs []*engine.Claim) error {
			close(entered)
			<-resume
			return nil
		})
		start(t, e)
		<-entered
		renewAt := t0.Add(10 * time.Second)
		waitTimerAt(t, fake, renewAt)
		fake.Set(renewAt)
		testwait.WaitFor(t, testwait.Timeout, "the leases to be renewed", func() bool {
			for _, id := range []string{"e000", "e001"} {
				tr, err := getTrigger(t, s, "m", id)
				if err != nil || !tr.LeaseExpires.Equal(renewAt.Add(30*time.Second)) {
					return false
				}
			}
			return true
		})
		close(resume)
		// Returning nil without finishing deletes the triggers.
		testwait.WaitFor(t, testwait.Timeout, "the triggers to be deleted", func() bool { return countTriggers(t, s) == 0 })
	})
}

// TestBatchHandlerErrorsAndPanics: a batch handler's error fails every run
// it left unfinished (each retried after its backoff, with the error
// recorded), and a panic is such an error.
func TestBatchHandlerErrorsAndPanics(t *testing.T) {
	for _, tc := range []struct {
		name    string
		handler engine.BatchHandler
		want    string
	}{
		{"error", func(ctx context.Context, runs []*engine.Claim) error {
			// One run is finished on its own first; only the others fail.
			if err := runs[0].Finish(ctx, time.Time{}, nil); err != nil {
				return err
			}
			return errors.New("NameNode unreachable")
		}, "NameNode unreachable"},
		{"panic", func(ctx context.Context, runs []*engine.Claim) error {
			if err := runs[0].Finish(ctx, time.Time{}, nil); err != nil {
				return err
			}
			panic("bug in batch handler")
		}, "handler panicked: bug in batch handler"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eachBackend(t, func(t *testing.T, b backend) {
				s := b.open(t)
				scheduleMany(t, s, "m", 3, t0)
				e := engine.New(engine.Config{Store: s, Clock: clock.NewFake(t0), Logger: quietLogger(), MaxSleep: time.Hour,
					Backoff: func(int) time.Duration { return time.Minute }})
				e.HandleBatch("m", 10, tc.handler)
				start(t, e)
				failed := func() int {
					n := 0
					for i := 0; i < 3; i++ {
						if tr, err := getTrigger(t, s, "m", fmt.Sprintf("e%03d", i)); err == nil && tr.Attempts == 1 && tr.LeaseOwner == "" {
							n++
						}
					}
					return n
				}
				testwait.WaitFor(t, testwait.Timeout, "two failed triggers", func() bool { return failed() == 2 && countTriggers(t, s) == 2 })
				for i := 0; i < 3; i++ {
					tr, err := getTrigger(t, s, "m", fmt.Sprintf("e%03d", i))
					if err != nil {
						continue // the one finished
					}
					if tr.LastError != tc.want || !tr.DueAt.Equal(t0.Add(time.Minute)) {
						t.Fatalf("failed trigger: %+v", tr)
					}
				}
			})
		})
	}
}

// TestHeldBatchKindWaits: SAFEMODE's Hold applies to batch kinds.
func TestHeldBatchKindWaits(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		s := b.open(t)
		fake := clock.NewFake(t0)
		ran := make(chan store.TriggerKind, 10)
		e := engine.New(engine.Config{Store: s, Clock: fake, Logger: quietLogger(), MaxSleep: time.Hour})
		e.HandleBatch("coord-materialize", 10, func(ctx context.Context, runs []*engine.Claim) error {
			ran <- runs[0].Trigger.Kind
			return nil
		})
		e.Handle("wf-action-check", func(ctx context.Context, r *engine.Claim) error { ran <- r.Trigger.Kind; return nil })
		e.Hold("coord-materialize")
		schedule(t, s, "coord-materialize", "C1", t0)
		start(t, e)
		schedule(t, s, "wf-action-check", "W@a", t0)
		if got := <-ran; got != "wf-action-check" {
			t.Fatalf("ran %s while it was held", got)
		}
		select {
		case got := <-ran:
			t.Fatalf("ran held %s", got)
		default:
		}
		e.Hold()
		select {
		case got := <-ran:
			if got != "coord-materialize" {
				t.Fatal(got)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("the held batch kind did not run after release")
		}
	})
}

// TestTwoEnginesNeverRunABatchedTriggerTwice: two engines claim one batch
// kind's triggers in batches; each trigger runs exactly once.
func TestTwoEnginesNeverRunABatchedTriggerTwice(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		n := 2000
		if raceEnabled && b.name == "sqlite" {
			n = 300
		}
		s1 := b.open(t)
		s2 := s1
		if b.name == "postgres" {
			s2 = b.open(t)
		}
		scheduleMany(t, s1, "m", n, time.Now())
		var mu sync.Mutex
		runs := map[string]string{}
		var dups []string
		for i, s := range []store.Store{s1, s2} {
			owner := fmt.Sprintf("server%d", i+1)
			e := engine.New(engine.Config{Store: s, Logger: quietLogger(), Owner: owner, Workers: 4})
			e.HandleBatch("m", 50, func(ctx context.Context, batch []*engine.Claim) error {
				mu.Lock()
				for _, r := range batch {
					if prev, ok := runs[r.Trigger.EntityID]; ok {
						dups = append(dups, fmt.Sprintf("%s by %s and %s", r.Trigger.EntityID, prev, owner))
					}
					runs[r.Trigger.EntityID] = owner
				}
				mu.Unlock()
				return engine.FinishBatch(ctx, batch, func(store.Tx, []*engine.Claim) ([]time.Time, error) { return nil, nil })
			})
			start(t, e)
		}
		testwait.WaitFor(t, testwait.Timeout, "all triggers to run", func() bool { return countTriggers(t, s1) == 0 })
		mu.Lock()
		defer mu.Unlock()
		if len(dups) > 0 {
			t.Fatalf("%d triggers ran twice, e.g. %s", len(dups), dups[0])
		}
		if len(runs) != n {
			t.Fatalf("ran %d distinct triggers, want %d", len(runs), n)
		}
	})
}

// TestBatchKindRegisteredTwicePanics: a kind has one handler.
func TestBatchKindRegisteredTwicePanics(t *testing.T) {
	e := engine.New(engine.Config{Logger: quietLogger()})
	e.Handle("k", func(context.Context, *engine.Claim) error { return nil })
	defer func() {
		if recover() == nil {
			t.Fatal("registering a batch handler for a kind with a handler did not panic")
		}
	}()
	e.HandleBatch("k", 10, func(context.Context, []*engine.Claim) error { return nil })
}
