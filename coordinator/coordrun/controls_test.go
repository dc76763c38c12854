package coordrun

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// coordXML is a coordinator app with the given attributes, controls and an
// optional hourly input dataset under the cluster's /data.
func coordXML(freq, start, end, controls string, withInput bool) string {
	events := ""
	if withInput {
		events = `
  <datasets>
    <dataset name="logs" frequency="${coord:hours(1)}" initial-instance="2009-01-01T00:00Z" timezone="UTC">
      <uri-template>${nameNode}/data/logs/${YEAR}${MONTH}${DAY}${HOUR}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="in" dataset="logs"><instance>${coord:current(0)}</instance></data-in>
  </input-events>`
	}
	return fmt.Sprintf(`<coordinator-app name="test-coord" frequency="%s" start="%s" end="%s" timezone="UTC"
    xmlns="uri:oozie:coordinator:0.4">
  <controls>%s</controls>%s
  <action><workflow><app-path>${wfApp}</app-path>
    <configuration><property><name>nominal</name><value>${coord:nominalTime()}</value></property></configuration>
  </workflow></action>
</coordinator-app>`, freq, start, end, controls, events)
}

// logURI is the instance of the test dataset at t.
func (w *world) logURI(t time.Time) string {
	return w.nn + "/data/logs/" + t.UTC().Format("2006010215")
}

// TestLastOnlyFarInThePast: a LAST_ONLY job started a day ago materializes
// the missed actions, skips all but the latest, runs that one, and goes on
// with the next ones as they come.
func TestLastOnlyFarInThePast(t *testing.T) {
	t.Parallel()
	now := time.Date(2010, 1, 2, 0, 30, 0, 0, time.UTC)
	w := setup(t, options{now: now, auto: true})
	app := w.app("lastonly", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-03T00:00Z",
		"<execution>LAST_ONLY</execution>", false))
	id := w.submit(w.props(app))
	w.settle()
	acts := w.actions(id)
	if len(acts) != 25 {
		t.Fatalf("%d actions, want 25 (every hour from the start up to now)", len(acts))
	}
	for _, a := range acts[:24] {
		if a.Status != store.CoordActionSkipped || a.ExternalID != "" {
			t.Fatalf("%s (%v) is %s with workflow %q, want SKIPPED without one", a.ID, a.NominalTime, a.Status, a.ExternalID)
		}
	}
	last := acts[24]
	if !last.NominalTime.Equal(time.Date(2010, 1, 2, 0, 0, 0, 0, time.UTC)) || last.Status != store.CoordActionSucceeded {
		t.Fatalf("latest action %v is %s, want 2010-01-02T00:00Z SUCCEEDED", last.NominalTime, last.Status)
	}
	if n := len(w.exec.Started()); n != 1 {
		t.Fatalf("%d workflows ran, want 1", n)
	}
	if j := w.job(id); j.Status != store.JobRunning {
		t.Fatalf("job is %s, want RUNNING", j.Status)
	}
	// The next materialization is due at its nominal time minus the
	// look-ahead, and runs then.
	due, ok := w.triggerDue(KindMaterialize, id)
	if want := time.Date(2010, 1, 2, 0, 55, 0, 0, time.UTC); !ok || !due.Equal(want) {
		t.Fatalf("materialization due at %v (%v), want %v", due, ok, want)
	}
	w.advance(31 * time.Minute) // 01:01
	acts = w.actions(id)
	if len(acts) != 26 || acts[25].Status != store.CoordActionSucceeded {
		t.Fatalf("after 01:00: %d actions, last %s", len(acts), acts[len(acts)-1].Status)
	}
}

