package coordrun

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// statusCounts reads how many of a job's actions run (SUBMITTED, RUNNING)
// and are queued (WAITING, READY), and how many there are, in one
// statement.
func statusCounts(st store.Store, jobID string) (running, queued, total int, err error) {
	var counts map[store.CoordActionStatus]int
	err = st.Tx(bg, func(x store.Tx) (err error) { counts, err = x.CountCoordActions(bg, jobID); return })
	for s, n := range counts {
		switch s {
		case store.CoordActionSubmitted, store.CoordActionRunning:
			running += n
		case store.CoordActionWaiting, store.CoordActionReady:
			queued += n
		}
		total += n
	}
	return running, queued, total, err
}

// sampler reads a job's counts over and over while the engine works, and
// keeps the largest it saw.
type sampler struct {
	stop                  chan struct{}
	done                  chan struct{}
	mu                    sync.Mutex
	maxRunning, maxQueued int
	samples               int
	err                   error
}

func sample(st store.Store, jobID string) *sampler {
	s := &sampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for {
			select {
			case <-s.stop:
				return
			default:
			}
			running, queued, _, err := statusCounts(st, jobID)
			s.mu.Lock()
			if err != nil && s.err == nil {
				s.err = err
			}
			s.maxRunning, s.maxQueued = max(s.maxRunning, running), max(s.maxQueued, queued)
			s.samples++
			s.mu.Unlock()
			time.Sleep(time.Millisecond) // pacing the samples, not a condition
		}
	}()
	return s
}

func (s *sampler) finish() (maxRunning, maxQueued, samples int, err error) {
	close(s.stop)
	<-s.done
	return s.maxRunning, s.maxQueued, s.samples, s.err
}

// TestYearLongBackfillIsHeldByTheThrottle: a one-minute coordinator that
// starts a year back, with concurrency 50 and the default throttle (12),
// and actions that need no input (READY at once). It never holds more than
// 50 running actions plus 12 queued ones: materialization advances as
// actions finish, never further (Oozie's throttle counts WAITING actions
// only, so this job would materialize the whole year as READY actions).
func TestYearLongBackfillIsHeldByTheThrottle(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			now := time.Date(2011, 1, 1, 0, 0, 0, 0, time.UTC)
			w := setup(t, options{now: now, postgres: backend == "postgres"})
			w.patience = 5 * time.Minute // a slow machine (-race): 62 workflows start at once
			const concurrency, throttle = 50, 12
			if coordinator.DefaultSettings().DefaultThrottle != throttle {
				t.Fatal("the default throttle changed")
			}
			app := w.app("backfill", coordXML("${coord:minutes(1)}", "2010-01-01T00:00Z", "2011-01-01T00:00Z",
				fmt.Sprintf("<concurrency>%d</concurrency>", concurrency), false))
			s := sample(w.store, "")
			id := w.submit(w.props(app))
			s.finish()
			s = sample(w.store, id)
			check := func(round, succeeded int) {
				t.Helper()
				running, queued, total, err := statusCounts(w.store, id)
				if err != nil {
					t.Fatal(err)
				}
				if running != concurrency || queued != throttle || total != concurrency+throttle+succeeded {
					t.Fatalf("round %d: %d running, %d queued, %d actions; want %d running, %d queued, %d actions",
						round, running, queued, total, concurrency, throttle, concurrency+throttle+succeeded)
				}
			}
			w.settle()
			check(0, 0)
			succeeded := 0
			for round := 1; round <= 3; round++ {
				var running []store.CoordAction
				for _, a := range w.actions(id) {
					if a.Status == store.CoordActionRunning {
						running = append(running, a)
					}
				}
				for _, a := range running[:30] {
					w.complete(a.ID, workflow.OutcomeOK)
				}
				succeeded += 30
				w.waitFor("the finished actions to succeed", func() bool {
					return w.countActionsIn(store.CoordActionSucceeded) == succeeded
				})
				w.settle()
				check(round, succeeded)
			}
			maxRunning, maxQueued, samples, err := s.finish()
			if err != nil {
				t.Fatal(err)
			}
			if maxRunning > concurrency || maxQueued > throttle {
				t.Fatalf("over %d samples, up to %d running and %d queued actions; want at most %d and %d",
					samples, maxRunning, maxQueued, concurrency, throttle)
			}
			if j := w.job(id); j.LastActionNumber != concurrency+throttle+succeeded || j.DoneMaterialization {
				t.Fatalf("job materialized up to %d (done %v)", j.LastActionNumber, j.DoneMaterialization)
			}
		})
	}
}

