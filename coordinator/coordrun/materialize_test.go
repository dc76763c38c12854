package coordrun

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/store"
)

// TestMaterializeBatchChecksFoundDataAtOnce: a materialization pass looks
// the new actions' data up before its transaction; an action whose nominal
// time has come and whose data is there is stored READY at once, without
// an input check (the world handles no input checks at all), while one
// whose data is missing waits for its check.
func TestMaterializeBatchChecksFoundDataAtOnce(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			now := time.Date(2010, 1, 1, 3, 30, 0, 0, time.UTC)
			w := setup(t, options{now: now, postgres: backend == "postgres", only: []store.TriggerKind{KindMaterialize}})
			for _, h := range []int{0, 2} { // 01:00 is missing
				w.touch(w.logURI(time.Date(2010, 1, 1, h, 0, 0, 0, time.UTC)) + "/_SUCCESS")
			}
			app := w.app("atonce", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-02T00:00Z",
				"<concurrency>0</concurrency>", true))
			id := w.submit(w.props(app))
			w.settle()
			got := w.statuses(id)
			want := []store.CoordActionStatus{store.CoordActionReady, store.CoordActionWaiting, store.CoordActionReady,
				store.CoordActionWaiting}
			if !slices.Equal(got, want) {
				t.Fatalf("statuses %v, want %v", got, want)
			}
			acts := w.actions(id)
			for _, a := range acts {
				_, checkDue := w.triggerDue(KindInputCheck, a.ID)
				if checkDue != (a.Status == store.CoordActionWaiting) {
					t.Errorf("%s is %s; input check scheduled: %v", a.ID, a.Status, checkDue)
				}
				if a.Status == store.CoordActionReady && (a.MissingDependencies != "" || a.Version != 1) {
					t.Errorf("%s READY with missing %q, version %d", a.ID, a.MissingDependencies, a.Version)
				}
			}
			if j := w.job(id); j.Status != store.JobRunning || j.LastActionNumber != 4 {
				t.Fatalf("job %s after the pass, last action %d", j.Status, j.LastActionNumber)
			}
		})
	}
}

// TestMaterializeBatchOneBadJob: many jobs materialize in one pass; one
// whose definition cannot be loaded fails on its own, and the others get
// their actions.
func TestMaterializeBatchOneBadJob(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			t0 := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
			w := setup(t, options{now: t0.Add(90 * time.Minute), postgres: backend == "postgres", noStart: true})
			app := w.app("batch", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-02T00:00Z",
				"<concurrency>0</concurrency>", false))
			p, err := w.coords.Prepare(bg, w.props(app), SubmitOptions{})
			if err != nil {
				t.Fatal(err)
			}
			const jobs = 30
			err = w.store.Tx(bg, func(x store.Tx) error {
				for i := 0; i < jobs; i++ {
					row := p.Row()
					row.ID = fmt.Sprintf("%07d-100101000000000-test-C", i)
					if i == 7 {
						row.Definition = "<coordinator-app" // unreadable
					}
					if err := x.InsertCoordJob(bg, &row); err != nil {
						return err
					}
					if err := x.Schedule(bg, KindMaterialize, row.ID, t0, ""); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			w.start()
			w.settle()
			for i := 0; i < jobs; i++ {
				id := fmt.Sprintf("%07d-100101000000000-test-C", i)
				j, n := w.job(id), len(w.actions(id))
				switch {
				case i == 7 && (j.Status != store.JobFailed || n != 0):
					t.Errorf("bad job: %s with %d actions, want FAILED with none", j.Status, n)
				case i != 7 && (j.Status != store.JobRunning || n != 2 || j.LastActionNumber != 2):
					t.Errorf("job %d: %s with %d actions (last %d), want RUNNING with 2", i, j.Status, n, j.LastActionNumber)
				}
			}
		})
	}
}

