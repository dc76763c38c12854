package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
)

// testListCoordActionsOmitXML: with OmitActionXML a page of actions has
// every column but the action XML; without it, the XML too.
func testListCoordActionsOmitXML(t *testing.T, open Opener) {
	s := open(t)
	tx(t, s, func(x store.Tx) error {
		j := store.CoordJob{ID: "C7", Status: store.JobRunning, ExecutionOrder: "FIFO", CreatedTime: t0}
		if err := x.InsertCoordJob(ctx, &j); err != nil {
			return err
		}
		a := store.CoordAction{ID: "C7@1", JobID: "C7", ActionNumber: 1, Status: store.CoordActionWaiting,
			NominalTime: t0, CreatedTime: t0, LastModified: t0, CreatedConf: "<configuration/>", RunConf: "<run/>",
			ActionXML: "<coordinator-app/>", MissingDependencies: "hdfs://nn/a", ExternalID: "W1"}
		return x.InsertCoordAction(ctx, &a)
	})
	for _, omit := range []bool{false, true} {
		var acts []store.CoordAction
		tx(t, s, func(x store.Tx) (err error) {
			acts, _, err = x.ListCoordActions(ctx, store.CoordActionFilter{JobID: "C7", OmitActionXML: omit})
			return
		})
		if len(acts) != 1 {
			t.Fatalf("omit %v: %d actions, want 1", omit, len(acts))
		}
		a, wantXML := acts[0], "<coordinator-app/>"
		if omit {
			wantXML = ""
		}
		if a.ActionXML != wantXML || a.CreatedConf != "<configuration/>" || a.RunConf != "<run/>" ||
			a.MissingDependencies != "hdfs://nn/a" || a.ExternalID != "W1" || a.Version != 1 || !a.NominalTime.Equal(t0) {
			t.Errorf("omit %v: got %+v", omit, a)
		}
	}
}

// testCoordActionConfsReadWhereTheyDiffer: an action's created and run
// configurations read back as written whether they equal each other, the
// job's configuration a listing names (JobConf), both or neither, by the
// listing, the single read and the batch read.
func testCoordActionConfsReadWhereTheyDiffer(t *testing.T, open Opener) {
	s := open(t)
	const jobConf, other, rerun = "<configuration><p>job</p></configuration>", "<configuration><p>old</p></configuration>", "<configuration><p>rerun</p></configuration>"
	pairs := [][2]string{{jobConf, jobConf}, {jobConf, rerun}, {other, other}, {other, jobConf}, {"", ""}, {"", jobConf}, {jobConf, ""}}
	var ids []string
	tx(t, s, func(x store.Tx) error {
		j := store.CoordJob{ID: "C9", Status: store.JobRunning, ExecutionOrder: "FIFO", Conf: jobConf, CreatedTime: t0}
		if err := x.InsertCoordJob(ctx, &j); err != nil {
			return err
		}
		for i, p := range pairs {
			a := store.CoordAction{ID: fmt.Sprintf("C9@%d", i+1), JobID: "C9", ActionNumber: i + 1, Status: store.CoordActionWaiting,
				NominalTime: t0.Add(time.Duration(i) * time.Hour), CreatedTime: t0, LastModified: t0, CreatedConf: p[0], RunConf: p[1]}
			if err := x.InsertCoordAction(ctx, &a); err != nil {
				return err
			}
			ids = append(ids, a.ID)
		}
		return nil
	})
	check := func(how string, acts []store.CoordAction) {
		t.Helper()
		if len(acts) != len(pairs) {
			t.Fatalf("%s: %d actions, want %d", how, len(acts), len(pairs))
		}
		for i, a := range acts {
			if got := [2]string{a.CreatedConf, a.RunConf}; got != pairs[i] {
				t.Errorf("%s: action %d has (created, run) %q, want %q", how, i+1, got, pairs[i])
			}
		}
	}
	for _, jc := range []string{"", jobConf, other} {
		var page []store.CoordAction
		tx(t, s, func(x store.Tx) (err error) {
			page, err = x.ListCoordActionsPage(ctx, store.CoordActionFilter{JobID: "C9", JobConf: jc, OmitActionXML: jc == other})
			return err
		})
		check(fmt.Sprintf("listing with JobConf %q", jc), page)
	}
	var single, batch []store.CoordAction
	tx(t, s, func(x store.Tx) error {
		for _, id := range ids {
			a, err := x.GetCoordAction(ctx, id)
			if err != nil {
				return err
			}
			single = append(single, a)
		}
		return nil
	})
	check("GetCoordAction", single)
	tx(t, s, func(x store.Tx) (err error) {
		batch, err = x.GetCoordActions(ctx, ids)
		return err
	})
	slices.SortFunc(batch, func(a, b store.CoordAction) int { return a.ActionNumber - b.ActionNumber })
	check("GetCoordActions", batch)
}

