package coordrun

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/store"
)

// TestCronExamples runs Oozie's cron examples unchanged: a coord:minutes(10)
// frequency and the cron expression 0/10 * * * *, start 00:00 and end 01:00
// (exclusive), so exactly six actions at 00:00 … 00:50, each of which runs its
// workflow, and the job succeeds.
func TestCronExamples(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		wfActions int // actions each workflow runs (the cron-schedule workflow has none)
	}{{"cron", 1}, {"cron-schedule", 0}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := setup(t, options{auto: true})
			w.installExample(tc.name)
			id := w.submit(w.exampleProps(tc.name, "job.properties"))
			job := w.waitJobStatus(id, store.JobSucceeded)
			if job.LastActionNumber != 6 || !job.DoneMaterialization {
				t.Fatalf("job: last action %d, done %v", job.LastActionNumber, job.DoneMaterialization)
			}
			acts := w.actions(id)
			if len(acts) != 6 {
				t.Fatalf("%d actions, want 6", len(acts))
			}
			start := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
			for i, a := range acts {
				want := start.Add(time.Duration(i) * 10 * time.Minute)
				if a.ActionNumber != i+1 || !a.NominalTime.Equal(want) || a.Status != store.CoordActionSucceeded {
					t.Fatalf("action %d: number %d nominal %v status %s, want %v SUCCEEDED", i, a.ActionNumber, a.NominalTime, a.Status, want)
				}
				wf := w.workflow(a.ExternalID)
				if wf.ParentID != a.ID || wf.Status != store.WorkflowSucceeded {
					t.Fatalf("workflow of %s: parent %s status %s", a.ID, wf.ParentID, wf.Status)
				}
				cp, err := conf.ReadConfigurationXML(strings.NewReader(wf.Conf), "wf conf")
				if err != nil {
					t.Fatal(err)
				}
				if got := cp.Value("oozie.coord.action.nominal_time"); got != strconv.FormatInt(want.UnixMilli(), 10) {
					t.Errorf("%s: nominal_time %s", a.ID, got)
				}
				if got := cp.Value("queueName"); got != "default" {
					t.Errorf("%s: queueName %q, want the action configuration's value", a.ID, got)
				}
			}
			runs := w.exec.started()
			if len(runs) != 6*tc.wfActions {
				t.Fatalf("%d workflow actions ran, want %d", len(runs), 6*tc.wfActions)
			}
			// Concurrency 1, FIFO: each workflow ran after the one before.
			var order []string
			for _, r := range runs {
				order = append(order, r.JobID)
			}
			var want []string
			for _, a := range acts[:len(runs)] {
				want = append(want, a.ExternalID)
			}
			if !slices.Equal(order, want) {
				t.Fatalf("workflows ran in order %v, want %v", order, want)
			}
		})
	}
}

// TestAggregatorExample runs Oozie's aggregator example unchanged, on file://
// and on HDFS (MiniDFS, through colinmarc/hdfs): its two
// hourly actions wait for three 20-minute instances each, listing them as
// missing dependencies (done-flags included); once the instances are put with
// their done-flags the actions run, and the workflows get inputData and
// outputData as Oozie resolves them (the range newest first).
func TestAggregatorExample(t *testing.T) {
	t.Parallel()
	for _, fs := range []string{"file", "hdfs"} {
		t.Run(fs, func(t *testing.T) {
			t.Parallel()
			testAggregator(t, setup(t, options{hdfs: fs == "hdfs"}))
		})
	}
}

func testAggregator(t *testing.T, w *world) {
	w.installExample("aggregator")
	id := w.submit(w.exampleProps("aggregator", "job.properties"))
	w.settle()
	acts := w.actions(id)
	if len(acts) != 2 {
		t.Fatalf("%d actions, want 2", len(acts))
	}
	raw := w.nn + "/user/alice/examples/input-data/rawLogs/2010/01/01/"
	out := w.nn + "/user/alice/examples/output-data/aggregator/aggregatedLogs/2010/01/01/"
	wantIn := [][]string{{raw + "01/00", raw + "00/40", raw + "00/20"}, {raw + "02/00", raw + "01/40", raw + "01/20"}}
	wantOut := []string{out + "01", out + "02"}
	for i, a := range acts {
		if a.Status != store.CoordActionWaiting {
			t.Fatalf("%s is %s, want WAITING", a.ID, a.Status)
		}
		var deps []string
		for _, u := range wantIn[i] {
			deps = append(deps, u+"/_SUCCESS")
		}
		if a.MissingDependencies != strings.Join(deps, "#") {
			t.Fatalf("%s missing dependencies:\n%s\nwant\n%s", a.ID, a.MissingDependencies, strings.Join(deps, "#"))
		}
	}
	// Only the directories: still waiting (the done-flag is what counts).
	for _, u := range append(wantIn[0], wantIn[1]...) {
		w.touch(u + "/part-00000")
	}
	for _, u := range append(wantIn[0], wantIn[1]...) {
		if _, err := w.coords.Notify(bg, u); err != nil {
			t.Fatal(err)
		}
	}
	w.settle()
	if st := w.statuses(id); !slices.Equal(st, []store.CoordActionStatus{store.CoordActionWaiting, store.CoordActionWaiting}) {
		t.Fatalf("without done-flags: %v", st)
	}
	// Done-flags, notified by the flag's own URI: the first action's inputs first, so it
	// is the one that starts (were both ready at once, the second's check could finish
	// first and take the single concurrency slot).
	for i, in := range wantIn {
		for _, u := range in {
			w.touch(u + "/_SUCCESS")
			if _, err := w.coords.Notify(bg, u+"/_SUCCESS"); err != nil {
				t.Fatal(err)
			}
		}
		if i == 0 {
			w.waitActionStatus(acts[0].ID, store.CoordActionRunning)
		}
	}
	w.settle()
	// Concurrency 1: the second waits for the first.
	if a := w.action(acts[1].ID); a.Status != store.CoordActionReady {
		t.Fatalf("second action is %s while the first runs, want READY", a.Status)
	}
	for i, a := range acts {
		a = w.waitActionStatus(a.ID, store.CoordActionRunning)
		run := w.waitRun(a.ExternalID)
		if got := run.JobConf["inputData"]; got != strings.Join(wantIn[i], ",") {
			t.Errorf("%s inputData = %q, want %q", a.ID, got, strings.Join(wantIn[i], ","))
		}
		if got := run.JobConf["outputData"]; got != wantOut[i] {
			t.Errorf("%s outputData = %q, want %q", a.ID, got, wantOut[i])
		}
		if !strings.Contains(run.Body, strings.Join(wantIn[i], ",")) {
			t.Errorf("%s: the map-reduce action does not carry its input dir:\n%s", a.ID, run.Body)
		}
		w.complete(a.ID, actions.OK)
		w.waitActionStatus(a.ID, store.CoordActionSucceeded)
	}
	w.waitJobStatus(id, store.JobSucceeded)
}
