package coordinator

import (
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

func TestStartReady(t *testing.T) {
	t.Parallel()
	now := utc(t, "2020-06-01T12:00Z")
	ready := func(n int, nt string) store.CoordAction {
		return store.CoordAction{ID: ActionID(testJobID, n), ActionNumber: n, NominalTime: utc(t, nt), Status: store.CoordActionReady}
	}
	actions := []store.CoordAction{ready(2, "2020-06-01T11:10Z"), ready(1, "2020-06-01T11:00Z"), ready(3, "2020-06-01T11:20Z")}
	ids := func(as []store.CoordAction) string {
		var out []string
		for _, a := range as {
			out = append(out, strings.TrimPrefix(a.ID, testJobID))
		}
		return strings.Join(out, ",")
	}
	tests := []struct {
		id          string
		exec        Execution
		concurrency int
		active      int
		status      store.JobStatus
		submit      string
		skip        string
	}{
		{"FIFO", FIFO, 2, 0, store.JobRunning, "@1,@2", ""},
		{"LIFO", LIFO, 2, 0, store.JobRunning, "@3,@2", ""},
		{"slots used", FIFO, 2, 1, store.JobRunning, "@1", ""},
		{"no slot", FIFO, 1, 3, store.JobRunning, "", ""},
		{"unlimited", FIFO, -1, 10, store.JobRunning, "@1,@2,@3", ""},
		{"paused jobs start", FIFO, 1, 0, store.JobPaused, "@1", ""},
		{"succeeded jobs start", FIFO, 1, 0, store.JobSucceeded, "@1", ""},
		{"suspended jobs wait", FIFO, 1, 0, store.JobSuspended, "", ""},
		{"NONE skips late actions", None, 5, 0, store.JobRunning, "", "@3,@2,@1"},
		{"LAST_ONLY skips all but the last", LastOnly, 5, 0, store.JobRunning, "@3", "@2,@1"},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			// The job ends before a fourth action, so the third one is the last.
			job, row := newJob(t, jobSpec{freq: "10", unit: oozietime.Minute, start: "2020-06-01T11:00Z", end: "2020-06-01T11:25Z", execution: tc.exec})
			row.Status, row.Concurrency = tc.status, tc.concurrency
			d := StartReady(StartRequest{Job: job, Row: row, Ready: actions, Active: tc.active, Now: now, Settings: DefaultSettings()})
			if ids(d.Submit) != tc.submit || ids(d.Skip) != tc.skip {
				t.Fatalf("submit %q skip %q, want %q %q (%s)", ids(d.Submit), ids(d.Skip), tc.submit, tc.skip, d.Reason)
			}
		})
	}
}

func TestWorkflowConf(t *testing.T) {
	t.Parallel()
	job, _ := newJob(t, jobSpec{freq: "10", unit: oozietime.Minute, start: "2020-06-01T11:00Z", end: "2020-06-01T11:30Z"})
	job.Configuration = []Property{{Name: "queue", Value: "etl"}, {Name: "input", Value: "/a,/b"}}
	doc := &ActionDoc{Job: job, Number: 1, NominalTime: utc(t, "2020-06-01T11:00Z")}
	run := conf.NewProperties("user.name", "test", "queue", "default", "nameNode", "hdfs://nn",
		"rerunConf", "<configuration/>")
	got, err := WorkflowConf(doc, run, conf.NewProperties("nameNode", "hdfs://other"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"user.name": "test", "queue": "etl", "input": "/a,/b", "nameNode": "hdfs://other",
		KeyWorkflowAppPath: "hdfs:///tmp/workflows/", KeyNominalTime: "1591009200000"}
	for k, v := range want {
		if got.Value(k) != v {
			t.Errorf("%s = %q, want %q", k, got.Value(k), v)
		}
	}
	if _, ok := got.Get("rerunConf"); ok {
		t.Error("rerunConf passed on")
	}
	job.Configuration = append(job.Configuration, Property{Name: "user.name", Value: "mallory"})
	if _, err := WorkflowConf(doc, run, nil); ErrorCode(err) != oozieerr.E1003 {
		t.Fatalf("another user: %v", err)
	}
}

func TestSLARegistration(t *testing.T) {
	t.Parallel()
	doc := `<coordinator-app xmlns="uri:oozie:coordinator:0.4" xmlns:sla="uri:oozie:sla:0.2" name="sla-app" frequency="60"
  start="2009-01-01T00:00Z" end="2009-01-01T02:00Z" timezone="UTC"><action><workflow><app-path>hdfs:///wf</app-path></workflow>
  <sla:info><sla:nominal-time>${coord:nominalTime()}</sla:nominal-time><sla:should-start>${shouldStart}</sla:should-start>
  <sla:should-end>${SLA_OFFSET * HOURS}</sla:should-end><sla:alert-events>start_miss,bogus</sla:alert-events>
  <sla:alert-contact>ops@example.com</sla:alert-contact></sla:info></action></coordinator-app>`
	job := submitXML(t, doc, Property{Name: "shouldStart", Value: "${10 * MINUTES}"}, Property{Name: "SLA_OFFSET", Value: "0.5"})
	row := job.Row()
	row.ID = testJobID
	now := utc(t, "2009-01-01T00:00Z")
	res, err := Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: now, Settings: DefaultSettings()})
	if err != nil || len(res.Actions) != 1 {
		t.Fatalf("%v %d", err, len(res.Actions))
	}
	reg := res.Actions[0].SLA
	// A1: expected start and end are the nominal time plus should-start and should-end.
	if reg == nil || oozietime.UTC.Format(reg.NominalTime) != "2009-01-01T00:00Z" || oozietime.UTC.Format(reg.ExpectedStart) != "2009-01-01T00:10Z" ||
		oozietime.UTC.Format(reg.ExpectedEnd) != "2009-01-01T00:30Z" || reg.ExpectedDuration != 20*60*1000 {
		t.Fatalf("A1: %+v", reg)
	}
	if reg.ID != ActionID(testJobID, 1) || reg.ParentID != testJobID || reg.AppType != store.AppCoordinatorAction ||
		reg.AppName != "sla-app" || reg.AlertEvents != "START_MISS,END_MISS" || reg.AlertContact != "ops@example.com" ||
		!reg.AlertsEnabled || reg.SLAStatus != store.SLANotStarted {
		t.Fatalf("registration %+v", reg)
	}
	// Catch-up actions older than 48 hours get their alerts disabled.
	res, err = Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: now.Add(72 * time.Hour), Settings: DefaultSettings()})
	if err != nil || res.Actions[0].SLA.AlertsEnabled {
		t.Fatalf("old action alerts: %v %+v", err, res.Actions[0].SLA)
	}
	// The evaluated values are in the action XML.
	if !strings.Contains(res.Actions[0].Row.ActionXML, ">30.0<") {
		t.Fatalf("action XML without evaluated SLA: %s", res.Actions[0].Row.ActionXML)
	}
}

