package bundlerun

import (
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// twoCoordinators submits a bundle of two hourly coordinators without inputs (06:00 to
// 09:00) and lets it kick off; it returns the bundle id.
func twoCoordinators(w *world, name string) string {
	w.t.Helper()
	a := w.coordApp(name+"-a", "2010-01-01T06:00Z", "2010-01-01T09:00Z")
	b := w.coordApp(name+"-b", "2010-01-01T06:00Z", "2010-01-01T09:00Z")
	app := w.bundleApp(name, `<bundle-app name="`+name+`" xmlns="uri:oozie:bundle:0.2">
  <coordinator name="a"><app-path>`+a+`</app-path></coordinator>
  <coordinator name="b"><app-path>`+b+`</app-path></coordinator>
</bundle-app>`)
	id := w.submit(w.props(app))
	w.settle()
	if st := w.bundle(id).Status; st != store.JobRunning {
		w.t.Fatalf("bundle %s after kick-off, want RUNNING", st)
	}
	return id
}

// coordStatuses returns the statuses of a bundle's coordinators a and b.
func (w *world) coordStatuses(id string) [2]store.JobStatus {
	c := w.coordinators(id)
	return [2]store.JobStatus{c["a"].Status, c["b"].Status}
}

// TestSuspendResumeCascade suspends a running bundle: it and its coordinators are
// SUSPENDED in one command, their actions' workflows with them, and no roll-up moves the
// bundle back while it is suspended; resume brings all of it back to RUNNING.
func TestSuspendResumeCascade(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			testSuspendResumeCascade(t, setup(t, options{postgres: backend == "postgres"}))
		})
	}
}

func testSuspendResumeCascade(t *testing.T, w *world) {
	id := twoCoordinators(w, "sr")
	w.advance(time.Hour) // 06:00: each coordinator's first action runs
	running := func(s store.CoordActionStatus) int {
		n := 0
		for _, c := range w.coordinators(id) {
			for _, a := range w.coordActions(c.ID) {
				if a.Status == s {
					n++
				}
			}
		}
		return n
	}
	if n := running(store.CoordActionRunning); n != 2 {
		t.Fatalf("%d running actions, want 2", n)
	}
	if err := w.bundles.Suspend(bg, id); err != nil {
		t.Fatal(err)
	}
	if b := w.bundle(id); b.Status != store.JobSuspended || b.SuspendedTime.IsZero() {
		t.Fatalf("bundle after suspend: %s", b.Status)
	}
	if st := w.coordStatuses(id); st != [2]store.JobStatus{store.JobSuspended, store.JobSuspended} {
		t.Fatalf("coordinators after suspend: %v", st)
	}
	w.settle()
	if n := running(store.CoordActionSuspended); n != 2 {
		t.Fatalf("%d suspended actions, want 2", n)
	}
	w.advance(time.Hour)
	if b := w.bundle(id); b.Status != store.JobSuspended {
		t.Fatalf("bundle %s an hour into its suspension", b.Status)
	}
	// A second suspend does nothing.
	if err := w.bundles.Suspend(bg, id); err != nil {
		t.Fatal(err)
	}
	if err := w.bundles.Resume(bg, id); err != nil {
		t.Fatal(err)
	}
	if b := w.bundle(id); b.Status != store.JobRunning || !b.SuspendedTime.IsZero() {
		t.Fatalf("bundle after resume: %+v", b)
	}
	if st := w.coordStatuses(id); st != [2]store.JobStatus{store.JobRunning, store.JobRunning} {
		t.Fatalf("coordinators after resume: %v", st)
	}
	w.settle()
	if n := running(store.CoordActionSuspended); n != 0 {
		t.Fatalf("%d actions still suspended", n)
	}
	// Resume of a running bundle does nothing.
	if err := w.bundles.Resume(bg, id); err != nil {
		t.Fatal(err)
	}
	if b := w.bundle(id); b.Status != store.JobRunning {
		t.Fatalf("bundle %s", b.Status)
	}
}

