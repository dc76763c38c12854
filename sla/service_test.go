package sla_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/sla"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/sqlite"
	"github.com/gozie/gozie/testenv/smtpsink"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/workflow/wfrun"
)

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

const slaApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" xmlns:sla="uri:oozie:sla:0.2" name="sla-app">
  <start to="step"/>
  <action name="step">
    <shell xmlns="uri:oozie:shell-action:1.0">
      <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
      <exec>run.sh</exec>
    </shell>
    <ok to="end"/><error to="fail"/>
    <sla:info>
      <sla:nominal-time>${nominal}</sla:nominal-time>
      <sla:should-start>${2 * MINUTES}</sla:should-start>
      <sla:should-end>${20 * MINUTES}</sla:should-end>
    </sla:info>
  </action>
  <kill name="fail"><message>failed</message></kill>
  <end name="end"/>
  <sla:info>
    <sla:nominal-time>${nominal}</sla:nominal-time>
    <sla:should-start>${shouldStart}</sla:should-start>
    <sla:should-end>${30 * MINUTES}</sla:should-end>
    <sla:max-duration>${1 * HOURS}</sla:max-duration>
    <sla:alert-events>start_miss,end_miss,bogus</sla:alert-events>
    <sla:alert-contact>ops@example.com</sla:alert-contact>
    <sla:notification-msg>late ${wf:name()}</sla:notification-msg>
  </sla:info>