// testListJobsOmitDocuments: with OmitDocuments a listing's jobs have every
// column but their configuration and definitions; without it, those too.
func testListJobsOmitDocuments(t *testing.T, open Opener) {
	s := open(t)
	tx(t, s, func(x store.Tx) error {
		w := store.WorkflowJob{ID: "W8", AppName: "wf", User: "u", Status: store.WorkflowRunning, Conf: "<c/>",
			Definition: "<workflow-app/>", CreatedTime: t0, LastModified: t0}
		if err := x.InsertWorkflowJob(ctx, &w); err != nil {
			return err
		}
		c := store.CoordJob{ID: "C8", AppName: "coord", User: "u", Status: store.JobRunning, ExecutionOrder: "FIFO",
			Conf: "<c/>", Definition: "<coordinator-app/>", OrigDefinition: "<orig/>", CreatedTime: t0}
		return x.InsertCoordJob(ctx, &c)
	})
	for _, omit := range []bool{false, true} {
		f := store.JobFilter{Users: []string{"u"}, OmitDocuments: omit}
		var (
			wfs    []store.WorkflowJob
			coords []store.CoordJob
		)
		tx(t, s, func(x store.Tx) (err error) {
			if wfs, _, err = x.ListWorkflowJobs(ctx, f); err != nil {
				return err
			}
			coords, _, err = x.ListCoordJobs(ctx, f)
			return err
		})
		if len(wfs) != 1 || len(coords) != 1 {
			t.Fatalf("omit %v: %d workflows, %d coordinators; want 1 each", omit, len(wfs), len(coords))
		}
		w, c := wfs[0], coords[0]
		if w.AppName != "wf" || w.Status != store.WorkflowRunning || w.Version != 1 || c.AppName != "coord" || c.ExecutionOrder != "FIFO" {
			t.Errorf("omit %v: other columns lost: %+v %+v", omit, w, c)
		}
		docs := []string{w.Conf, w.Definition, c.Conf, c.Definition, c.OrigDefinition}
		want := []string{"<c/>", "<workflow-app/>", "<c/>", "<coordinator-app/>", "<orig/>"}
		if omit {
			want = []string{"", "", "", "", ""}
		}
		if !slices.Equal(docs, want) {
			t.Errorf("omit %v: documents %q, want %q", omit, docs, want)
		}
	}
}

