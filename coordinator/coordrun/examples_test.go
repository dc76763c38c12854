package coordrun

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// cronCase is what one of the cron example apps materializes with its own
// job.properties.
type cronCase struct {
	app       string
	count     int           // actions
	first     time.Time     // the first nominal time
	step      time.Duration // between nominal times
	wfActions int           // actions each workflow runs
	// marks is the folder (below /user/alice/examples) in which the workflow's fs action
	// makes a directory named after the run's nominal time (yyyyMMddHHmm); "" for none.
	marks string
}

// cronCases are the cron examples of each source: gozie's run every 15 minutes
// (coord:minutes) and at 5/15 past (a cron expression), each workflow marking its run;
// Oozie's run every 10 minutes both ways, and its cron-schedule workflow has no action.
var cronCases = map[string][]cronCase{
	testapps.Gozie: {
		{app: "cron", count: 5, first: time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC), step: 15 * time.Minute,
			wfActions: 1, marks: "output-data/cron"},
		{app: "cron-schedule", count: 4, first: time.Date(2010, 1, 1, 0, 5, 0, 0, time.UTC), step: 15 * time.Minute,
			wfActions: 1, marks: "output-data/cron-schedule"},
	},
	testapps.Oozie: {
		{app: "cron", count: 6, first: time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC), step: 10 * time.Minute, wfActions: 1},
		{app: "cron-schedule", count: 6, first: time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC), step: 10 * time.Minute},
	},
}

// TestCronExamples runs the cron examples unchanged (gozie's, and Oozie's when
// GOZIE_OOZIE_EXAMPLES names them): a coord:minutes frequency and a cron expression, each
// from its job.properties' start to its end (exclusive), so exactly the actions of
// cronCases, each of which runs its workflow, one after the other, and the job succeeds.
func TestCronExamples(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		for _, tc := range cronCases[testapps.Source(apps)] {
			t.Run(tc.app, func(t *testing.T) {
				t.Parallel()
				testCronExample(t, apps, tc)
			})
		}
	})
}

