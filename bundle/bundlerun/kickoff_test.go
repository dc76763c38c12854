package bundlerun

import (
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// exampleCoord is one coordinator a bundle example starts.
type exampleCoord struct {
	name       string // the bundle entry's name, which the coordinator takes
	app        string // its app path below the user's examples/apps folder
	critical   bool
	start, end time.Time // from the entry's configuration
	actions    int
}

// bundleExample is what the bundle example of one source starts, and the aggregator
// inputs (below the user's examples folder, each with its done-flag) its coordinators read.
type bundleExample struct {
	name   string
	coords []exampleCoord
	inputs []string
	flag   string
}

// bundleExamples: gozie's bundle starts the aggregator twice, an hour each, the first
// critical and named by its coordinator.xml, the second by the app's directory; Oozie's
// starts its aggregator once for two hours.
var bundleExamples = map[string]bundleExample{
	testapps.Gozie: {name: "clicks-bundle", flag: "_READY",
		coords: []exampleCoord{
			{name: "clicks-first-hour", app: "aggregator/coordinator.xml", critical: true,
				start: time.Date(2010, 1, 1, 2, 0, 0, 0, time.UTC), end: time.Date(2010, 1, 1, 3, 0, 0, 0, time.UTC), actions: 1},
			{name: "clicks-second-hour", app: "aggregator",
				start: time.Date(2010, 1, 1, 3, 0, 0, 0, time.UTC), end: time.Date(2010, 1, 1, 4, 0, 0, 0, time.UTC), actions: 1},
		},
		inputs: under("input-data/clicks/20100101/", "0115", "0130", "0145", "0200", "0215", "0230", "0245", "0300")},
	testapps.Oozie: {name: "bundle-app", flag: "_SUCCESS",
		coords: []exampleCoord{
			{name: "coord-1", app: "aggregator/coordinator.xml",
				start: time.Date(2010, 1, 1, 1, 0, 0, 0, time.UTC), end: time.Date(2010, 1, 1, 3, 0, 0, 0, time.UTC), actions: 2},
		},
		inputs: under("input-data/rawLogs/2010/01/01/", "00/20", "00/40", "01/00", "01/20", "01/40", "02/00")},
}

// under returns each of names with prefix before it.
func under(prefix string, names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

// TestBundleExample runs the bundle example unchanged (gozie's, and Oozie's when
// GOZIE_OOZIE_EXAMPLES names it), with the aggregator example it points at: the bundle
// kicks off at once (it has no kick-off time), each coordinator takes its bundle entry's
// name and the bundle's configuration with the entry's start and end, runs its hourly
// actions, and the bundle follows them to SUCCEEDED.
func TestBundleExample(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		for _, backend := range []string{"sqlite", "postgres"} {
			t.Run(backend, func(t *testing.T) {
				t.Parallel()
				testBundleExample(t, setup(t, options{postgres: backend == "postgres"}), apps)
			})
		}
	})
}