func TestChange(t *testing.T) {
	t.Parallel()
	// X4, X8 and friends: parsing.
	for _, bad := range []string{"endtime=2012-12-20T05:00;concurrency=-200", "endtime=2012-12-20T05:00Z;endtime=2012-12-21T05:00Z",
		"", "color=red", "concurrency=", "concurrency=x", "endtime", "status=SUCCEEDED", "a=b=c"} {
		if _, err := ParseChange(bad, oozietime.UTC); ErrorCode(err) != oozieerr.E1015 {
			t.Errorf("ParseChange(%q): %v", bad, err)
		}
	}
	// X6: end, concurrency and a cleared pause time.
	c, err := ParseChange("endtime=2013-08-01T04:00Z;concurrency=200;pausetime=", oozietime.UTC)
	if err != nil || !c.HasEndTime || c.Concurrency != 200 || !c.HasPauseTime || !c.PauseTime.IsZero() {
		t.Fatalf("X6: %+v %v", c, err)
	}
	_, row := newJob(t, jobSpec{freq: "60", unit: oozietime.Minute, tz: "UTC", start: "2013-08-01T00:00Z", end: "2013-08-01T04:59Z"})
	row.Status, row.LastActionNumber, row.PauseTime = store.JobPaused, 5, utc(t, "2013-08-01T06:00Z")
	row.NextMaterializedTime, row.LastActionTime = utc(t, "2013-08-01T05:00Z"), utc(t, "2013-08-01T05:00Z")
	row.DoneMaterialization = true
	action := func(n int, s store.CoordActionStatus) store.CoordAction {
		return store.CoordAction{ID: ActionID(testJobID, n), ActionNumber: n, Status: s,
			NominalTime: utc(t, "2013-08-01T00:00Z").Add(time.Duration(n-1) * time.Hour)}
	}
	actions := []store.CoordAction{action(1, store.CoordActionSucceeded), action(2, store.CoordActionSucceeded),
		action(3, store.CoordActionSucceeded), action(4, store.CoordActionRunning), action(5, store.CoordActionWaiting)}
	res, err := ApplyChange(row, false, actions, c, true)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Job.EndTime.Equal(c.EndTime) || res.Job.Concurrency != 200 || !res.StartReady || !res.Job.PauseTime.IsZero() ||
		res.Job.Status != store.JobRunning || len(res.Delete) != 1 || res.Delete[0].ActionNumber != 5 ||
		res.Job.LastActionNumber != 4 || !res.Job.NextMaterializedTime.Equal(utc(t, "2013-08-01T04:00Z")) || !res.Job.DoneMaterialization {
		t.Fatalf("X6: %+v delete %d", res.Job, len(res.Delete))
	}
	// X2: moving the end or pause time before a running action is refused.
	for _, v := range []string{"endtime=2013-08-01T02:30Z", "pausetime=2013-08-01T02:30Z"} {
		c, err := ParseChange(v, oozietime.UTC)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ApplyChange(row, false, actions, c, true); ErrorCode(err) != oozieerr.E1022 {
			t.Errorf("X2 %s: %v", v, err)
		}
	}
	// An end before the start ends the job and deletes the look-ahead actions.
	c, _ = ParseChange("endtime=2013-07-01T00:00Z", oozietime.UTC)
	running := row
	running.Status, running.LastActionNumber = store.JobRunning, 1
	res, err = ApplyChange(running, false, []store.CoordAction{action(1, store.CoordActionWaiting)}, c, true)
	if err != nil || res.Job.Status != store.JobSucceeded || !res.Job.DoneMaterialization || len(res.Delete) != 1 {
		t.Fatalf("end before start: %v %+v", err, res.Job)
	}
	// KILLED jobs only accept a status change; RUNNING comes back from FAILED/KILLED/IGNORED.
	killed := row
	killed.Status = store.JobKilled
	c, _ = ParseChange("concurrency=3", oozietime.UTC)
	if _, err := ApplyChange(killed, false, nil, c, true); ErrorCode(err) != oozieerr.E1016 {
		t.Fatalf("E1016: %v", err)
	}
	c, _ = ParseChange("status=RUNNING", oozietime.UTC)
	if res, err := ApplyChange(killed, false, nil, c, true); err != nil || res.Job.Status != store.JobRunning {
		t.Fatalf("status=RUNNING: %v", err)
	}
	if _, err := ApplyChange(row, false, nil, c, true); ErrorCode(err) != oozieerr.E1015 {
		t.Fatalf("RUNNING from PAUSED: %v", err)
	}
	c, _ = ParseChange("status=IGNORED", oozietime.UTC)
	if _, err := ApplyChange(killed, true, nil, c, true); ErrorCode(err) != oozieerr.E1015 {
		t.Fatalf("IGNORED while pending: %v", err)
	}
}