// testCronExample runs the cron example of tc from the apps under apps.
func testCronExample(t *testing.T, apps string, tc cronCase) {
	w := setup(t, options{auto: true})
	w.installExample(apps, tc.app)
	id := w.submit(w.exampleProps(apps, tc.app, "job.properties"))
	job := w.waitJobStatus(id, store.JobSucceeded)
	if job.LastActionNumber != tc.count || !job.DoneMaterialization {
		t.Fatalf("job: last action %d, done %v; want %d, done", job.LastActionNumber, job.DoneMaterialization, tc.count)
	}
	acts := w.actions(id)
	if len(acts) != tc.count {
		t.Fatalf("%d actions, want %d", len(acts), tc.count)
	}
	for i, a := range acts {
		want := tc.first.Add(time.Duration(i) * tc.step)
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
	runs := w.exec.Started()
	if len(runs) != tc.count*tc.wfActions {
		t.Fatalf("%d workflow actions ran, want %d", len(runs), tc.count*tc.wfActions)
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
	if tc.marks == "" {
		return
	}
	// Each run's fs action makes the directory of its own nominal time.
	for i, r := range runs {
		mark := w.nn + "/user/alice/examples/" + tc.marks + "/" + acts[i].NominalTime.UTC().Format("200601021504")
		if r.Type != "fs" || !strings.Contains(r.Body, `path="`+mark+`"`) {
			t.Errorf("run of %s: a %s action, want an fs action on %s:\n%s", acts[i].ID, r.Type, mark, r.Body)
		}
	}
}

// aggregatorCase is what the aggregator example of one source waits for and produces
// with its own job.properties: paths are below the user's examples folder.
type aggregatorCase struct {
	dataIn, dataOut string      // the names of its data-in and data-out
	flag            string      // the input dataset's done-flag
	nominal         []time.Time // of each action
	inputs          [][]string  // the input instances of each action, newest first
	outputs         []string    // the output instance of each action
}

// aggregatorCases: gozie's aggregator gathers four quarter-hour instances flagged _READY
// into each hour; Oozie's three 20-minute instances flagged _SUCCESS.
var aggregatorCases = map[string]aggregatorCase{
	testapps.Gozie: {dataIn: "quarters", dataOut: "hour", flag: "_READY",
		nominal: []time.Time{time.Date(2010, 1, 1, 2, 0, 0, 0, time.UTC), time.Date(2010, 1, 1, 3, 0, 0, 0, time.UTC)},
		inputs: [][]string{
			prefixed("input-data/clicks/20100101/", "0200", "0145", "0130", "0115"),
			prefixed("input-data/clicks/20100101/", "0300", "0245", "0230", "0215"),
		},
		outputs: prefixed("output-data/aggregator/clicks-by-hour/20100101/", "02", "03")},
	testapps.Oozie: {dataIn: "input", dataOut: "output", flag: "_SUCCESS",
		nominal: []time.Time{time.Date(2010, 1, 1, 1, 0, 0, 0, time.UTC), time.Date(2010, 1, 1, 2, 0, 0, 0, time.UTC)},
		inputs: [][]string{
			prefixed("input-data/rawLogs/2010/01/01/", "01/00", "00/40", "00/20"),
			prefixed("input-data/rawLogs/2010/01/01/", "02/00", "01/40", "01/20"),
		},
		outputs: prefixed("output-data/aggregator/aggregatedLogs/2010/01/01/", "01", "02")},
}

// prefixed returns each of names with prefix before it.
func prefixed(prefix string, names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

// uris returns the URIs on the test cluster of paths below the user's examples folder.
func (w *world) uris(paths []string) []string {
	return prefixed(w.nn+"/user/alice/examples/", paths...)
}

// TestAggregatorExample runs the aggregator example unchanged (gozie's, and Oozie's when
// GOZIE_OOZIE_EXAMPLES names them), on file:// and on HDFS (MiniDFS, through
// colinmarc/hdfs): its two hourly actions wait for a range of instances each, listing them
// as missing dependencies (done-flags included); once the instances are put with their
// done-flags the actions run, and the workflows get inputData and outputData as Oozie
// resolves them (the range newest first).
func TestAggregatorExample(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		for _, fs := range []string{"file", "hdfs"} {
			t.Run(fs, func(t *testing.T) {
				t.Parallel()
				testAggregator(t, setup(t, options{hdfs: fs == "hdfs"}), apps)
			})
		}
	})
}

// testAggregator runs the aggregator example of the apps under apps in w.
func testAggregator(t *testing.T, w *world, apps string) {
	tc := aggregatorCases[testapps.Source(apps)]
	w.installExample(apps, "aggregator")
	id := w.submit(w.exampleProps(apps, "aggregator", "job.properties"))
	w.settle()
	acts := w.actions(id)
	if len(acts) != len(tc.nominal) {
		t.Fatalf("%d actions, want %d", len(acts), len(tc.nominal))
	}
	var wantIn [][]string
	var all []string
	for _, in := range tc.inputs {
		wantIn = append(wantIn, w.uris(in))
		all = append(all, w.uris(in)...)
	}
	wantOut := w.uris(tc.outputs)
	var waiting []store.CoordActionStatus
	for i, a := range acts {
		if a.Status != store.CoordActionWaiting || !a.NominalTime.Equal(tc.nominal[i]) {
			t.Fatalf("%s is %s at %v, want WAITING at %v", a.ID, a.Status, a.NominalTime, tc.nominal[i])
		}
		waiting = append(waiting, store.CoordActionWaiting)
		var deps []string
		for _, u := range wantIn[i] {
			deps = append(deps, u+"/"+tc.flag)
		}
		if a.MissingDependencies != strings.Join(deps, "#") {
			t.Fatalf("%s missing dependencies:\n%s\nwant\n%s", a.ID, a.MissingDependencies, strings.Join(deps, "#"))
		}
	}
	// Only the directories (and, where the dataset names its own done-flag, Hadoop's
	// _SUCCESS): still waiting (the done-flag is what counts).
	for _, u := range all {
		w.touch(u + "/part-00000")
		if tc.flag != "_SUCCESS" {
			w.touch(u + "/_SUCCESS")
		}
	}
	for _, u := range all {
		if _, err := w.coords.Notify(bg, u); err != nil {
			t.Fatal(err)
		}
	}
	w.settle()
	if st := w.statuses(id); !slices.Equal(st, waiting) {
		t.Fatalf("without done-flags: %v", st)
	}
	// Done-flags, notified by the flag's own URI: the first action's inputs first, so it
	// is the one that starts (were both ready at once, the second's check could finish
	// first and take the single concurrency slot).
	for i, in := range wantIn {
		for _, u := range in {
			w.touch(u + "/" + tc.flag)
			if _, err := w.coords.Notify(bg, u+"/"+tc.flag); err != nil {
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
		if got := run.JobConf.Value("inputData"); got != strings.Join(wantIn[i], ",") {
			t.Errorf("%s inputData = %q, want %q", a.ID, got, strings.Join(wantIn[i], ","))
		}
		if got := run.JobConf.Value("outputData"); got != wantOut[i] {
			t.Errorf("%s outputData = %q, want %q", a.ID, got, wantOut[i])
		}
		if run.Type != "map-reduce" || !strings.Contains(run.Body, strings.Join(wantIn[i], ",")) {
			t.Errorf("%s: the %s action does not carry its input dirs:\n%s", a.ID, run.Type, run.Body)
		}
		w.complete(a.ID, workflow.OutcomeOK)
		w.waitActionStatus(a.ID, store.CoordActionSucceeded)
	}
	w.waitJobStatus(id, store.JobSucceeded)
}

// TestInputLogicExample runs gozie's coord-input-logic example unchanged (Oozie's has a
// single <or> of two alike inputs, which the coordinator package's tests cover): its
// action's orders come from the main feed, which the <or> waits 20 minutes for, and else
// from the replica, of which <min> 1 instance will do; its rates <combine> the primary
// hours with the fallback's where the primary's are missing. With the main feed half
// there, the action waits out the 20 minutes, then runs on the replica's one instance and
// the combined rates, each a dataset with a done-flag of its own (the default _SUCCESS,
// _COPIED, and none: the directory itself).
func TestInputLogicExample(t *testing.T) {
	t.Parallel()
	apps := testapps.Dir()
	testapps.App(t, "coord-input-logic")
	w := setup(t, options{auto: true})
	w.installExample(apps, "coord-input-logic")
	in := func(p string) string { return w.nn + "/user/alice/examples/input-data/" + p }
	// The action of 02:00 reads the two newest instances of each dataset.
	w.touch(in("orders/main/2010/01/01/0200/_SUCCESS"))   // 01:30 is missing
	w.touch(in("orders/main/2010/01/01/0130/part-00000")) // without its done-flag
	w.touch(in("orders/replica/2010/01/01/0130/_COPIED")) // 02:00 is missing
	w.touch(in("orders/replica/2010/01/01/0200/_SUCCESS"))
	w.touch(in("rates/primary/2010010102/rates.csv")) // 01 is missing
	w.touch(in("rates/fallback/2010010101/rates.csv"))

	id := w.submit(w.exampleProps(apps, "coord-input-logic", "job.properties"))
	w.settle()
	acts := w.actions(id)
	if len(acts) != 1 || acts[0].Status != store.CoordActionWaiting ||
		!acts[0].NominalTime.Equal(time.Date(2010, 1, 1, 2, 0, 0, 0, time.UTC)) {
		t.Fatalf("actions %+v, want one WAITING at 02:00", acts)
	}
	if missing := acts[0].MissingDependencies; !strings.Contains(missing, in("orders/main/2010/01/01/0130/_SUCCESS")) {
		t.Errorf("missing dependencies %q lack the main feed's 01:30", missing)
	}
	// The <or> waits for the main feed for 20 minutes from the action's creation.
	w.advance(19 * time.Minute)
	if a := w.action(acts[0].ID); a.Status != store.CoordActionWaiting {
		t.Fatalf("after 19 minutes the action is %s, want WAITING for the main feed", a.Status)
	}
	w.advance(2 * time.Minute)
	a := w.waitActionStatus(acts[0].ID, store.CoordActionSucceeded)
	run := w.waitRun(a.ExternalID)
	if got, want := run.JobConf.Value("ordersData"), in("orders/replica/2010/01/01/0130"); got != want {
		t.Errorf("ordersData = %q, want the replica's one instance %q", got, want)
	}
	if got, want := run.JobConf.Value("ratesData"), in("rates/primary/2010010102")+","+in("rates/fallback/2010010101"); got != want {
		t.Errorf("ratesData = %q, want %q", got, want)
	}
	report := w.nn + "/user/alice/examples/output-data/coord-input-logic/20100101/02"
	if run.JobConf.Value("reportDir") != report || run.Type != "fs" || !strings.Contains(run.Body, `<mkdir path="`+report+`"`) {
		t.Errorf("reportDir %q, a %s action:\n%s", run.JobConf.Value("reportDir"), run.Type, run.Body)
	}
	w.waitJobStatus(id, store.JobSucceeded)
}