// TestSuspendBeforeKickoff suspends a PREP bundle: its kick-off time passes without a
// kick-off, and resume kicks it off at once.
func TestSuspendBeforeKickoff(t *testing.T) {
	t.Parallel()
	w := setup(t, options{})
	app := w.bundleApp("wait", `<bundle-app name="wait" xmlns="uri:oozie:bundle:0.2">
  <controls><kick-off-time>2010-01-01T05:10Z</kick-off-time></controls>
  <coordinator name="c"><app-path>`+w.coordApp("wait-c", "2010-01-01T06:00Z", "2010-01-01T08:00Z")+`</app-path></coordinator>
</bundle-app>`)
	id := w.submit(w.props(app))
	if err := w.bundles.Suspend(bg, id); err != nil {
		t.Fatal(err)
	}
	if st := w.bundle(id).Status; st != store.JobPrepSuspended {
		t.Fatalf("bundle %s, want PREPSUSPENDED", st)
	}
	w.advance(20 * time.Minute)
	if st := w.bundle(id).Status; st != store.JobPrepSuspended || len(w.coordinators(id)) != 0 {
		t.Fatalf("bundle %s with %d coordinators past its kick-off time while suspended", st, len(w.coordinators(id)))
	}
	if err := w.bundles.Resume(bg, id); err != nil {
		t.Fatal(err)
	}
	w.settle()
	if st := w.bundle(id).Status; st != store.JobRunning || len(w.coordinators(id)) != 1 {
		t.Fatalf("bundle %s with %d coordinators after resume", st, len(w.coordinators(id)))
	}
}

// TestKillCascade kills a running bundle: it and its coordinators are KILLED, their running
// workflows killed, and the bundle stays KILLED; a second kill does nothing.
func TestKillCascade(t *testing.T) {
	t.Parallel()
	w := setup(t, options{})
	id := twoCoordinators(w, "kill")
	w.advance(time.Hour)
	if err := w.bundles.Kill(bg, id); err != nil {
		t.Fatal(err)
	}
	if st := w.bundle(id).Status; st != store.JobKilled {
		t.Fatalf("bundle %s, want KILLED", st)
	}
	if st := w.coordStatuses(id); st != [2]store.JobStatus{store.JobKilled, store.JobKilled} {
		t.Fatalf("coordinators %v", st)
	}
	w.settle()
	for _, c := range w.coordinators(id) {
		for _, a := range w.coordActions(c.ID) {
			if a.Status != store.CoordActionKilled {
				t.Errorf("action %s is %s", a.ID, a.Status)
			}
		}
	}
	for name, l := range w.links(id) {
		if l.Status != store.JobKilled {
			t.Errorf("link %s is %s", name, l.Status)
		}
	}
	if err := w.bundles.Kill(bg, id); err != nil {
		t.Fatal(err)
	}
	w.advance(time.Hour)
	if st := w.bundle(id).Status; st != store.JobKilled {
		t.Fatalf("bundle %s an hour after its kill", st)
	}
}

// TestKillBeforeKickoff kills a PREP bundle: it never kicks off.
func TestKillBeforeKickoff(t *testing.T) {
	t.Parallel()
	w := setup(t, options{})
	app := w.bundleApp("k", `<bundle-app name="k" xmlns="uri:oozie:bundle:0.2">
  <controls><kick-off-time>2010-01-01T06:00Z</kick-off-time></controls>
  <coordinator name="c"><app-path>`+w.coordApp("k-c", "2010-01-01T06:00Z", "2010-01-01T08:00Z")+`</app-path></coordinator>
</bundle-app>`)
	id := w.submit(w.props(app))
	if err := w.bundles.Kill(bg, id); err != nil {
		t.Fatal(err)
	}
	if _, ok := w.triggerDue(KindKickoff, id); ok {
		t.Error("the kick-off is still due after the kill")
	}
	w.advance(2 * time.Hour)
	if st := w.bundle(id).Status; st != store.JobKilled || len(w.coordinators(id)) != 0 {
		t.Fatalf("bundle %s with %d coordinators", st, len(w.coordinators(id)))
	}
}

