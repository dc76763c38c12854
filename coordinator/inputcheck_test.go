package coordinator

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

// checkJobXML is the job of Oozie's input-check tests: a weekly dataset from 2009-01-01T01:00Z
// on the local filesystem, one data-in whose instances are given, one data-out, timeout 10.
func checkJobXML(dir, startInstance, endInstance string) string {
	return fmt.Sprintf(`<coordinator-app xmlns="uri:oozie:coordinator:0.2" name="NAME" frequency="${coord:days(1)}"
    start="2009-02-15T23:59Z" end="2009-02-16T23:59Z" timezone="UTC">
  <controls><timeout>10</timeout><concurrency>2</concurrency><execution>LIFO</execution><throttle>2</throttle></controls>
  <datasets>
    <dataset name="a" frequency="${coord:days(7)}" initial-instance="2009-01-01T01:00Z" timezone="UTC">
      <uri-template>file://%[1]s/${YEAR}/${MONTH}/${DAY}</uri-template>
    </dataset>
    <dataset name="local_a" frequency="${coord:days(7)}" initial-instance="2009-01-01T01:00Z" timezone="UTC">
      <uri-template>file://%[1]s/out/${YEAR}/${MONTH}/${DAY}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="A" dataset="a">
      <start-instance>%[2]s</start-instance>
      <end-instance>%[3]s</end-instance>
    </data-in>
  </input-events>
  <output-events>
    <data-out name="LOCAL_A" dataset="local_a"><instance>${coord:current(0)}</instance></data-out>
  </output-events>
  <action>
    <workflow>
      <app-path>hdfs:///tmp/workflows/</app-path>
      <configuration>
        <property><name>inputA</name><value>${coord:dataIn('A')}</value></property>
        <property><name>inputB</name><value>${coord:dataOut('LOCAL_A')}</value></property>
        <property><name>nominal</name><value>${coord:nominalTime()}</value></property>
      </configuration>
    </workflow>
  </action>
</coordinator-app>`, filepath.ToSlash(dir), startInstance, endInstance)
}