// testBundleExample runs the bundle example of the apps under apps in w.
func testBundleExample(t *testing.T, w *world, apps string) {
	want := bundleExamples[testapps.Source(apps)]
	w.installExample(apps, "aggregator")
	w.installExample(apps, "bundle")
	for _, dir := range want.inputs {
		w.write("/user/alice/examples/"+dir+"/part-00000", "log\n")
		w.write("/user/alice/examples/"+dir+"/"+want.flag, "")
	}
	id := w.submit(w.exampleProps(apps, "bundle"))
	if !strings.HasSuffix(id, "-B") {
		t.Fatalf("bundle id %s", id)
	}
	w.settle()
	b := w.bundle(id)
	if b.Status != store.JobRunning || b.AppName != want.name || !b.StartTime.Equal(w.clock.Now()) {
		t.Fatalf("bundle = %+v", b)
	}
	coords := w.coordinators(id)
	if len(coords) != len(want.coords) {
		t.Fatalf("coordinators %v, want %d", coords, len(want.coords))
	}
	total := 0
	for _, wc := range want.coords {
		c, ok := coords[wc.name]
		if !ok {
			t.Fatalf("no coordinator %s among %v", wc.name, coords)
		}
		if c.BundleID != id || c.AppPath != w.nn+"/user/alice/examples/apps/"+wc.app ||
			!c.StartTime.Equal(wc.start) || !c.EndTime.Equal(wc.end) {
			t.Fatalf("coordinator %+v, want %+v", c, wc)
		}
		for _, s := range []string{"oozie.bundle.id", id, "oozie.coord.application.path"} {
			if !strings.Contains(c.Conf, s) {
				t.Errorf("coordinator configuration lacks %s:\n%s", s, c.Conf)
			}
		}
		if l := w.links(id)[wc.name]; l.CoordID != c.ID || l.ID != id+"_"+wc.name || l.Critical != wc.critical {
			t.Errorf("link %+v, want coordinator %s, critical %v", l, c.ID, wc.critical)
		}
		total += wc.actions
	}
	for done := 0; done < total; {
		var running []store.CoordAction
		w.waitFor("a running action", func() bool {
			running = nil
			for _, c := range w.coordinators(id) {
				for _, a := range w.coordActions(c.ID) {
					if a.Status == store.CoordActionRunning {
						running = append(running, a)
					}
				}
			}
			return len(running) > 0
		})
		for _, a := range running {
			w.complete(a, workflow.OutcomeOK)
			done++
		}
		w.settle()
	}
	w.settle()
	if got := w.bundle(id).Status; got != store.JobSucceeded {
		t.Fatalf("bundle ended %s, want SUCCEEDED (coordinators %v)", got, w.coordinators(id))
	}
	for _, wc := range want.coords {
		if n := len(w.coordActions(w.coordinators(id)[wc.name].ID)); n != wc.actions {
			t.Errorf("coordinator %s ran %d actions, want %d", wc.name, n, wc.actions)
		}
		if l := w.links(id)[wc.name]; l.Status != store.JobSucceeded {
			t.Errorf("link %s status %s, want SUCCEEDED", wc.name, l.Status)
		}
	}
}

// TestKickoffAtKickoffTime submits a bundle whose kick-off time is ahead: nothing of its
// coordinators exists until then, the kick-off is a trigger due at that time (not a scan),
// and at that time both coordinators are submitted, a disabled one left out.
func TestKickoffAtKickoffTime(t *testing.T) {
	t.Parallel()
	w := setup(t, options{auto: true})
	a := w.coordApp("a", "2010-01-01T06:00Z", "2010-01-01T08:00Z")
	bApp := w.coordApp("b", "2010-01-01T06:00Z", "2010-01-01T07:00Z")
	app := w.bundleApp("kick", `<bundle-app name="kick" xmlns="uri:oozie:bundle:0.2">
  <controls><kick-off-time>${kickOff}</kick-off-time></controls>
  <coordinator name="first" critical="true"><app-path>`+a+`</app-path></coordinator>
  <coordinator name="second"><app-path>`+bApp+`</app-path>
    <configuration><property><name>who</name><value>second</value></property></configuration></coordinator>
  <coordinator name="off" enabled="false"><app-path>`+a+`</app-path></coordinator>
</bundle-app>`)
	kick := time.Date(2010, 1, 1, 5, 30, 0, 0, time.UTC)
	id := w.submit(w.props(app, "kickOff", "2010-01-01T05:30Z"))
	w.settle()
	if due, ok := w.triggerDue(KindKickoff, id); !ok || !due.Equal(kick) {
		t.Fatalf("kick-off trigger due %v (%v), want %v", due, ok, kick)
	}
	if b := w.bundle(id); b.Status != store.JobPrep || !b.KickoffTime.Equal(kick) || len(w.coordinators(id)) != 0 {
		t.Fatalf("before kick-off: %+v, coordinators %v", b, w.coordinators(id))
	}
	w.advance(29 * time.Minute)
	if n := len(w.coordinators(id)); n != 0 {
		t.Fatalf("%d coordinators a minute before the kick-off", n)
	}
	w.advance(time.Minute)
	coords := w.coordinators(id)
	if len(coords) != 2 || coords["first"].ID == "" || coords["second"].ID == "" {
		t.Fatalf("coordinators at kick-off: %v", coords)
	}
	if b := w.bundle(id); b.Status != store.JobRunning || !b.StartTime.Equal(kick) {
		t.Fatalf("bundle at kick-off: %+v", b)
	}
	links := w.links(id)
	if len(links) != 2 || !links["first"].Critical || links["second"].Critical {
		t.Errorf("links %+v", links)
	}
	if !strings.Contains(coords["second"].Conf, "<value>second</value>") || strings.Contains(coords["first"].Conf, "<value>second</value>") {
		t.Errorf("the entry's configuration does not override the bundle's only for its coordinator")
	}
	// The coordinators run their actions (the executor ends them at once) and the bundle
	// follows them to the end.
	w.advance(3 * time.Hour)
	if got := w.bundle(id).Status; got != store.JobSucceeded {
		t.Fatalf("bundle %s, coordinators %v", got, w.coordinators(id))
	}
}

