package bundlerun

import (
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/store"
)

// TestBundleExample runs Oozie's bundle example unchanged, with the aggregator example it
// points at: the bundle kicks off at once (it has no kick-off time), its coordinator takes
// the bundle entry's name and the bundle's configuration with the entry's start and end,
// runs its two hourly actions, and the bundle follows it to SUCCEEDED.
func TestBundleExample(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			testBundleExample(t, setup(t, options{postgres: backend == "postgres"}))
		})
	}
}

func testBundleExample(t *testing.T, w *world) {
	w.installExample("aggregator")
	w.installExample("bundle")
	raw := "/user/alice/examples/input-data/rawLogs/2010/01/01/"
	for _, dir := range []string{"00/20", "00/40", "01/00", "01/20", "01/40", "02/00"} {
		w.write(raw+dir+"/part-00000", "log\n")
		w.write(raw+dir+"/_SUCCESS", "")
	}
	id := w.submit(w.exampleProps("bundle"))
	if !strings.HasSuffix(id, "-B") {
		t.Fatalf("bundle id %s", id)
	}
	w.settle()
	b := w.bundle(id)
	if b.Status != store.JobRunning || b.AppName != "bundle-app" || !b.StartTime.Equal(w.clock.Now()) {
		t.Fatalf("bundle = %+v", b)
	}
	coords := w.coordinators(id)
	c, ok := coords["coord-1"]
	if len(coords) != 1 || !ok {
		t.Fatalf("coordinators %v, want coord-1 only", coords)
	}
	if c.BundleID != id || c.AppPath != w.nn+"/user/alice/examples/apps/aggregator/coordinator.xml" ||
		!c.StartTime.Equal(time.Date(2010, 1, 1, 1, 0, 0, 0, time.UTC)) || !c.EndTime.Equal(time.Date(2010, 1, 1, 3, 0, 0, 0, time.UTC)) {
		t.Fatalf("coordinator %+v", c)
	}
	for _, want := range []string{"oozie.bundle.id", id, "oozie.coord.application.path"} {
		if !strings.Contains(c.Conf, want) {
			t.Errorf("coordinator configuration lacks %s:\n%s", want, c.Conf)
		}
	}
	if l := w.links(id)["coord-1"]; l.CoordID != c.ID || l.ID != id+"_coord-1" {
		t.Errorf("link %+v", l)
	}
	for done := 0; done < 2; {
		w.waitFor("a running action", func() bool {
			for _, a := range w.coordActions(c.ID) {
				if a.Status == store.CoordActionRunning {
					return true
				}
			}
			return false
		})
		for _, a := range w.coordActions(c.ID) {
			if a.Status == store.CoordActionRunning {
				w.complete(a, actions.OK)
				done++
			}
		}
		w.settle()
	}
	w.settle()
	if got := w.bundle(id).Status; got != store.JobSucceeded {
		t.Fatalf("bundle ended %s, want SUCCEEDED (coordinator %s)", got, w.coordinators(id)["coord-1"].Status)
	}
	if l := w.links(id)["coord-1"]; l.Status != store.JobSucceeded {
		t.Errorf("link status %s, want SUCCEEDED", l.Status)
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
	if err := w.bundles.Start(bg, "0000099-100101000000000-gozie-test-B"); ErrorCode(err) != CodeJobNotFound {
		t.Errorf("start of an unknown bundle: %v, want E0604", err)
	}
}