// submitXML parses and submits an application with a user and extra properties.
func submitXML(t testing.TB, xml string, extra ...Property) *Job {
	t.Helper()
	app, err := Parse([]byte(xml))
	if err != nil {
		t.Fatal(err)
	}
	job, err := Submit(app, SubmitRequest{Conf: conf.PropertiesOf(append([]Property{{Name: "user.name", Value: "test"}}, extra...)...),
		Settings: DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	return job
}

// firstAction materializes a job at now and returns its first action.
func firstAction(t testing.TB, job *Job, now time.Time) (store.CoordJob, NewAction) {
	t.Helper()
	row := job.Row()
	row.ID = testJobID
	res, err := Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: now, Settings: DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Actions) == 0 {
		t.Fatalf("no action materialized: %s", res.Reason)
	}
	return res.Job, res.Actions[0]
}

// check runs an input check of an action.
func check(t testing.TB, job *Job, row store.CoordJob, a store.CoordAction, now time.Time, s Settings) InputCheckResult {
	t.Helper()
	return CheckInputs(InputCheckRequest{Job: job, JobID: testJobID, Row: row, Action: a, RunConf: job.Conf,
		Timeout: row.Timeout, Exists: fileExists, Now: now, Settings: s})
}

// urisOf returns the <uris> of the first data-in of an action document.
func urisOf(t testing.TB, job *Job, xml string) string {
	t.Helper()
	doc, err := ParseActionXML(xml, job.Conf, oozietime.UTC)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(doc.DataIns[0].URIs, "#")
}

func TestInputCheckCurrent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	job := submitXML(t, strings.ReplaceAll(checkJobXML(dir, "${coord:current(-3)}", "${coord:current(1)}"),
		`start="2009-02-15T23:59Z" end="2009-02-16T23:59Z"`, `start="2009-02-01T23:59Z" end="2009-02-02T23:59Z"`))
	now := utc(t, "2009-02-20T00:00Z")
	row, na := firstAction(t, job, now)
	base := "file://" + filepath.ToSlash(dir)
	if !strings.HasPrefix(na.Row.MissingDependencies, base+"/2009/02/05/_SUCCESS#"+base+"/2009/01/29/_SUCCESS") {
		t.Fatalf("missing dependencies %s", na.Row.MissingDependencies)
	}
	// I12: everything but the newest instance exists; the check stops at the first missing
	// dependency, which is the newest one, so nothing else is checked.
	mkdirs(t, dir, "2009/01/29/_SUCCESS", "2009/01/22/_SUCCESS", "2009/01/15/_SUCCESS", "2009/01/08/_SUCCESS")
	res := check(t, job, row, na.Row, now, DefaultSettings())
	if res.Status != store.CoordActionWaiting || res.FirstMissing != base+"/2009/02/05/_SUCCESS" {
		t.Fatalf("I12: %s first missing %s", res.Status, res.FirstMissing)
	}
	if res.MissingDependencies != na.Row.MissingDependencies || res.Changed {
		t.Fatalf("I12: missing changed to %s", res.MissingDependencies)
	}
	if !res.NextCheckAt.Equal(now.Add(time.Minute)) {
		t.Fatalf("I12: next check %v", res.NextCheckAt)
	}
	// Oozie's testActionInputCheck: with 02/05 present the list restarts at 01/29.
	dir2 := t.TempDir()
	job2 := submitXML(t, strings.ReplaceAll(checkJobXML(dir2, "${coord:current(-3)}", "${coord:current(1)}"),
		`start="2009-02-15T23:59Z" end="2009-02-16T23:59Z"`, `start="2009-02-01T23:59Z" end="2009-02-02T23:59Z"`))
	row2, na2 := firstAction(t, job2, now)
	mkdirs(t, dir2, "2009/02/05/_SUCCESS", "2009/01/15/_SUCCESS")
	res = check(t, job2, row2, na2.Row, now, DefaultSettings())
	if strings.Contains(res.MissingDependencies, "/2009/02/05/") || !strings.Contains(res.MissingDependencies, "/2009/01/15/") ||
		!res.Changed {
		t.Fatalf("missing dependencies %s", res.MissingDependencies)
	}
	// All present: READY, with the workflow configuration evaluated.
	mkdirs(t, dir, "2009/02/05/_SUCCESS")
	res = check(t, job, row, na.Row, now, DefaultSettings())
	if res.Status != store.CoordActionReady || res.MissingDependencies != "" {
		t.Fatalf("ready: %s %q %v", res.Status, res.MissingDependencies, res.Err)
	}
	doc, err := ParseActionXML(res.ActionXML, job.Conf, oozietime.UTC)
	if err != nil {
		t.Fatal(err)
	}
	conf, err := WorkflowConf(doc, job.Conf, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantIn := strings.Join([]string{base + "/2009/02/05", base + "/2009/01/29", base + "/2009/01/22", base + "/2009/01/15", base + "/2009/01/08"}, ",")
	if got := conf.Value("inputA"); got != wantIn {
		t.Fatalf("inputA %s", got)
	}
	if got := conf.Value("inputB"); got != base+"/out/2009/01/29" {
		t.Fatalf("inputB %s", got)
	}
	if conf.Value("nominal") != "2009-02-01T23:59Z" || conf.Value(KeyWorkflowAppPath) != "hdfs:///tmp/workflows/" ||
		conf.Value(KeyNominalTime) != "1233532740000" || conf.Value(KeyUserName) != "test" {
		t.Fatalf("workflow conf %v", conf)
	}
	// Before the nominal time nothing is checked.
	early := check(t, job, row, na.Row, utc(t, "2009-02-01T00:00Z"), DefaultSettings())
	if early.Status != store.CoordActionWaiting || !early.NextCheckAt.Equal(na.Row.NominalTime) {
		t.Fatalf("early: %s at %v", early.Status, early.NextCheckAt)
	}
}

func TestInputCheckLatest(t *testing.T) {
	t.Parallel()
	setup := func(t *testing.T) (string, *Job, store.CoordJob, store.CoordAction) {
		dir := t.TempDir()
		job := submitXML(t, checkJobXML(dir, "${coord:latest(-3)}", "${coord:latest(0)}"))
		row, na := firstAction(t, job, utc(t, "2009-03-30T00:00Z"))
		if na.Row.MissingDependencies != "!!${coord:latestRange(-3,0)}" {
			t.Fatalf("missing dependencies %q", na.Row.MissingDependencies)
		}
		// As Oozie's test does, pretend the action was created at 2009-02-15T01:00Z.
		a := na.Row
		a.ActionXML = strings.Replace(a.ActionXML, `action-actual-time="2009-03-30T00:00Z"`, `action-actual-time="2009-02-15T01:00Z"`, 1)
		a.CreatedTime = utc(t, "2009-02-15T01:00Z")
		mkdirs(t, dir, "2009/03/05/_SUCCESS", "2009/02/19/_SUCCESS", "2009/02/12/_SUCCESS", "2009/02/05/_SUCCESS",
			"2009/01/22/_SUCCESS", "2009/01/08/_SUCCESS")
		return "file://" + filepath.ToSlash(dir), job, row, a
	}
	t.Run("L13 from the current time", func(t *testing.T) {
		t.Parallel()
		base, job, row, a := setup(t)
		s := DefaultSettings()
		s.LatestUsesCurrentTime = true
		s.MaxTimeout = 0
		row.Timeout = -1
		res := CheckInputs(InputCheckRequest{Job: job, JobID: testJobID, Row: row, Action: a, RunConf: job.Conf, Timeout: -1,
			Exists: fileExists, Now: utc(t, "2009-03-10T00:00Z"), Settings: s})
		if res.Status != store.CoordActionReady || res.MissingDependencies != "" {
			t.Fatalf("status %s missing %q err %v", res.Status, res.MissingDependencies, res.Err)
		}
		want := base + "/2009/03/05#" + base + "/2009/02/19#" + base + "/2009/02/12#" + base + "/2009/02/05"
		if got := urisOf(t, job, res.ActionXML); got != want {
			t.Fatalf("uris %s\nwant %s", got, want)
		}
	})
	t.Run("from the creation time", func(t *testing.T) {
		t.Parallel()
		base, job, row, a := setup(t)
		res := CheckInputs(InputCheckRequest{Job: job, JobID: testJobID, Row: row, Action: a, RunConf: job.Conf, Timeout: -1,
			Exists: fileExists, Now: utc(t, "2009-03-10T00:00Z"), Settings: DefaultSettings()})
		want := base + "/2009/02/12#" + base + "/2009/02/05#" + base + "/2009/01/22#" + base + "/2009/01/08"
		if res.Status != store.CoordActionReady || urisOf(t, job, res.ActionXML) != want {
			t.Fatalf("status %s uris %s", res.Status, urisOf(t, job, res.ActionXML))
		}
	})
	t.Run("I2 times out while unresolved", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		job := submitXML(t, checkJobXML(dir, "${coord:latest(-3)}", "${coord:latest(0)}"))
		now := utc(t, "2009-03-30T00:00Z")
		row, na := firstAction(t, job, now)
		a := na.Row
		a.CreatedTime = now.Add(-13 * time.Minute)
		res := check(t, job, row, a, now, DefaultSettings())
		if res.Status != store.CoordActionTimedOut {
			t.Fatalf("I2: %s", res.Status)
		}
		a.CreatedTime = now.Add(-9 * time.Minute)
		if res := check(t, job, row, a, now, DefaultSettings()); res.Status != store.CoordActionWaiting ||
			res.MissingDependencies != "!!${coord:latestRange(-3,0)}" || res.FirstMissing != "${coord:latestRange(-3,0)}" {
			t.Fatalf("not timed out yet: %s %q %q", res.Status, res.MissingDependencies, res.FirstMissing)
		}
	})
}