func TestRollupNeeded(t *testing.T) {
	t.Parallel()
	prep := store.CoordJob{Status: store.JobPrep}
	running := store.CoordJob{Status: store.JobRunning}
	at := func(j store.CoordJob, f func(*store.CoordJob)) store.CoordJob { f(&j); return j }
	for _, tc := range []struct {
		name          string
		before, after store.CoordJob
		want          bool
	}{
		{"first pass", prep, running, false},
		{"first pass that ends materialization", prep, at(running, func(j *store.CoordJob) { j.DoneMaterialization = true }), true},
		{"no change", running, running, false},
		{"done", running, at(running, func(j *store.CoordJob) { j.DoneMaterialization = true }), true},
		{"a job with earlier actions", at(prep, func(j *store.CoordJob) { j.LastActionNumber = 3 }), running, true},
		{"a pending job", at(prep, func(j *store.CoordJob) { j.Pending = true }), running, true},
		{"a pause time", at(prep, func(j *store.CoordJob) { j.PauseTime = time.Unix(1, 0) }), running, true},
		{"another change", store.CoordJob{Status: store.JobRunningWithError}, running, true},
	} {
		if got := rollupNeeded(tc.before, tc.after); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestProgressOnly(t *testing.T) {
	t.Parallel()
	before := store.CoordJob{ID: "C", Status: store.JobPrep, Throttle: 3, Conf: "c", Version: 4}
	after := before
	after.Status, after.LastActionNumber, after.DoneMaterialization = store.JobRunning, 5, true
	after.LastActionTime, after.NextMaterializedTime, after.LastModified = time.Unix(1, 0), time.Unix(2, 0), time.Unix(3, 0)
	if !progressOnly(before, after) {
		t.Fatal("a materialization's changes are not progress only")
	}
	for _, change := range []func(*store.CoordJob){
		func(j *store.CoordJob) { j.Pending = true },
		func(j *store.CoordJob) { j.Throttle = 4 },
		func(j *store.CoordJob) { j.EndTime = time.Unix(9, 0) },
		func(j *store.CoordJob) { j.Version = 5 },
	} {
		other := after
		change(&other)
		if progressOnly(before, other) {
			t.Errorf("a change beyond progress is progress only: %+v", other)
		}
	}
}

// TestJobCache: entries are found by definition and configuration, used in common
// by the jobs that have the same, replaced when a row changes, bounded,
// and dropped by forget.
func TestJobCache(t *testing.T) {
	t.Parallel()
	c := newJobCache(2)
	row := func(id, def, conf string) *store.CoordJob {
		return &store.CoordJob{ID: id, Definition: def, Conf: conf}
	}
	parsed := func(name string) *coordinator.Job { return &coordinator.Job{Name: name} }
	c.put(row("A", "d1", "c1"), parsed("one"), nil)
	if e, ok := c.get(row("B", "d1", "c1")); !ok || e.job.Name != "one" {
		t.Fatal("a job with the same definition and configuration missed")
	}
	for _, r := range []*store.CoordJob{row("A", "d1", "c2"), row("A", "d2", "c1"), row("A", "d1c", "1")} {
		if _, ok := c.get(r); ok {
			t.Fatalf("a changed row hit: %+v", *r)
		}
	}
	c.put(row("C", "d2", "c1"), parsed("two"), nil)
	c.get(row("A", "d1", "c1")) // most recently used
	c.put(row("D", "d3", "c1"), parsed("three"), nil)
	if _, ok := c.get(row("C", "d2", "c1")); ok {
		t.Fatal("the least recently used entry was kept beyond the bound")
	}
	if _, ok := c.get(row("A", "d1", "c1")); !ok {
		t.Fatal("a recently used entry was dropped")
	}
	c.forget("A")
	if _, ok := c.get(row("A", "d1", "c1")); ok {
		t.Fatal("forget kept the job's entry")
	}
	if _, ok := c.get(row("D", "d3", "c1")); !ok {
		t.Fatal("forget dropped another job's entry")
	}
}

// TestRowCache: a job row is served from the cache while the stored
// version is the one it was read at, read again once a write advanced it,
// and left out once the job is gone.
func TestRowCache(t *testing.T) {
	t.Parallel()
	w := setup(t, options{now: time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC), noStart: true})
	for _, id := range []string{"A", "B"} {
		err := w.store.Tx(bg, func(x store.Tx) error {
			return x.InsertCoordJob(bg, &store.CoordJob{ID: id, Status: store.JobRunning, ExecutionOrder: "FIFO",
				Throttle: 1, CreatedTime: time.Now()})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	c := newRowCache(10, newJobCache(10))
	read := func() []store.CoordJob {
		t.Helper()
		var out []store.CoordJob
		err := w.store.Tx(bg, func(x store.Tx) (err error) { out, err = c.jobs(bg, x, []string{"B", "A", "gone"}); return })
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := read(); len(got) != 2 || got[0].ID != "A" || got[1].ID != "B" || got[0].Throttle != 1 {
		t.Fatalf("first read: %+v", got)
	}
	// A hit is the kept row: mark it to tell it from a read.
	a, _ := c.rows.Get("A")
	a.Throttle = 99
	c.rows.Put("A", a)
	if got := read(); got[0].Throttle != 99 {
		t.Fatalf("an unchanged job was read again (throttle %d)", got[0].Throttle)
	}
	err := w.store.Tx(bg, func(x store.Tx) error {
		j, err := x.GetCoordJob(bg, "A")
		if err != nil {
			return err
		}
		j.Throttle = 2
		return x.UpdateCoordJob(bg, &j)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := read(); got[0].Throttle != 2 || got[0].Version != 2 {
		t.Fatalf("a changed job came from the cache: throttle %d, version %d", got[0].Throttle, got[0].Version)
	}
	if err := w.store.Tx(bg, func(x store.Tx) error { return x.DeleteCoordJob(bg, "B") }); err != nil {
		t.Fatal(err)
	}
	if got := read(); len(got) != 1 || got[0].ID != "A" {
		t.Fatalf("after B was deleted: %+v", got)
	}
}

// TestMaterializationKeepsTheRowsItWrote: once a materialization commits,
// the job row it wrote is kept at its new version, exactly as the store
// holds it (the next pass that reads the job reads only its version), and
// the kept copy shares its documents with the parsed definition's.
func TestMaterializationKeepsTheRowsItWrote(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			// A clock to the nanosecond and not in UTC, as a row's times are not.
			now := time.Date(2010, 1, 1, 9, 0, 0, 123456789, time.FixedZone("X", 5*3600+1800))
			w := setup(t, options{now: now, postgres: backend == "postgres", only: []store.TriggerKind{KindMaterialize}})
			app := w.app("kept", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-02T00:00Z",
				"<concurrency>0</concurrency>", true))
			id := w.submit(w.props(app))
			w.settle()
			stored := w.job(id)
			if stored.LastActionNumber == 0 {
				t.Fatal("nothing materialized")
			}
			kept, ok := w.coords.rows.rows.Peek(id)
			if !ok {
				t.Fatal("the written row was not kept")
			}
			if !reflect.DeepEqual(kept, stored) {
				t.Errorf("kept:\n%+v\nstored:\n%+v", kept, stored)
			}
			if def, conf, ok := w.coords.jobs.source(&stored); !ok || unsafe.StringData(def) != unsafe.StringData(kept.Definition) ||
				unsafe.StringData(conf) != unsafe.StringData(kept.Conf) {
				t.Error("the kept row does not share the parsed definition's documents")
			}
		})
	}
}