func TestKickoffFailures(t *testing.T) {
	t.Parallel()
	w := setup(t, options{auto: true})
	good := w.coordApp("good", "2010-01-01T06:00Z", "2010-01-01T08:00Z")
	tests := []struct {
		name, xml string
		links     map[string]store.JobStatus
	}{
		{"no enabled coordinator", `<bundle-app name="none" xmlns="uri:oozie:bundle:0.2">
  <coordinator name="off" enabled="false"><app-path>` + good + `</app-path></coordinator></bundle-app>`, map[string]store.JobStatus{}},
		{"a missing coordinator app", `<bundle-app name="missing" xmlns="uri:oozie:bundle:0.2">
  <coordinator name="ok"><app-path>` + good + `</app-path></coordinator>
  <coordinator name="gone"><app-path>` + w.nn + `/apps/nothing-here</app-path></coordinator></bundle-app>`,
			map[string]store.JobStatus{"ok": store.JobKilled, "gone": store.JobFailed}},
		{"a schema 0.1 coordinator", `<bundle-app name="old" xmlns="uri:oozie:bundle:0.2">
  <coordinator name="old"><app-path>` + w.nn + `/apps/old01</app-path></coordinator></bundle-app>`,
			map[string]store.JobStatus{"old": store.JobFailed}},
	}
	w.write("/apps/old01/coordinator.xml", `<coordinator-app name="o" frequency="60" start="2010-01-01T06:00Z" end="2010-01-01T07:00Z"
    timezone="UTC" xmlns="uri:oozie:coordinator:0.1"><action><workflow><app-path>/x</app-path></workflow></action></coordinator-app>`)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id := w.submit(w.props(w.bundleApp(strings.ReplaceAll(tc.name, " ", "-"), tc.xml)))
			w.settle()
			if b := w.bundle(id); b.Status != store.JobFailed {
				t.Fatalf("bundle %s, want FAILED", b.Status)
			}
			if n := len(w.coordinators(id)); n != 0 {
				t.Errorf("%d coordinators stored for a bundle that failed to start", n)
			}
			links := w.links(id)
			if len(links) != len(tc.links) {
				t.Fatalf("links %+v, want %v", links, tc.links)
			}
			for name, want := range tc.links {
				if links[name].Status != want || links[name].CoordID != "" {
					t.Errorf("link %s = %+v, want %s without a coordinator", name, links[name], want)
				}
			}
			// A failed bundle stays failed.
			w.advance(time.Hour)
			if b := w.bundle(id); b.Status != store.JobFailed {
				t.Errorf("bundle %s after an hour, want FAILED", b.Status)
			}
		})
	}
}

// TestStartBeforeKickoff starts a PREP bundle with -start before its kick-off time: the
// coordinators are submitted at once. A second start does nothing.
func TestStartBeforeKickoff(t *testing.T) {
	t.Parallel()
	w := setup(t, options{})
	app := w.bundleApp("early", `<bundle-app name="early" xmlns="uri:oozie:bundle:0.2">
  <controls><kick-off-time>2011-01-01T00:00Z</kick-off-time></controls>
  <coordinator name="c"><app-path>`+w.coordApp("c", "2010-01-01T06:00Z", "2010-01-01T08:00Z")+`</app-path></coordinator>
</bundle-app>`)
	id := w.submit(w.props(app))
	w.settle()
	if len(w.coordinators(id)) != 0 {
		t.Fatal("coordinators before the kick-off")
	}
	if err := w.bundles.Start(bg, id); err != nil {
		t.Fatal(err)
	}
	w.settle()
	if b := w.bundle(id); b.Status != store.JobRunning || len(w.coordinators(id)) != 1 {
		t.Fatalf("after -start: %s with %d coordinators", b.Status, len(w.coordinators(id)))
	}
	if err := w.bundles.Start(bg, id); err != nil {
		t.Fatal(err)
	}
	w.settle()
	if n := len(w.coordinators(id)); n != 1 {
		t.Fatalf("a second start made %d coordinators", n)
	}
	if err := w.bundles.Start(bg, "0000099-100101000000000-gozie-test-B"); ErrorCode(err) != oozieerr.E0604 {
		t.Errorf("start of an unknown bundle: %v, want E0604", err)
	}
}