// testCoordJobInfo: GetCoordJobCounting reads the job without its
// definitions with the number of its actions matching a filter (whatever
// job the filter names), and fails on a missing job; ListCoordActionsPage
// is ListCoordActions' page.
func testCoordJobInfo(t *testing.T, open Opener) {
	s := open(t)
	tx(t, s, func(x store.Tx) error {
		for _, id := range []string{"C5", "C6"} {
			j := store.CoordJob{ID: id, AppName: "a" + id, Status: store.JobRunning, ExecutionOrder: "FIFO", CreatedTime: t0,
				Conf: "<conf/>", Definition: "<coordinator-app/>", OrigDefinition: "<orig/>", Throttle: 7}
			if err := x.InsertCoordJob(ctx, &j); err != nil {
				return err
			}
		}
		for n := 1; n <= 5; n++ {
			st := store.CoordActionWaiting
			if n%2 == 0 {
				st = store.CoordActionReady
			}
			a := store.CoordAction{ID: fmt.Sprintf("C5@%d", n), JobID: "C5", ActionNumber: n, Status: st,
				NominalTime: t0.Add(time.Duration(n) * time.Hour), CreatedTime: t0, LastModified: t0}
			if err := x.InsertCoordAction(ctx, &a); err != nil {
				return err
			}
		}
		return nil
	})
	for _, tc := range []struct {
		id   string
		f    store.CoordActionFilter
		want int
	}{
		{"C5", store.CoordActionFilter{}, 5},
		{"C5", store.CoordActionFilter{JobID: "C6", Statuses: []store.CoordActionStatus{store.CoordActionReady}}, 2},
		{"C5", store.CoordActionFilter{NominalFrom: t0.Add(4 * time.Hour)}, 2},
		{"C6", store.CoordActionFilter{}, 0},
	} {
		var (
			j     store.CoordJob
			total int
		)
		tx(t, s, func(x store.Tx) (err error) { j, total, err = x.GetCoordJobCounting(ctx, tc.id, tc.f); return })
		if j.ID != tc.id || j.AppName != "a"+tc.id || j.Conf != "<conf/>" || j.Throttle != 7 || j.Version != 1 ||
			j.Definition != "" || j.OrigDefinition != "" || total != tc.want {
			t.Errorf("%s %+v: total %d (want %d), job %+v", tc.id, tc.f, total, tc.want, j)
		}
	}
	err := s.Tx(ctx, func(x store.Tx) error {
		_, _, err := x.GetCoordJobCounting(ctx, "missing", store.CoordActionFilter{})
		return err
	})
	if !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a missing job: %v, want ErrNotFound", err)
	}
	f := store.CoordActionFilter{JobID: "C5", Desc: true, Offset: 1, Limit: 3}
	var page, list []store.CoordAction
	tx(t, s, func(x store.Tx) (err error) {
		if page, err = x.ListCoordActionsPage(ctx, f); err != nil {
			return err
		}
		list, _, err = x.ListCoordActions(ctx, f)
		return err
	})
	if len(page) != 3 || page[0].ID != "C5@4" || !slices.EqualFunc(page, list, func(a, b store.CoordAction) bool { return a.ID == b.ID }) {
		t.Errorf("page %v, list %v", page, list)
	}
}

// testCoordJobAsStored: a job read back is the job written as AsStored
// makes it, with every time of the row (each field of type time.Time, found
// by reflection so that a new one is not missed) given in a zone other than
// UTC and to the nanosecond.
func testCoordJobAsStored(t *testing.T, open Opener) {
	s := open(t)
	j := store.CoordJob{ID: "C11", AppName: "a", Status: store.JobRunning, ExecutionOrder: "FIFO", Conf: "<c/>"}
	zone := time.FixedZone("X", 5*3600+1800)
	v := reflect.ValueOf(&j).Elem()
	n := 0
	for i := range v.NumField() {
		if f := v.Field(i); f.Type() == reflect.TypeFor[time.Time]() {
			n++
			f.Set(reflect.ValueOf(time.Date(2026, 3, n, 4, 5, 6, 123456789+n, zone)))
		}
	}
	tx(t, s, func(x store.Tx) error { return x.InsertCoordJob(ctx, &j) })
	var got store.CoordJob
	tx(t, s, func(x store.Tx) (err error) { got, err = x.GetCoordJob(ctx, "C11"); return })
	if want := j.AsStored(); !reflect.DeepEqual(got, want) {
		t.Errorf("read back:\n%+v\nwant (AsStored):\n%+v", got, want)
	}
}