// TestTimeoutAndRollup: an action whose input never comes times out when its
// timeout expires (measured from its nominal time), the job keeps RUNNING (its
// RUNNINGWITHERROR hidden by default, shown when configured), and once every
// action has finished the mix of TIMEDOUT and SUCCEEDED is DONEWITHERROR.
func TestTimeoutAndRollup(t *testing.T) {
	t.Parallel()
	for _, hideErrors := range []bool{true, false} {
		t.Run(fmt.Sprintf("hide=%v", hideErrors), func(t *testing.T) {
			t.Parallel()
			start := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
			w := setup(t, options{now: start, auto: true, settings: func(s *coordinator.Settings) { s.HideErrorStates = hideErrors }})
			app := w.app("timeout", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-01T02:00Z",
				"<timeout>10</timeout>", true))
			id := w.submit(w.props(app))
			w.settle()
			a1 := ActionIDOf(id, 1)
			if a := w.action(a1); a.Status != store.CoordActionWaiting || a.Timeout != 10 {
				t.Fatalf("action 1: %s timeout %d", a.Status, a.Timeout)
			}
			if due, want := w.checkedBy(a1), start.Add(11*time.Minute); !due.Equal(want) {
				t.Fatalf("timeout check due at %v, want %v", due, want)
			}
			w.advance(10 * time.Minute)
			if a := w.action(a1); a.Status != store.CoordActionWaiting {
				t.Fatalf("after 10 minutes action 1 is %s, want WAITING", a.Status)
			}
			w.advance(time.Minute)
			w.waitActionStatus(a1, store.CoordActionTimedOut)
			wantRunning := store.JobRunning
			if !hideErrors {
				wantRunning = store.JobRunningWithError
			}
			w.waitJobStatus(id, wantRunning)
			// The second action's input arrives in time.
			w.touch(w.logURI(start.Add(time.Hour)) + "/_SUCCESS")
			w.advance(50 * time.Minute) // 01:01
			w.waitActionStatus(ActionIDOf(id, 2), store.CoordActionSucceeded)
			job := w.waitJobStatus(id, store.JobDoneWithError)
			if !job.DoneMaterialization || job.LastActionNumber != 2 {
				t.Fatalf("job: done %v, last action %d", job.DoneMaterialization, job.LastActionNumber)
			}
		})
	}
}

// checkedBy returns the timeout deadline of a waiting action, by which it
// is checked at the latest: its input check is due then or earlier, or the
// job's timeout check is due then.
func (w *world) checkedBy(actionID string) time.Time {
	w.t.Helper()
	a := w.action(actionID)
	deadline, ok := timeoutDeadline(a)
	if !ok {
		w.t.Fatalf("action %s never times out", actionID)
	}
	check, ok := w.triggerDue(KindInputCheck, actionID)
	timeout, armed := w.triggerDue(KindTimeout, a.JobID)
	if (!ok || check.After(deadline)) && !(armed && !timeout.After(deadline)) {
		w.t.Fatalf("action %s (deadline %v): next input check at %v (%v), timeout check at %v (%v)",
			actionID, deadline, check, ok, timeout, armed)
	}
	return deadline
}

// ActionIDOf is the id of action n of a job.
func ActionIDOf(jobID string, n int) string { return coordinator.ActionID(jobID, n) }

// TestTimeoutMinusOne: a timeout of -1 ("never") waits Oozie's maximum of
// 86400 minutes, not forever.
func TestTimeoutMinusOne(t *testing.T) {
	t.Parallel()
	start := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	w := setup(t, options{now: start})
	app := w.app("never", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-01T01:00Z", "<timeout>-1</timeout>", true))
	id := w.submit(w.props(app))
	w.settle()
	a := w.action(ActionIDOf(id, 1))
	if a.Timeout != 86400 {
		t.Fatalf("timeout %d, want 86400", a.Timeout)
	}
	if due, want := w.checkedBy(ActionIDOf(id, 1)), start.Add(86401*time.Minute); !due.Equal(want) {
		t.Fatalf("timeout check due at %v, want %v", due, want)
	}
}

// TestExecutionOrder starts three ready actions one at a time (concurrency
// raised from 0 to 1 by a change) in FIFO and LIFO order.
func TestExecutionOrder(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		exec  string
		order []int
	}{{"FIFO", []int{1, 2, 3}}, {"LIFO", []int{3, 2, 1}}} {
		t.Run(tc.exec, func(t *testing.T) {
			t.Parallel()
			w := setup(t, options{})
			app := w.app("order", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-01T03:00Z",
				"<concurrency>0</concurrency><execution>"+tc.exec+"</execution>", false))
			id := w.submit(w.props(app))
			w.settle()
			if st := w.statuses(id); !slices.Equal(st, []store.CoordActionStatus{"READY", "READY", "READY"}) {
				t.Fatalf("with concurrency 0: %v", st)
			}
			if err := w.coords.Change(bg, id, "concurrency=1"); err != nil {
				t.Fatal(err)
			}
			for _, n := range tc.order {
				aid := ActionIDOf(id, n)
				w.waitActionStatus(aid, store.CoordActionRunning)
				w.settle()
				running := 0
				for _, s := range w.statuses(id) {
					if s == store.CoordActionRunning {
						running++
					}
				}
				if running != 1 {
					t.Fatalf("%d actions running with concurrency 1: %v", running, w.statuses(id))
				}
				w.complete(aid, workflow.OutcomeOK)
				w.waitActionStatus(aid, store.CoordActionSucceeded)
			}
			w.waitJobStatus(id, store.JobSucceeded)
		})
	}
}