// TestKillInBatches: killing a coordinator with thousands of unfinished
// actions kills a batch in the command's transaction, and the rest a batch
// per transaction (coord-kill), never holding more than a batch of rows.
func TestKillInBatches(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			now := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
			var batches atomic.Int32
			w := setup(t, options{now: now, postgres: backend == "postgres", noStart: true,
				testHook: func(point string) {
					if point == hookKillBatch {
						batches.Add(1)
					}
				}})
			w.patience = 5 * time.Minute // a slow machine (-race): 21 batches of 100 actions
			app := w.app("kill", coordXML("${coord:minutes(1)}", "2010-01-01T00:00Z", "2011-01-01T00:00Z", "", false))
			id := w.submit(w.props(app))
			const n = 2050
			err := w.store.Tx(bg, func(x store.Tx) error {
				job, err := x.GetCoordJob(bg, id)
				if err != nil {
					return err
				}
				job.Status, job.LastActionNumber = store.JobRunning, n
				if err := x.UpdateCoordJob(bg, &job); err != nil {
					return err
				}
				as := make([]*store.CoordAction, n)
				for i := range as {
					as[i] = &store.CoordAction{ID: coordinator.ActionID(id, i+1), JobID: id, ActionNumber: i + 1,
						Status: store.CoordActionWaiting, NominalTime: now.Add(time.Duration(i) * time.Minute),
						ActionXML: strings.Repeat("x", 1000), CreatedTime: now, LastModified: now}
				}
				return x.InsertCoordActions(bg, as)
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.coords.Kill(bg, id); err != nil {
				t.Fatal(err)
			}
			killed := func() int {
				return w.countActionsIn(store.CoordActionKilled)
			}
			if got := killed(); w.job(id).Status != store.JobKilled || got != killBatchSize || batches.Load() != 1 {
				t.Fatalf("the kill command killed %d actions in %d batches, want %d in one", got, batches.Load(), killBatchSize)
			}
			if _, due := w.triggerDue(KindKill, id); !due {
				t.Fatal("no coord-kill trigger for the rest")
			}
			w.start()
			w.settle()
			if got, want := killed(), n; got != want {
				t.Fatalf("%d actions killed, want %d", got, want)
			}
			if got, want := int(batches.Load()), (n+killBatchSize-1)/killBatchSize; got != want {
				t.Fatalf("killed in %d batches, want %d", got, want)
			}
			if _, due := w.triggerDue(KindKill, id); due {
				t.Fatal("the coord-kill trigger stayed")
			}
			if j := w.job(id); j.Status != store.JobKilled {
				t.Fatalf("job %s", j.Status)
			}
		})
	}
}

// TestPoisonMaterializationFailsTheJob: the attack's job, as an older server
// stored it (start-instance ${coord:current(-3000000)} on a one-minute
// dataset): its materialization measures the range before building it and
// fails the job at once with E1010 naming the data-in, instead of taking
// the server down on every start.
func TestPoisonMaterializationFailsTheJob(t *testing.T) {
	t.Parallel()
	now := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	w := setup(t, options{now: now, noStart: true})
	app := w.app("poison", `<coordinator-app name="poison" frequency="${coord:minutes(1)}" start="2010-01-01T00:00Z"
    end="2010-01-02T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="d" frequency="${coord:minutes(1)}" initial-instance="2009-01-01T00:00Z" timezone="UTC">
      <uri-template>${nameNode}/data/${YEAR}${MONTH}${DAY}${HOUR}${MINUTE}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="d">
      <start-instance>${coord:current(-3)}</start-instance><end-instance>${coord:current(0)}</end-instance>
    </data-in>
  </input-events>
  <action><workflow><app-path>${wfApp}</app-path></workflow></action>
</coordinator-app>`)
	p, err := w.coords.Prepare(bg, w.props(app), SubmitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	row := p.Row()
	poisoned := strings.Replace(row.Definition, "coord:current(-3)", "coord:current(-3000000)", 1)
	if poisoned == row.Definition {
		t.Fatalf("no start-instance to poison in %s", row.Definition)
	}
	row.Definition = poisoned
	if err := w.store.Tx(bg, func(x store.Tx) error {
		if err := x.InsertCoordJob(bg, &row); err != nil {
			return err
		}
		return x.Schedule(bg, KindMaterialize, row.ID, now, "")
	}); err != nil {
		t.Fatal(err)
	}
	w.start()
	w.settle()
	j := w.job(row.ID)
	if j.Status != store.JobFailed || j.ErrorCode != oozieerr.E1010 || !strings.Contains(j.ErrorMessage, "data-in[input]") ||
		!strings.Contains(j.ErrorMessage, "3000001 dataset instances") {
		t.Fatalf("job %s, error %s: %s", j.Status, j.ErrorCode, j.ErrorMessage)
	}
	if n := len(w.actions(row.ID)); n != 0 {
		t.Fatalf("%d actions materialized", n)
	}
	if _, due := w.triggerDue(KindMaterialize, row.ID); due {
		t.Fatal("the materialization stayed due")
	}
}

// TestPoisonTriggerIsGivenUp: a materialization whose handler fails every
// time on the same job (here it panics) runs MaxAttempts times; then the
// engine gives up, the job is FAILED with E1012 and the engine's cause, and
// the trigger is gone: no loop, and the server goes on.
func TestPoisonTriggerIsGivenUp(t *testing.T) {
	t.Parallel()
	now := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	var calls atomic.Int32
	w := setup(t, options{now: now, maxAttempts: 3, testHook: func(point string) {
		if point == hookMaterialized {
			calls.Add(1)
			panic("out of memory, say")
		}
	}})
	w.allowErrors = true
	app := w.app("poison", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-02T00:00Z", "", false))
	id := w.submit(w.props(app))
	for i := 0; i < 10 && w.job(id).Status != store.JobFailed; i++ {
		w.settle()
		w.advance(time.Second) // past the retry's backoff
	}
	j := w.job(id)
	if j.Status != store.JobFailed || j.ErrorCode != oozieerr.E1012 ||
		!strings.Contains(j.ErrorMessage, "after 3 attempts") || !strings.Contains(j.ErrorMessage, "out of memory, say") {
		t.Fatalf("job %s, error %s: %s", j.Status, j.ErrorCode, j.ErrorMessage)
	}
	if n := calls.Load(); n != 3 {
		t.Fatalf("the handler ran %d times, want 3", n)
	}
	if _, due := w.triggerDue(KindMaterialize, id); due {
		t.Fatal("the poison trigger stayed")
	}
}