// TestChangePauseTime pauses a bundle and its coordinators with a pause time, which the
// bundle reaches on its own trigger; clearing it runs them again.
func TestChangePauseTime(t *testing.T) {
	t.Parallel()
	w := setup(t, options{auto: true})
	id := twoCoordinators(w, "pause")
	pause := time.Date(2010, 1, 1, 6, 30, 0, 0, time.UTC)
	if err := w.bundles.Change(bg, id, "pausetime=2010-01-01T06:30Z"); err != nil {
		t.Fatal(err)
	}
	if b := w.bundle(id); !b.PauseTime.Equal(pause) {
		t.Fatalf("bundle pause time %v", b.PauseTime)
	}
	for name, c := range w.coordinators(id) {
		if !c.PauseTime.Equal(pause) {
			t.Errorf("coordinator %s pause time %v", name, c.PauseTime)
		}
	}
	w.settle()
	if due, ok := w.triggerDue(KindStatus, id); !ok || !due.Equal(pause) {
		t.Errorf("bundle status due %v (%v), want at the pause time", due, ok)
	}
	w.advance(2 * time.Hour)
	if st := w.bundle(id).Status; st != store.JobPaused {
		t.Fatalf("bundle %s past its pause time, want PAUSED", st)
	}
	if st := w.coordStatuses(id); st != [2]store.JobStatus{store.JobPaused, store.JobPaused} {
		t.Fatalf("coordinators %v", st)
	}
	if err := w.bundles.Change(bg, id, "pausetime="); err != nil {
		t.Fatal(err)
	}
	w.settle()
	if st := w.bundle(id).Status; st != store.JobRunning {
		t.Fatalf("bundle %s after its pause time was cleared", st)
	}
	if st := w.coordStatuses(id); st != [2]store.JobStatus{store.JobRunning, store.JobRunning} {
		t.Fatalf("coordinators %v", st)
	}
	w.advance(3 * time.Hour)
	if st := w.bundle(id).Status; st != store.JobSucceeded {
		t.Fatalf("bundle %s at the end", st)
	}
}

// TestChangeEndTime moves a bundle's end time and its coordinators' with it; a change the
// coordinators refuse (a running action after the new end) changes nothing at all, and bad
// values are refused.
func TestChangeEndTime(t *testing.T) {
	t.Parallel()
	w := setup(t, options{})
	id := twoCoordinators(w, "end")
	w.advance(2 * time.Hour) // 07:00: two actions each, the first running
	if err := w.bundles.Change(bg, id, "endtime=2010-01-01T06:30Z"); ErrorCode(err) != "E1022" {
		t.Fatalf("end before a running action: %v, want E1022", err)
	}
	if b := w.bundle(id); !b.EndTime.IsZero() {
		t.Fatalf("bundle end time %v after a refused change", b.EndTime)
	}
	for name, c := range w.coordinators(id) {
		if !c.EndTime.Equal(time.Date(2010, 1, 1, 9, 0, 0, 0, time.UTC)) {
			t.Errorf("coordinator %s end %v after a refused change", name, c.EndTime)
		}
	}
	end := time.Date(2010, 1, 1, 8, 0, 0, 0, time.UTC)
	if err := w.bundles.Change(bg, id, "endtime=2010-01-01T08:00Z"); err != nil {
		t.Fatal(err)
	}
	if b := w.bundle(id); !b.EndTime.Equal(end) {
		t.Fatalf("bundle end time %v", b.EndTime)
	}
	for name, c := range w.coordinators(id) {
		if !c.EndTime.Equal(end) {
			t.Errorf("coordinator %s end %v", name, c.EndTime)
		}
	}
	for _, tc := range []struct {
		value string
		code  oozieerr.Code
	}{
		{"concurrency=2", "E1317"},
		{"endtime=2010-01-01T08:00", "E1317"},
		{"pausetime=2009-12-31T00:00Z", "E1317"},
		{"endtime=2009-01-01T00:00Z", ""}, // no kick-off time: nothing to compare with
		{"pausetime", "E1015"},
	} {
		err := w.bundles.Change(bg, id, tc.value)
		if tc.code == "" {
			// Accepted by the bundle, refused by the coordinators whose actions run.
			if ErrorCode(err) != "E1022" {
				t.Errorf("change %q: %v, want the coordinators' E1022", tc.value, err)
			}
			continue
		}
		if ErrorCode(err) != tc.code {
			t.Errorf("change %q: %v, want %s", tc.value, err, tc.code)
		}
	}
	if err := w.bundles.Change(bg, "0000001-100101000000000-gozie-test-B", "pausetime="); ErrorCode(err) != oozieerr.E0604 {
		t.Errorf("change of an unknown bundle: %v", err)
	}
}