func TestInputCheckFuture(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	job := submitXML(t, checkJobXML(dir, "${coord:future(0,5)}", "${coord:future(3,5)}"))
	now := utc(t, "2009-03-30T00:00Z")
	row, na := firstAction(t, job, now)
	// L15: 03/26 is beyond the limit of 5 instances, so only three are found.
	mkdirs(t, dir, "2009/02/12/_SUCCESS", "2009/02/26/_SUCCESS", "2009/03/05/_SUCCESS", "2009/03/26/_SUCCESS")
	res := check(t, job, row, na.Row, now, DefaultSettings())
	if res.Status != store.CoordActionWaiting || res.MissingDependencies != "!!${coord:futureRange(0,3,'5')}" {
		t.Fatalf("L15: %s %q %v", res.Status, res.MissingDependencies, res.Err)
	}
	mkdirs(t, dir, "2009/03/12/_SUCCESS")
	res = check(t, job, row, na.Row, now, DefaultSettings())
	base := "file://" + filepath.ToSlash(dir)
	want := base + "/2009/02/12#" + base + "/2009/02/26#" + base + "/2009/03/05#" + base + "/2009/03/12"
	if res.Status != store.CoordActionReady || res.MissingDependencies != "" || urisOf(t, job, res.ActionXML) != want {
		t.Fatalf("resolved: %s %q %s", res.Status, res.MissingDependencies, urisOf(t, job, res.ActionXML))
	}
}