// TestConcurrencyUnlimited: concurrency -1 starts every ready action at once.
func TestConcurrencyUnlimited(t *testing.T) {
	t.Parallel()
	w := setup(t, options{})
	app := w.app("unlimited", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-01T04:00Z",
		"<concurrency>-1</concurrency>", false))
	id := w.submit(w.props(app))
	w.settle()
	if st := w.statuses(id); !slices.Equal(st, []store.CoordActionStatus{"RUNNING", "RUNNING", "RUNNING", "RUNNING"}) {
		t.Fatalf("statuses %v, want all RUNNING", st)
	}
}

// TestThrottle: at most throttle actions wait at once; materialization goes
// on as waiting actions get their input.
func TestThrottle(t *testing.T) {
	t.Parallel()
	w := setup(t, options{auto: true})
	app := w.app("throttle", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-01T05:00Z",
		"<concurrency>-1</concurrency><throttle>2</throttle>", true))
	id := w.submit(w.props(app))
	w.settle()
	if n := len(w.actions(id)); n != 2 {
		t.Fatalf("%d actions materialized with throttle 2, want 2", n)
	}
	for h := 0; h < 5; h++ {
		u := w.logURI(time.Date(2010, 1, 1, h, 0, 0, 0, time.UTC))
		w.touch(u + "/_SUCCESS")
		if _, err := w.coords.Notify(bg, u); err != nil {
			t.Fatal(err)
		}
	}
	w.waitJobStatus(id, store.JobSucceeded)
	if n := len(w.actions(id)); n != 5 {
		t.Fatalf("%d actions in the end, want 5", n)
	}
}

// TestOneMinuteFrequency: no five-minute minimum; the next materialization
// is due exactly a look-ahead before it, found by its trigger.
func TestOneMinuteFrequency(t *testing.T) {
	t.Parallel()
	start := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	w := setup(t, options{now: start, auto: true, settings: func(s *coordinator.Settings) {
		s.Window = 10 * time.Minute
		s.LookupInterval = time.Minute
	}})
	app := w.app("minutely", coordXML("1", "2010-01-01T00:00Z", "2010-01-01T00:30Z", "<concurrency>-1</concurrency>", false))
	id := w.submit(w.props(app))
	w.settle()
	if n := len(w.actions(id)); n != 10 {
		t.Fatalf("%d actions in the first 10-minute window, want 10", n)
	}
	due, _ := w.triggerDue(KindMaterialize, id)
	if want := start.Add(9 * time.Minute); !due.Equal(want) {
		t.Fatalf("next materialization due %v, want %v", due, want)
	}
	for i := 0; i < 30; i++ {
		w.advance(time.Minute)
	}
	w.waitJobStatus(id, store.JobSucceeded)
	acts := w.actions(id)
	if len(acts) != 30 {
		t.Fatalf("%d actions, want 30", len(acts))
	}
	for i, a := range acts {
		if want := start.Add(time.Duration(i) * time.Minute); !a.NominalTime.Equal(want) {
			t.Fatalf("action %d at %v, want %v", i+1, a.NominalTime, want)
		}
	}
}

// TestExecutionNone: with NONE, actions more than the tolerance (one minute)
// past their nominal time are skipped; the one within it runs.
func TestExecutionNone(t *testing.T) {
	t.Parallel()
	now := time.Date(2010, 1, 1, 3, 0, 30, 0, time.UTC)
	w := setup(t, options{now: now, auto: true})
	app := w.app("none", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-01T05:00Z",
		"<execution>NONE</execution>", false))
	id := w.submit(w.props(app))
	w.settle()
	if st := w.statuses(id); !slices.Equal(st, []store.CoordActionStatus{"SKIPPED", "SKIPPED", "SKIPPED", "SUCCEEDED"}) {
		t.Fatalf("statuses %v, want three skipped and the 03:00 one run", st)
	}
}