func TestScopes(t *testing.T) {
	t.Parallel()
	// Y1: an action scope names action ids.
	ids, err := ActionScope("J", "1-2")
	if err != nil || strings.Join(ids, ",") != "J@1,J@2" {
		t.Fatalf("Y1: %v %v", ids, err)
	}
	ids, err = ActionScope("J", "3, 1-2,2")
	if err != nil || strings.Join(ids, ",") != "J@3,J@1,J@2" {
		t.Fatalf("list: %v %v", ids, err)
	}
	for _, bad := range []string{"", "2-1", "a", "1-2-3", "1-x"} {
		if _, err := ActionScope("J", bad); ErrorCode(err) != oozieerr.E0302 {
			t.Errorf("scope %q: %v", bad, err)
		}
	}
	// Y3: a date range includes both ends.
	var daily []store.CoordAction
	for i := 0; i < 5; i++ {
		daily = append(daily, store.CoordAction{ActionNumber: i + 1, NominalTime: utc(t, "2009-12-14T01:00Z").Add(time.Duration(i) * 24 * time.Hour)})
	}
	ranges, err := DateScope("2009-12-15T01:00Z::2009-12-16T01:00Z", oozietime.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if got := InDateScope(daily, ranges); len(got) != 2 || got[0].ActionNumber != 2 || got[1].ActionNumber != 3 {
		t.Fatalf("Y3: %+v", got)
	}
	ranges, _ = DateScope("2009-12-18T01:00Z,2009-12-14T01:00Z", oozietime.UTC)
	if got := InDateScope(daily, ranges); len(got) != 2 {
		t.Fatalf("single dates: %+v", got)
	}
	if _, err := DateScope("2009-12-18", oozietime.UTC); ErrorCode(err) != oozieerr.E0302 {
		t.Fatalf("bad date: %v", err)
	}
	// Y5: repeated status keys are an OR.
	f, err := ParseActionFilter("status=RUNNING;status=KILLED", oozietime.UTC)
	if err != nil || len(f.Status) != 2 || f.Status[0] != store.CoordActionRunning || f.Status[1] != store.CoordActionKilled {
		t.Fatalf("Y5: %+v %v", f, err)
	}
	for s, want := range map[store.CoordActionStatus]bool{store.CoordActionRunning: true, store.CoordActionKilled: true,
		store.CoordActionWaiting: false} {
		if f.Matches(store.CoordAction{Status: s}) != want {
			t.Errorf("Y5 %s", s)
		}
	}
	f, err = ParseActionFilter("status!=KILLED;nominaltime>=2009-12-15T01:00Z;nominaltime<2009-12-17T01:00Z", oozietime.UTC)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	for _, a := range daily {
		a.Status = store.CoordActionSucceeded
		if f.Matches(a) {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("comparisons matched %d", n)
	}
	for _, bad := range []string{"color=red", "status=SLEEPING", "status>RUNNING", "nominaltime=yesterday", "=x"} {
		if _, err := ParseActionFilter(bad, oozietime.UTC); ErrorCode(err) != oozieerr.E0302 {
			t.Errorf("filter %q: %v", bad, err)
		}
	}
}