func TestInputCheckExecutionOrder(t *testing.T) {
	t.Parallel()
	now := utc(t, "2020-06-01T12:00Z")
	start := now.Add(-65 * time.Minute)
	lastOnly := func(end time.Time) (*Job, store.CoordJob) {
		job, row := newJob(t, jobSpec{freq: "10", unit: oozietime.Minute, execution: LastOnly, start: oozietime.UTC.Format(start),
			end: oozietime.UTC.Format(end)})
		row.Status = store.JobRunning
		row.StartTime, row.EndTime = start, end
		return job, row
	}
	action := func(job *Job, number int, nominal time.Time) store.CoordAction {
		doc := &ActionDoc{Job: job, Number: number, NominalTime: nominal, ActualTime: nominal}
		return store.CoordAction{ID: ActionID(testJobID, number), ActionNumber: number, NominalTime: nominal,
			Status: store.CoordActionWaiting, ActionXML: doc.XML(), MissingDependencies: "hdfs:///dirx/filex", CreatedTime: nominal}
	}
	run := func(job *Job, row store.CoordJob, a store.CoordAction) store.CoordActionStatus {
		return CheckInputs(InputCheckRequest{Job: job, JobID: testJobID, Row: row, Action: a, RunConf: job.Conf,
			Timeout: -1, Exists: fileExists, Now: now, Settings: DefaultSettings()}).Status
	}
	job, row := lastOnly(start.Add(300 * time.Minute))
	tests := []struct {
		id     string
		job    *Job
		row    store.CoordJob
		action store.CoordAction
		want   store.CoordActionStatus
	}{
		{"I3 next nominal time passed", job, row, action(job, 1, start), store.CoordActionSkipped},
		{"I4", job, row, action(job, 12, start.Add(120*time.Minute)), store.CoordActionWaiting},
		{"I5 next in five minutes", job, row, action(job, 7, start.Add(60*time.Minute)), store.CoordActionWaiting},
	}
	jobEnd, rowEnd := lastOnly(start.Add(68 * time.Minute))
	tests = append(tests, struct {
		id     string
		job    *Job
		row    store.CoordJob
		action store.CoordAction
		want   store.CoordActionStatus
	}{"I6 next after the end", jobEnd, rowEnd, action(jobEnd, 7, start.Add(60*time.Minute)), store.CoordActionWaiting})
	jobPast, rowPast := lastOnly(start.Add(5 * time.Minute))
	tests = append(tests, struct {
		id     string
		job    *Job
		row    store.CoordJob
		action store.CoordAction
		want   store.CoordActionStatus
	}{"I7 next after an end in the past", jobPast, rowPast, action(jobPast, 1, start), store.CoordActionWaiting})
	none, noneRow := newJob(t, jobSpec{freq: "10", unit: oozietime.Minute, execution: None, start: "2020-06-01T10:00Z", end: "2020-06-01T16:00Z"})
	noneRow.Status = store.JobRunning
	for _, n := range []struct {
		id     string
		offset time.Duration
		want   store.CoordActionStatus
	}{
		{"I8 an hour ago", -60 * time.Minute, store.CoordActionSkipped},
		{"I9 in an hour", 60 * time.Minute, store.CoordActionWaiting},
		{"I10 five minutes ago", -5 * time.Minute, store.CoordActionSkipped},
		{"I10 two minutes ago", -2 * time.Minute, store.CoordActionSkipped},
		{"within the tolerance", -30 * time.Second, store.CoordActionWaiting},
	} {
		tests = append(tests, struct {
			id     string
			job    *Job
			row    store.CoordJob
			action store.CoordAction
			want   store.CoordActionStatus
		}{n.id, none, noneRow, action(none, 1, now.Add(n.offset)), n.want})
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			if got := run(tc.job, tc.row, tc.action); got != tc.want {
				t.Fatalf("%s, want %s", got, tc.want)
			}
		})
	}
}

func TestInputCheckLatestAllOrNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	xml := strings.Replace(checkJobXML(dir, "${coord:latest(0)}", "${coord:latest(0)}"), "</input-events>",
		`<data-in name="B" dataset="local_a"><instance>${coord:latest(0)}</instance></data-in></input-events>`, 1)
	job := submitXML(t, xml)
	now := utc(t, "2009-03-30T00:00Z")
	row, na := firstAction(t, job, now)
	if na.Row.MissingDependencies != "!!${coord:latestRange(0,0)}!!${coord:latest(0)}" {
		t.Fatalf("missing dependencies %q", na.Row.MissingDependencies)
	}
	// Only the first data-in can resolve: nothing is kept, as in Oozie.
	mkdirs(t, dir, "2009/02/12/_SUCCESS")
	res := check(t, job, row, na.Row, now, DefaultSettings())
	partial, err := ParseActionXML(res.ActionXML, job.Conf, oozietime.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != store.CoordActionWaiting || res.MissingDependencies != na.Row.MissingDependencies ||
		len(partial.DataIns[0].URIs) != 0 || len(partial.DataIns[0].Unresolved) != 1 {
		t.Fatalf("partial resolution kept: %s %q %+v", res.Status, res.MissingDependencies, partial.DataIns[0])
	}
	mkdirs(t, dir, "out/2009/02/05/_SUCCESS")
	res = check(t, job, row, na.Row, now, DefaultSettings())
	doc, err := ParseActionXML(res.ActionXML, job.Conf, oozietime.UTC)
	if err != nil {
		t.Fatal(err)
	}
	base := "file://" + filepath.ToSlash(dir)
	if res.Status != store.CoordActionReady || doc.DataIns[0].URIs[0] != base+"/2009/02/12" ||
		doc.DataIns[1].URIs[0] != base+"/out/2009/02/05" {
		t.Fatalf("resolved: %s %+v", res.Status, doc.DataIns)
	}
}