// TestLatestResolvedByChecks: coord:latest(0) stays unresolved (listed after
// "!!" in the missing dependencies) until an instance exists, then resolves
// to the newest one at or before the action's creation, which the workflow
// receives.
func TestLatestResolvedByChecks(t *testing.T) {
	t.Parallel()
	now := time.Date(2010, 1, 1, 6, 0, 0, 0, time.UTC)
	w := setup(t, options{now: now})
	xml := strings.Replace(coordXML("${coord:hours(1)}", "2010-01-01T05:00Z", "2010-01-01T06:00Z", "", true),
		"<instance>${coord:current(0)}</instance>", "<instance>${coord:latest(0)}</instance>", 1)
	xml = strings.Replace(xml, "<value>${coord:nominalTime()}</value>", "<value>${coord:dataIn('in')}</value>", 1)
	app := w.app("latest", xml)
	id := w.submit(w.props(app))
	w.settle()
	a := w.action(ActionIDOf(id, 1))
	if a.Status != store.CoordActionWaiting || a.MissingDependencies != "!!${coord:latest(0)}" {
		t.Fatalf("action %s, missing %q", a.Status, a.MissingDependencies)
	}
	for _, h := range []int{1, 3} {
		w.touch(w.logURI(time.Date(2010, 1, 1, h, 0, 0, 0, time.UTC)) + "/_SUCCESS")
	}
	w.advance(time.Minute) // the next poll
	a = w.waitActionStatus(ActionIDOf(id, 1), store.CoordActionRunning)
	run := w.waitRun(a.ExternalID)
	if got, want := run.JobConf.Value("nominal"), w.logURI(time.Date(2010, 1, 1, 3, 0, 0, 0, time.UTC)); got != want {
		t.Fatalf("coord:dataIn of latest(0) = %q, want %q", got, want)
	}
}

// TestSLARegistration: an action of a coordinator with sla:info gets its SLA
// registration when materialized, with the expected times it names.
func TestSLARegistration(t *testing.T) {
	t.Parallel()
	w := setup(t, options{})
	xml := strings.Replace(coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-01T01:00Z", "", false),
		`xmlns="uri:oozie:coordinator:0.4">`, `xmlns="uri:oozie:coordinator:0.4" xmlns:sla="uri:oozie:sla:0.2">`, 1)
	xml = strings.Replace(xml, "</workflow></action>", `</workflow>
    <sla:info>
      <sla:nominal-time>${coord:nominalTime()}</sla:nominal-time>
      <sla:should-start>${10 * MINUTES}</sla:should-start>
      <sla:should-end>${30 * MINUTES}</sla:should-end>
      <sla:alert-contact>ops@example.com</sla:alert-contact>
    </sla:info></action>`, 1)
	app := w.app("sla", xml)
	id := w.submit(w.props(app))
	w.settle()
	var reg store.SLA
	if err := w.store.Tx(bg, func(x store.Tx) (err error) { reg, err = x.GetSLA(bg, ActionIDOf(id, 1)); return }); err != nil {
		t.Fatal(err)
	}
	nt := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	if reg.ParentID != id || reg.AppType != store.AppCoordinatorAction || !reg.NominalTime.Equal(nt) ||
		!reg.ExpectedStart.Equal(nt.Add(10*time.Minute)) || !reg.ExpectedEnd.Equal(nt.Add(30*time.Minute)) ||
		reg.AlertContact != "ops@example.com" {
		t.Fatalf("SLA registration: %+v", reg)
	}
}

// TestThrottledCatchUpWithoutInputs: a cron job far behind catches up to its
// end in one window, more actions than its throttle; its actions depend on
// nothing, so they never wait, and materialization goes on past the throttle
// without any action leaving WAITING to wake it.
func TestThrottledCatchUpWithoutInputs(t *testing.T) {
	t.Parallel()
	w := setup(t, options{now: time.Date(2010, 1, 1, 12, 0, 0, 0, time.UTC), auto: true})
	app := w.app("cron", coordXML("0 * * * *", "2010-01-01T00:00Z", "2010-01-01T10:00Z",
		"<concurrency>-1</concurrency><throttle>2</throttle>", false))
	id := w.submit(w.props(app))
	j := w.waitJobStatus(id, store.JobSucceeded)
	if j.LastActionNumber != 10 || len(w.actions(id)) != 10 {
		t.Fatalf("last action %d, %d actions, want 10", j.LastActionNumber, len(w.actions(id)))
	}
}