</workflow-app>`

// shellExec is an executor whose runs end when the test says so.
type shellExec struct {
	mu    sync.Mutex
	ended map[string]actions.Status // action id → final status
}

func (e *shellExec) Start(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	return actions.Status{ExternalID: "application_" + run.Tag, ExternalStatus: "RUNNING"}, nil
}

func (e *shellExec) Check(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if st, ok := e.ended[run.ActionID]; ok {
		return st, nil
	}
	return actions.Status{ExternalStatus: "RUNNING"}, nil
}

func (e *shellExec) Kill(ctx context.Context, run *actions.Attempt) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ended[run.ActionID] = actions.Status{Done: true, Outcome: workflow.OutcomeError, ExternalStatus: "KILLED"}
	return nil
}

// world is a store, a workflow runner and the SLA service on one engine
// with a fake clock, a webhook receiver and an SMTP sink.
type world struct {
	t       *testing.T
	dbPath  string
	store   store.Store
	clock   *clock.Fake
	exec    *shellExec
	runner  *wfrun.Runner
	sla     *sla.Service
	engine  *engine.Engine
	reg     *prometheus.Registry
	hooks   chan sla.WebhookPayload
	mail    *smtpsink.Sink
	apps    string
	stopped bool
}

func testLog() *slog.Logger {
	if os.Getenv("GOZIE_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

func setup(t *testing.T) *world {
	t.Helper()
	dir := t.TempDir()
	w := &world{t: t, dbPath: filepath.Join(dir, "gozie.db"), clock: clock.NewFake(t0),
		exec: &shellExec{ended: map[string]actions.Status{}}, hooks: make(chan sla.WebhookPayload, 100),
		apps: filepath.Join(dir, "apps")}
	hook := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		var p sla.WebhookPayload
		if err := json.NewDecoder(r.Body).Decode(&p); err != nil || r.Header.Get("X-Gozie-Event-Seq") == "" {
			http.Error(rw, "bad payload", http.StatusBadRequest)
			return
		}
		w.hooks <- p
	}))
	t.Cleanup(hook.Close)
	mail, err := smtpsink.Start(smtpsink.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mail.Close() })
	w.mail = mail
	w.open(hook.URL)
	return w
}

// open starts (or restarts) the server side on the database.
func (w *world) open(hookURL string) {
	t := w.t
	ctx := context.Background()
	st, err := sqlite.Open(ctx, w.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	w.store = st
	fs, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: "file:///"})
	if err != nil {
		t.Fatal(err)
	}
	w.reg = prometheus.NewRegistry()
	w.sla, err = sla.New(sla.Config{Store: st, Clock: w.clock, Logger: testLog(), Metrics: w.reg,
		Notifiers: []sla.Notifier{
			&sla.Webhook{URL: hookURL, Retry: sla.Retry{Attempts: 1}},
			&sla.Email{Host: "127.0.0.1", Port: w.mail.Port(), From: "gozie@example.com", Retry: sla.Retry{Attempts: 1}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	w.runner, err = wfrun.New(wfrun.Config{Store: st, Clock: w.clock, FS: fs, Logger: testLog(),
		IDs: ids.NewGenerator("gozie-test", t0), Executors: actions.Registry{"shell": w.exec},
		CallbackBaseURL: "http://127.0.0.1/oozie/callback", CheckInterval: time.Hour, OnChange: w.sla.WorkflowChanged})
	if err != nil {
		t.Fatal(err)
	}
	w.engine = engine.New(engine.Config{Store: st, Clock: w.clock, Logger: testLog(),
		Backoff: func(int) time.Duration { return time.Millisecond }})
	w.runner.Register(w.engine)
	w.sla.Register(w.engine)
	if err := w.engine.Start(ctx); err != nil {
		t.Fatal(err)
	}
	w.stopped = false
	t.Cleanup(w.stop)
}

func (w *world) stop() {
	if w.stopped {
		return
	}
	w.stopped = true
	w.engine.Stop()
	w.store.Close()
}

func (w *world) app(xml string) string {
	w.t.Helper()
	d := filepath.Join(w.apps, "sla-app")
	if err := os.MkdirAll(d, 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "workflow.xml"), []byte(xml), 0o644); err != nil {
		w.t.Fatal(err)
	}
	return "file://" + d
}

func (w *world) submit(start bool, kv ...string) string {
	w.t.Helper()
	props := conf.NewProperties(append([]string{"user.name", "alice", "oozie.wf.application.path", w.app(slaApp),
		"nameNode", "hdfs://nn:8020", "resourceManager", "rm:8032", "nominal", "2026-03-01T10:00Z",
		"shouldStart", "5"}, kv...)...)
	id, err := w.runner.Submit(context.Background(), props, wfrun.SubmitOptions{Start: start})
	if err != nil {
		w.t.Fatal(err)
	}
	return id
}

func (w *world) get(id string) store.SLA {
	w.t.Helper()
	var r store.SLA
	if err := w.store.Tx(context.Background(), func(x store.Tx) (err error) { r, err = x.GetSLA(context.Background(), id); return }); err != nil {
		w.t.Fatalf("SLA of %s: %v", id, err)
	}
	return r
}

func (w *world) events(id string) []store.SLAEvent {
	w.t.Helper()
	var evs []store.SLAEvent
	if err := w.store.Tx(context.Background(), func(x store.Tx) (err error) { evs, err = x.ListSLAEvents(context.Background(), id); return }); err != nil {
		w.t.Fatal(err)
	}
	return evs
}

// waitSLA polls the registration until cond holds (the engine works in the
// background), with a deadline.
func (w *world) waitSLA(id string, what string, cond func(store.SLA) bool) store.SLA {
	w.t.Helper()
	var r store.SLA
	testwait.WaitForLast(w.t, 20*time.Second, "the SLA of "+id+" to get "+what, func() (bool, string) {
		r = w.get(id)
		return cond(r), fmt.Sprintf("%+v", r)
	})
	return r
}

func (w *world) hook(want store.SLAEventStatus, id string) sla.WebhookPayload {
	w.t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case p := <-w.hooks:
			if p.ID == id && p.EventStatus == string(want) {
				return p
			}
		case <-timeout:
			w.t.Fatalf("the webhook never received %s of %s", want, id)
		}
	}
}

// hooksOf collects the webhook payloads of n distinct events of id, in
// whatever order they arrive.
func (w *world) hooksOf(id string, n int) map[store.SLAEventStatus]sla.WebhookPayload {
	w.t.Helper()
	got := map[store.SLAEventStatus]sla.WebhookPayload{}
	timeout := time.After(20 * time.Second)
	for len(got) < n {
		select {
		case p := <-w.hooks:
			if p.ID == id {
				got[store.SLAEventStatus(p.EventStatus)] = p
			}
		case <-timeout:
			w.t.Fatalf("the webhook received %d events of %s, want %d", len(got), id, n)
		}
	}
	return got
}

func (w *world) complete(actionID string, outcome workflow.Outcome) {
	w.exec.mu.Lock()
	w.exec.ended[actionID] = actions.Status{Done: true, Outcome: outcome, ExternalStatus: "SUCCEEDED"}
	w.exec.mu.Unlock()
	if err := w.runner.Callback(context.Background(), actionID, ""); err != nil {
		w.t.Fatal(err)
	}
}

// started waits until the job's action runs (its executor was called), so
// that a completion reaches it.
func (w *world) started(jobID string) {
	w.t.Helper()
	ctx := context.Background()
	testwait.Poll{Timeout: 20 * time.Second, Every: 2 * time.Millisecond}.WaitForLast(w.t, "the action of "+jobID+" to run",
		func() (bool, string) {
			var a store.WorkflowAction
			err := w.store.Tx(ctx, func(x store.Tx) (err error) { a, err = x.GetWorkflowAction(ctx, jobID+"@step"); return })
			return err == nil && a.Status == store.ActionRunning, fmt.Sprintf("%+v (%v)", a, err)
		})
}

// setClock moves the fake clock once the events judged so far are
// delivered.
func (w *world) setClock(t time.Time) {
	w.t.Helper()
	w.delivered()
	w.clock.Set(t)
}

// delivered waits until every judged event has been delivered (its
// sla-event trigger is gone). Tests call it before moving the fake clock
// far ahead, which would otherwise expire the lease of a delivery in
// flight and run it a second time.
func (w *world) delivered() {
	w.t.Helper()
	ctx := context.Background()
	testwait.Poll{Timeout: 20 * time.Second, Every: 2 * time.Millisecond}.WaitForLast(w.t, "the events to be delivered", func() (bool, string) {
		pending := 0
		err := w.store.Tx(ctx, func(x store.Tx) error {
			evs, err := x.QuerySLAEvents(ctx, store.SLAEventFilter{})
			if err != nil {
				return err
			}
			for _, e := range evs {
				_, err := x.GetTrigger(ctx, sla.KindEvent, fmt.Sprint(e.Seq))
				if err == nil {
					pending++
				} else if !errors.Is(err, store.ErrNotFound) {
					return err
				}
			}
			return nil
		})
		if err != nil {
			w.t.Fatal(err)
		}
		return pending == 0, fmt.Sprintf("%d events pending", pending)
	})
}

func hasEvent(ev string) func(store.SLA) bool {
	return func(r store.SLA) bool { return strings.Contains(","+r.EventStatus+",", ","+ev+",") }
}

func TestRegistrationAtSubmit(t *testing.T) {
	t.Parallel()
	w := setup(t)
	id := w.submit(false)
	job := w.get(id)
	if job.AppType != store.AppWorkflowJob || job.AppName != "sla-app" || job.User != "alice" ||
		!job.NominalTime.Equal(t0) || !job.ExpectedStart.Equal(t0.Add(5*time.Minute)) ||
		!job.ExpectedEnd.Equal(t0.Add(30*time.Minute)) || job.ExpectedDuration != time.Hour.Milliseconds() ||
		job.AlertEvents != "START_MISS,END_MISS" || job.AlertContact != "ops@example.com" ||
		job.NotificationMsg != "late sla-app" || job.SLAStatus != store.SLANotStarted || job.JobStatus != "PREP" ||
		!job.AlertsEnabled || job.ActualDuration != -1 {
		t.Fatalf("job registration: %+v", job)
	}
	act := w.get(id + "@step")
	if act.AppType != store.AppWorkflowAction || act.ParentID != id || !act.ExpectedStart.Equal(t0.Add(2*time.Minute)) ||
		!act.ExpectedEnd.Equal(t0.Add(20*time.Minute)) || act.ExpectedDuration != (18*time.Minute).Milliseconds() {
		t.Fatalf("action registration: %+v", act)
	}
	var trig store.Trigger
	if err := w.store.Tx(context.Background(), func(x store.Tx) (err error) {
		trig, err = x.GetTrigger(context.Background(), sla.KindDeadline, id)
		return
	}); err != nil {
		t.Fatalf("no deadline armed: %v", err)
	}
	if !trig.DueAt.Equal(t0.Add(5*time.Minute + time.Millisecond)) {
		t.Fatalf("deadline armed at %v, want should-start", trig.DueAt)
	}
}

func TestBadSLAValueFailsTheSubmission(t *testing.T) {
	t.Parallel()
	w := setup(t)
	props := conf.NewProperties("user.name", "alice", "oozie.wf.application.path", w.app(slaApp),
		"nameNode", "hdfs://nn:8020", "resourceManager", "rm:8032", "nominal", "not-a-date", "shouldStart", "5")
	_, err := w.runner.Submit(context.Background(), props, wfrun.SubmitOptions{})
	var se *sla.Error
	if err == nil || !errorsAs(err, &se) || se.Code != oozieerr.E0302 || se.Node != "nominal-time" {
		t.Fatalf("submission with a bad nominal time: %v", err)
	}
	var n int
	_ = w.store.Tx(context.Background(), func(x store.Tx) error {
		_, total, err := x.ListWorkflowJobs(context.Background(), store.JobFilter{})
		n = total
		return err
	})
	if n != 0 {
		t.Fatalf("%d jobs stored after a failed submission", n)
	}
}

// TestNeverStartedMissesItsStart: a job that is never started shows
// START_MISS once should-start passes, then END_MISS at should-end, without
// waiting for it; the webhook and the email receive them.
func TestNeverStartedMissesItsStart(t *testing.T) {
	t.Parallel()
	w := setup(t)
	id := w.submit(false)
	w.setClock(t0.Add(5*time.Minute + time.Second))
	r := w.waitSLA(id, "START_MISS", hasEvent("START_MISS"))
	if r.SLAStatus != store.SLANotStarted || !r.ActualStart.IsZero() {
		t.Fatalf("after should-start: %+v", r)
	}
	p := w.hook(store.SLAStartMiss, id)
	if p.AppName != "sla-app" || p.LatenessMs != 1000 || p.SLAStatus != "NOT_STARTED" {
		t.Fatalf("webhook payload: %+v", p)
	}
	w.setClock(t0.Add(45 * time.Minute))
	r = w.waitSLA(id, "END_MISS", hasEvent("END_MISS"))
	if r.SLAStatus != store.SLAMiss {
		t.Fatalf("after should-end: %+v", r)
	}
	p = w.hook(store.SLAEndMiss, id)
	if p.LatenessMinutes != 15 {
		t.Fatalf("END_MISS lateness %d min, want 15", p.LatenessMinutes)
	}
	evs := w.events(id)
	if len(evs) != 2 || evs[0].EventStatus != store.SLAStartMiss || evs[1].EventStatus != store.SLAEndMiss ||
		evs[1].Lateness != 15*time.Minute {
		t.Fatalf("history: %+v", evs)
	}
	// Both events are in alert-events: two emails to the contact.
	waitMails(t, w.mail, 2)
	msgs := w.mail.Messages()
	if !strings.Contains(msgs[0].Data, "Subject: GOZIE - SLA START_MISS (AppName=sla-app, JobID="+id+")") ||
		msgs[0].To[0] != "ops@example.com" || !strings.Contains(msgs[1].Data, "SLA END_MISS") {
		t.Fatalf("emails: %+v", msgs)
	}
	// The job's two misses and its never-reached action's two.
	waitMetric(t, "gozie_sla_misses_total = 4", func() (bool, string) {
		got := counterSum(t, w.reg, "gozie_sla_misses_total")
		return got == 4, fmt.Sprint(got)
	})
}

// TestLateStartOnTimeEnd is case A7 end to end: START_MISS, END_MET, MET.
func TestLateStartOnTimeEnd(t *testing.T) {
	t.Parallel()
	w := setup(t)
	id := w.submit(false)
	w.setClock(t0.Add(10 * time.Minute))
	w.waitSLA(id, "START_MISS", hasEvent("START_MISS"))
	if err := w.runner.Start(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	r := w.waitSLA(id, "IN_PROCESS", func(r store.SLA) bool { return r.SLAStatus == store.SLAInProcess })
	if !r.ActualStart.Equal(t0.Add(10 * time.Minute)) {
		t.Fatalf("actual start %v", r.ActualStart)
	}
	w.started(id)
	w.setClock(t0.Add(15 * time.Minute))
	w.complete(id+"@step", workflow.OutcomeOK)
	r = w.waitSLA(id, "MET", func(r store.SLA) bool { return r.SLAStatus == store.SLAMet })
	if r.EventStatus != "START_MISS,DURATION_MET,END_MET" || r.ActualDuration != (5*time.Minute).Milliseconds() ||
		r.JobStatus != "SUCCEEDED" {
		t.Fatalf("job SLA: %+v", r)
	}
	d := sla.DelaysOf(r, t0.Add(time.Hour))
	if d.Start != 5 || d.End != -15 {
		t.Fatalf("delays %+v", d)
	}
	a := w.waitSLA(id+"@step", "MET", func(r store.SLA) bool { return r.SLAStatus == store.SLAMet })
	if a.EventStatus != "START_MISS,DURATION_MET,END_MET" {
		t.Fatalf("action SLA: %+v", a)
	}
}

// TestRunningPastShouldEnd: END_MISS is recorded when should-end passes
// while the job still runs, and stays when it ends later.
func TestRunningPastShouldEnd(t *testing.T) {
	t.Parallel()
	w := setup(t)
	id := w.submit(true)
	w.waitSLA(id, "IN_PROCESS", func(r store.SLA) bool { return r.SLAStatus == store.SLAInProcess })
	w.started(id)
	w.setClock(t0.Add(31 * time.Minute))
	r := w.waitSLA(id, "END_MISS", hasEvent("END_MISS"))
	if r.SLAStatus != store.SLAMiss || !r.ActualEnd.IsZero() {
		t.Fatalf("at should-end: %+v", r)
	}
	p := w.hook(store.SLAEndMiss, id)
	if p.LatenessMinutes != 1 || p.JobStatus != "RUNNING" {
		t.Fatalf("webhook: %+v", p)
	}
	w.setClock(t0.Add(50 * time.Minute))
	w.complete(id+"@step", workflow.OutcomeOK)
	r = w.waitSLA(id, "ended", func(r store.SLA) bool { return !r.ActualEnd.IsZero() })
	if r.SLAStatus != store.SLAMiss || r.EventStatus != "START_MET,DURATION_MET,END_MISS" {
		t.Fatalf("after the late end: %+v", r)
	}
	if d := sla.DelaysOf(r, t0.Add(2*time.Hour)); d.End != 20 {
		t.Fatalf("end delay %d, want 20", d.End)
	}
}

// TestKilledIsEndMiss is case A5.
func TestKilledIsEndMiss(t *testing.T) {
	t.Parallel()
	w := setup(t)
	id := w.submit(true)
	w.waitSLA(id, "IN_PROCESS", func(r store.SLA) bool { return r.SLAStatus == store.SLAInProcess })
	w.started(id)
	if err := w.runner.Kill(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	r := w.waitSLA(id, "MISS", func(r store.SLA) bool { return r.SLAStatus == store.SLAMiss })
	if !hasEvent("END_MISS")(r) || r.JobStatus != "KILLED" {
		t.Fatalf("killed job: %+v", r)
	}
}

// TestRerunRegistersAgain is case A3: a rerun starts the registration over
// with the rerun's configuration.
func TestRerunRegistersAgain(t *testing.T) {
	t.Parallel()
	w := setup(t)
	id := w.submit(true)
	w.waitSLA(id, "IN_PROCESS", func(r store.SLA) bool { return r.SLAStatus == store.SLAInProcess })
	w.started(id)
	w.complete(id+"@step", workflow.OutcomeOK)
	w.waitSLA(id, "MET", func(r store.SLA) bool { return r.SLAStatus == store.SLAMet })
	w.setClock(t0.Add(2 * time.Hour))
	props := conf.NewProperties("user.name", "alice", "oozie.wf.application.path", w.app(slaApp),
		"nameNode", "hdfs://nn:8020", "resourceManager", "rm:8032", "nominal", "2026-03-01T11:40Z", "shouldStart", "5",
		"oozie.wf.rerun.failnodes", "false")
	if err := w.runner.Rerun(context.Background(), id, props); err != nil {
		t.Fatal(err)
	}
	// The rerun started 20 minutes after its new nominal time: IN_PROCESS and START_MISS.
	r := w.waitSLA(id, "the rerun's START_MISS", func(r store.SLA) bool {
		return r.NominalTime.Equal(t0.Add(100*time.Minute)) && hasEvent("START_MISS")(r)
	})
	if r.SLAStatus != store.SLAInProcess || !r.ActualEnd.IsZero() || r.ActualDuration != -1 ||
		!r.ActualStart.Equal(t0.Add(2*time.Hour)) {
		t.Fatalf("rerun registration: %+v", r)
	}
	if evs := w.events(id); len(evs) < 4 {
		t.Fatalf("the first run's events are not kept: %+v", evs)
	}
}

// TestRestartKeepsDeadlines: a deadline armed before a restart fires after
// it.
func TestRestartKeepsDeadlines(t *testing.T) {
	t.Parallel()
	w := setup(t)
	id := w.submit(false)
	w.stop()
	w.open("http://127.0.0.1:1/unused")
	w.setClock(t0.Add(6 * time.Minute))
	w.waitSLA(id, "START_MISS after the restart", hasEvent("START_MISS"))
}

// TestChangeAndAlerts: sla-change moves the deadline and judges again;
// sla-disable stops the emails but not the webhook.
func TestChangeAndAlerts(t *testing.T) {
	t.Parallel()
	w := setup(t)
	id := w.submit(true)
	w.waitSLA(id, "IN_PROCESS", func(r store.SLA) bool { return r.SLAStatus == store.SLAInProcess })
	w.started(id)
	if err := w.sla.Change(context.Background(), id, "sla-should-end=${2 * HOURS};sla-max-duration=90"); err != nil {
		t.Fatal(err)
	}
	r := w.get(id)
	if !r.ExpectedEnd.Equal(t0.Add(2*time.Hour)) || r.ExpectedDuration != (90*time.Minute).Milliseconds() {
		t.Fatalf("changed registration: %+v", r)
	}
	if err := w.sla.SetAlerts(context.Background(), id, false); err != nil {
		t.Fatal(err)
	}
	if w.get(id).AlertsEnabled || w.get(id+"@step").AlertsEnabled {
		t.Fatal("alerts still enabled")
	}
	if a := w.get(id + "@step"); !a.ExpectedEnd.Equal(t0.Add(20 * time.Minute)) {
		t.Fatalf("the change of the job moved its action's should-end: %+v", a)
	}
	// Past the old should-end nothing happens; past the new one END_MISS.
	w.setClock(t0.Add(31 * time.Minute))
	w.waitSLA(id+"@step", "END_MISS of the action", hasEvent("END_MISS"))
	if hasEvent("END_MISS")(w.get(id)) {
		t.Fatal("END_MISS judged on the old should-end")
	}
	w.setClock(t0.Add(2*time.Hour + time.Minute))
	w.waitSLA(id, "END_MISS", hasEvent("END_MISS"))
	w.hook(store.SLAEndMiss, id)
	if n := len(w.mail.Messages()); n != 0 {
		t.Fatalf("%d emails sent with alerts disabled", n)
	}
	for _, bad := range []string{"", "sla-should-end=soon", "nope=1", "sla-nominal-time=2026-13-01T00:00Z"} {
		err := w.sla.Change(context.Background(), id, bad)
		var se *sla.Error
		if !errorsAs(err, &se) || se.Code != "E1015" {
			t.Errorf("change %q: %v", bad, err)
		}
	}
	var se *sla.Error
	if err := w.sla.SetAlerts(context.Background(), "0000000-000000000000000-nope-W", true); !errorsAs(err, &se) || se.Code != oozieerr.E0604 {
		t.Errorf("alerts of an unknown job: %v", err)
	}
}

// TestCoordinatorActionRegistration: a coordinator action's registration,
// stored as the coordinator engine stores it at materialization, is armed by
// the store; its START_MISS comes while it waits, and its workflow's start
// and end are judged through the workflow runner's hook.
func TestCoordinatorActionRegistration(t *testing.T) {
	t.Parallel()
	w := setup(t)
	ctx := context.Background()
	const coordID = "0000001-260301100000000-gozie-test-C"
	actionID := coordID + "@1"
	err := w.store.Tx(ctx, func(x store.Tx) error {
		if err := x.InsertCoordJob(ctx, &store.CoordJob{ID: coordID, AppName: "aggregator", Status: store.JobRunning,
			ExecutionOrder: "FIFO", CreatedTime: t0}); err != nil {
			return err
		}
		if err := x.InsertCoordAction(ctx, &store.CoordAction{ID: actionID, JobID: coordID, ActionNumber: 1,
			Status: store.CoordActionWaiting, NominalTime: t0, CreatedTime: t0}); err != nil {
			return err
		}
		return sla.Insert(ctx, x, &store.SLA{ID: actionID, ParentID: coordID, AppName: "aggregator",
			AppType: store.AppCoordinatorAction, NominalTime: t0, ExpectedStart: t0.Add(time.Minute),
			ExpectedEnd: t0.Add(10 * time.Minute), ExpectedDuration: 5 * 60000, ActualDuration: -1,
			JobStatus: "WAITING", SLAStatus: store.SLANotStarted, AlertsEnabled: true, CreatedTime: t0})
	})
	if err != nil {
		t.Fatal(err)
	}
	w.setClock(t0.Add(2 * time.Minute))
	r := w.waitSLA(actionID, "START_MISS while waiting", hasEvent("START_MISS"))
	if r.SLAStatus != store.SLANotStarted || r.JobStatus != "WAITING" {
		t.Fatalf("waiting action: %+v", r)
	}
	props := conf.NewProperties("user.name", "alice", "oozie.wf.application.path", w.app(slaApp),
		"nameNode", "hdfs://nn:8020", "resourceManager", "rm:8032", "nominal", "2026-03-01T10:00Z", "shouldStart", "5")
	wfID, err := w.runner.Submit(ctx, props, wfrun.SubmitOptions{Start: true, ParentID: actionID})
	if err != nil {
		t.Fatal(err)
	}
	if wf := w.get(wfID); wf.ParentID != actionID {
		t.Fatalf("the workflow's registration has parent %q", wf.ParentID)
	}
	r = w.waitSLA(actionID, "IN_PROCESS", func(r store.SLA) bool { return r.SLAStatus == store.SLAInProcess })
	if !r.ActualStart.Equal(t0.Add(2 * time.Minute)) {
		t.Fatalf("coordinator action start: %+v", r)
	}
	w.started(wfID)
	w.setClock(t0.Add(4 * time.Minute))
	w.complete(wfID+"@step", workflow.OutcomeOK)
	r = w.waitSLA(actionID, "MET", func(r store.SLA) bool { return r.SLAStatus == store.SLAMet })
	if r.EventStatus != "START_MISS,DURATION_MET,END_MET" || !r.ActualEnd.Equal(t0.Add(4*time.Minute)) {
		t.Fatalf("coordinator action end: %+v", r)
	}
}

// TestOnePassKeepsEachEventsStatus: when one judgment records START_MISS and
// END_MISS of a job that never started (both deadlines passed before the
// pass), the START_MISS keeps the SLA status it was judged with
// (NOT_STARTED) in the history, the webhook and the email, although the
// registration is MISS once the pass is over.
func TestOnePassKeepsEachEventsStatus(t *testing.T) {
	t.Parallel()
	w := setup(t)
	id := w.submit(false)
	w.setClock(t0.Add(45 * time.Minute))
	r := w.waitSLA(id, "START_MISS and END_MISS", hasEvent("END_MISS"))
	if r.SLAStatus != store.SLAMiss || r.EventStatus != "START_MISS,END_MISS" {
		t.Fatalf("after one pass: %+v", r)
	}
	evs := w.events(id)
	if len(evs) != 2 || evs[0].EventStatus != store.SLAStartMiss || evs[0].SLAStatus != store.SLANotStarted ||
		evs[0].JobStatus != "PREP" || !evs[0].ExpectedStart.Equal(t0.Add(5*time.Minute)) ||
		evs[1].EventStatus != store.SLAEndMiss || evs[1].SLAStatus != store.SLAMiss {
		t.Fatalf("history: %+v", evs)
	}
	hooks := w.hooksOf(id, 2) // delivered in either order
	if p := hooks[store.SLAStartMiss]; p.SLAStatus != "NOT_STARTED" || p.JobStatus != "PREP" || p.LatenessMinutes != 40 {
		t.Fatalf("START_MISS webhook: %+v", p)
	}
	if p := hooks[store.SLAEndMiss]; p.SLAStatus != "MISS" || p.LatenessMinutes != 15 {
		t.Fatalf("END_MISS webhook: %+v", p)
	}
	waitMails(t, w.mail, 2)
	bodies := map[string]string{}
	for _, m := range w.mail.Messages() {
		for _, e := range []string{"START_MISS", "END_MISS"} {
			if strings.Contains(m.Data, "Subject: GOZIE - SLA "+e+" ") {
				bodies[e] = m.Data
			}
		}
	}
	if !strings.Contains(bodies["START_MISS"], "SLA Status - NOT_STARTED\r\n") ||
		!strings.Contains(bodies["END_MISS"], "SLA Status - MISS\r\n") {
		t.Fatalf("emails: %q", bodies)
	}
}
