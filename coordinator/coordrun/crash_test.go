package coordrun

import (
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/postgres/pgtest"
)

// crashApp is an hourly job from 00:00 to 20:00 run at 05:00: catching up
// takes three materialization passes (00:00-03:00, 04:00, 05:00) and six
// actions.
func crashApp(w *world) string {
	return w.app("crash", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-01T20:00Z",
		"<concurrency>-1</concurrency>", false))
}

// checkExactlyOnce checks that the job has actions 1..6 at 00:00..05:00,
// each run by exactly one workflow.
func checkExactlyOnce(t *testing.T, w *world, id string) {
	t.Helper()
	w.waitFor("six actions to succeed", func() bool {
		st := w.statuses(id)
		if len(st) != 6 {
			return false
		}
		for _, s := range st {
			if s != store.CoordActionSucceeded {
				return false
			}
		}
		return true
	})
	acts := w.actions(id)
	for i, a := range acts {
		want := time.Date(2010, 1, 1, i, 0, 0, 0, time.UTC)
		if a.ActionNumber != i+1 || !a.NominalTime.Equal(want) {
			t.Fatalf("action %d: number %d at %v, want %d at %v", i, a.ActionNumber, a.NominalTime, i+1, want)
		}
	}
	if j := w.job(id); j.LastActionNumber != 6 || !j.NextMaterializedTime.Equal(time.Date(2010, 1, 1, 6, 0, 0, 0, time.UTC)) {
		t.Fatalf("job: last action %d, next materialization %v", j.LastActionNumber, j.NextMaterializedTime)
	}
	var wfs []store.WorkflowJob
	if err := w.store.Tx(bg, func(x store.Tx) (err error) { wfs, _, err = x.ListWorkflowJobs(bg, store.JobFilter{}); return }); err != nil {
		t.Fatal(err)
	}
	parents := map[string]int{}
	for _, wf := range wfs {
		parents[wf.ParentID]++
	}
	if len(wfs) != 6 || len(parents) != 6 {
		t.Fatalf("%d workflows for %d actions, want one each: %v", len(wfs), len(parents), parents)
	}
}

// TestMaterializationTakeover: a server stalls in the middle of a
// materialization (its actions inserted, not committed) long enough for its
// lease to expire; another server takes the trigger over and materializes.
// When the first one wakes up, its commit is refused (its lease is gone and
// the job row moved on): no action is created twice, none is missing, and
// each runs once.
func TestMaterializationTakeover(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	root := t.TempDir()
	now := time.Date(2010, 1, 1, 5, 0, 0, 0, time.UTC)
	reached, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	stall := func(point string) {
		if point != hookMaterialized {
			return
		}
		first := false
		once.Do(func() { first = true })
		if first {
			close(reached)
			<-release
		}
	}
	a := setup(t, options{postgres: true, dsn: dsn, root: root, now: now, owner: "a", lease: 5 * time.Second,
		testHook: stall, auto: true})
	id := a.submit(a.props(crashApp(a)))
	<-reached

	// The second server's clock is past the first's lease.
	b := setup(t, options{postgres: true, dsn: dsn, root: root, owner: "b", lease: 5 * time.Second, auto: true,
		clock: clock.NewFake(now.Add(10 * time.Second))})
	b.waitFor("server b to take the trigger over", func() bool {
		var tr store.Trigger
		err := b.store.Tx(bg, func(x store.Tx) (err error) { tr, err = x.GetTrigger(bg, KindMaterialize, id); return })
		return err == nil && tr.LeaseOwner == "b"
	})
	close(release) // a wakes up; its commit must fail
	a.eng.Stop()
	if !a.logs.logged("lease lost") {
		t.Fatal("the stalled server's materialization did not lose its lease")
	}
	checkExactlyOnce(t, b, id)
}

// TestMaterializationHandlerDies: a materialization handler that dies in the
// middle of its transaction (a panic after inserting actions) leaves
// nothing behind; the retry materializes every action once.
func TestMaterializationHandlerDies(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			var once sync.Once
			die := func(point string) {
				if point == hookMaterialized {
					once.Do(func() { panic("server killed") })
				}
			}
			o := options{postgres: backend == "postgres", testHook: die, auto: true, noStart: true}
			if o.postgres {
				o.dsn = pgtest.NewDatabase(t)
			}
			w := setup(t, o)
			w.allowErrors = true
			id := w.submit(w.props(crashApp(w)))
			w.start()
			w.settle()
			if n := len(w.actions(id)); n != 0 {
				t.Fatalf("%d actions kept from the pass that died", n)
			}
			w.advance(time.Second) // past the retry's backoff
			checkExactlyOnce(t, w, id)
		})
	}
}