// TestRerun reruns a succeeded bundle's coordinator by name: its actions run again and the
// bundle goes back to RUNNING, then to SUCCEEDED. A rerun of a killed bundle does nothing.
func TestRerun(t *testing.T) {
	t.Parallel()
	w := setup(t, options{auto: true})
	id := twoCoordinators(w, "rerun")
	w.advance(4 * time.Hour)
	if st := w.bundle(id).Status; st != store.JobSucceeded {
		t.Fatalf("bundle %s, want SUCCEEDED", st)
	}
	acts, err := w.bundles.Rerun(bg, id, RerunOptions{Coordinators: "b,nope"})
	if err != nil {
		t.Fatal(err)
	}
	coords := w.coordinators(id)
	if len(acts) != 3 {
		t.Fatalf("%d actions rerun, want the 3 of b", len(acts))
	}
	for _, a := range acts {
		if a.JobID != coords["b"].ID || a.Status != store.CoordActionWaiting {
			t.Errorf("rerun action %s of %s is %s", a.ID, a.JobID, a.Status)
		}
	}
	if st := w.bundle(id).Status; st != store.JobRunning {
		t.Fatalf("bundle %s after the rerun, want RUNNING", st)
	}
	w.settle()
	if st := w.bundle(id).Status; st != store.JobSucceeded {
		t.Fatalf("bundle %s once the rerun ended", st)
	}
	// By date, every coordinator.
	acts, err = w.bundles.Rerun(bg, id, RerunOptions{Dates: "2010-01-01T07:00Z"})
	if err != nil || len(acts) != 2 {
		t.Fatalf("rerun by date: %d actions, %v", len(acts), err)
	}
	w.settle()
	// Nothing in scope.
	if _, err := w.bundles.Rerun(bg, id, RerunOptions{Dates: "2011-01-01T00:00Z"}); ErrorCode(err) != oozieerr.E1018 {
		t.Errorf("rerun of no action: %v, want E1018", err)
	}
	if _, err := w.bundles.Rerun(bg, id, RerunOptions{}); ErrorCode(err) != oozieerr.E1018 {
		t.Errorf("rerun without scope: %v, want E1018", err)
	}
}

// TestRerunKilled leaves a killed bundle alone.
func TestRerunKilled(t *testing.T) {
	t.Parallel()
	w := setup(t, options{auto: true})
	id := twoCoordinators(w, "rk")
	if err := w.bundles.Kill(bg, id); err != nil {
		t.Fatal(err)
	}
	acts, err := w.bundles.Rerun(bg, id, RerunOptions{Coordinators: "a"})
	if err != nil || len(acts) != 0 {
		t.Fatalf("rerun of a killed bundle: %v, %v", acts, err)
	}
	if st := w.bundle(id).Status; st != store.JobKilled {
		t.Fatalf("bundle %s", st)
	}
}

// TestRollupFollowsCoordinators checks the roll-up end to end: a coordinator whose action
// fails ends DONEWITHERROR, and the bundle with it.
func TestRollupFollowsCoordinators(t *testing.T) {
	t.Parallel()
	w := setup(t, options{})
	id := twoCoordinators(w, "mix")
	for hour := 0; hour < 3; hour++ {
		w.advance(time.Hour)
		for name, c := range w.coordinators(id) {
			for _, a := range w.coordActions(c.ID) {
				if a.Status != store.CoordActionRunning {
					continue
				}
				outcome := workflow.OutcomeOK
				if name == "b" && hour == 1 {
					outcome = workflow.OutcomeError
				}
				w.complete(a, outcome)
			}
		}
		w.settle()
	}
	w.advance(time.Hour)
	if st := w.coordStatuses(id); st != [2]store.JobStatus{store.JobSucceeded, store.JobDoneWithError} {
		t.Fatalf("coordinators %v", st)
	}
	if st := w.bundle(id).Status; st != store.JobDoneWithError {
		t.Fatalf("bundle %s, want DONEWITHERROR", st)
	}
}

// TestSubmitErrors checks that a bad submission stores nothing and says why with Oozie's
// code.
func TestSubmitErrors(t *testing.T) {
	t.Parallel()
	w := setup(t, options{})
	good := w.coordApp("g", "2010-01-01T06:00Z", "2010-01-01T07:00Z")
	valid := `<bundle-app name="b" xmlns="uri:oozie:bundle:0.2"><coordinator name="c"><app-path>` + good + `</app-path></coordinator></bundle-app>`
	w.bundleApp("valid", valid)
	w.write("/apps/defaults/bundle.xml", valid)
	w.write("/apps/defaults/bundle-config-default.xml", `<configuration><property><name>user.name</name><value>x</value></property></configuration>`)
	w.write("/apps/file/my-bundle.xml", `<bundle-app name="${n}" xmlns="uri:oozie:bundle:0.2"><coordinator name="c"><app-path>`+good+`</app-path></coordinator></bundle-app>`)
	tests := []struct {
		name  string
		props []string
		code  oozieerr.Code
	}{
		{"no app path", []string{PropAppPath, ""}, oozieerr.E0302},
		{"no user", []string{"user.name", ""}, oozieerr.E0401},
		{"missing app", []string{PropAppPath, w.nn + "/apps/none"}, oozieerr.E1301},
		{"no bundle.xml", []string{PropAppPath, w.nn + "/apps/g"}, oozieerr.E1301},
		{"invalid XML", []string{PropAppPath, w.bundleApp("bad", `<bundle-app name="b" xmlns="uri:oozie:bundle:0.2"/>`)}, "E0701"},
		{"reserved property", []string{PropAppPath, w.nn + "/apps/valid", "HOUR", "1"}, "E0808"},
		{"user in the defaults", []string{PropAppPath, w.nn + "/apps/defaults"}, "E0808"},
		{"EL error", []string{PropAppPath, w.nn + "/apps/file/my-bundle.xml"}, "E1004"},
	}
	for _, tc := range tests {
		p := w.props(w.nn + "/apps/valid")
		for i := 0; i+1 < len(tc.props); i += 2 {
			p.Set(tc.props[i], tc.props[i+1])
		}
		if _, err := w.bundles.Submit(bg, p); ErrorCode(err) != tc.code {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code)
		}
	}
	if n, m := w.stored(); n != 0 || m != 0 {
		t.Fatalf("%d bundles and %d triggers stored by refused submissions", n, m)
	}
	// A file app path and a dry run.
	def, err := w.bundles.DryRun(bg, w.props(w.nn+"/apps/file/my-bundle.xml", "n", "named"))
	if err != nil || !strings.Contains(def, `name="named"`) || !strings.Contains(def, good) {
		t.Fatalf("dry run: %v\n%s", err, def)
	}
	if n, _ := w.stored(); n != 0 {
		t.Fatalf("a dry run stored %d bundles", n)
	}
	id := w.submit(w.props(w.nn+"/apps/file/my-bundle.xml", "n", "named"))
	b := w.bundle(id)
	if b.AppName != "named" || !strings.Contains(b.OrigDefinition, `name="${n}"`) || b.Definition != def {
		t.Errorf("stored bundle %+v", b)
	}
}

// TestPauseBeforeKickoff pauses a PREP bundle with a pause time before its kick-off: it
// becomes PREPPAUSED and does not kick off; clearing the pause time makes it PREP again
// and kicks it off at once, its kick-off time having passed.
func TestPauseBeforeKickoff(t *testing.T) {
	t.Parallel()
	w := setup(t, options{})
	app := w.bundleApp("pp", `<bundle-app name="pp" xmlns="uri:oozie:bundle:0.2">
  <controls><kick-off-time>2010-01-01T06:00Z</kick-off-time></controls>
  <coordinator name="c"><app-path>`+w.coordApp("pp-c", "2010-01-01T06:00Z", "2010-01-01T08:00Z")+`</app-path></coordinator>
</bundle-app>`)
	id := w.submit(w.props(app))
	if err := w.bundles.Change(bg, id, "pausetime=2010-01-01T05:30Z"); err != nil {
		t.Fatal(err)
	}
	w.advance(40 * time.Minute)
	if st := w.bundle(id).Status; st != store.JobPrepPaused {
		t.Fatalf("bundle %s past its pause time, want PREPPAUSED", st)
	}
	w.advance(time.Hour)
	if st := w.bundle(id).Status; st != store.JobPrepPaused || len(w.coordinators(id)) != 0 {
		t.Fatalf("bundle %s with %d coordinators past its kick-off time while paused", st, len(w.coordinators(id)))
	}
	if err := w.bundles.Change(bg, id, "pausetime="); err != nil {
		t.Fatal(err)
	}
	w.settle()
	if st := w.bundle(id).Status; st != store.JobRunning || len(w.coordinators(id)) != 1 {
		t.Fatalf("bundle %s with %d coordinators once unpaused", st, len(w.coordinators(id)))
	}
}
