package ooziedb

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/gozie/gozie/migrate/oozie"
)

// Options shape the fixture.
type Options struct {
	// Now is when Oozie stopped (the cutover): running jobs are
	// materialized up to it.
	Now time.Time
	// NameNode is the filesystem URI of the datasets and apps, e.g.
	// hdfs://nn:8020 or a test cluster's file:// root.
	NameNode string
	// Dialect is the source database's; nil means Postgres.
	Dialect *Dialect
}

func (o Options) dialect() *Dialect {
	if o.Dialect == nil {
		return Postgres
	}
	return o.Dialect
}

// Fixture names the rows Load wrote and what the import should make of them.
type Fixture struct {
	// Hourly is a RUNNING hourly coordinator, materialized one hour ahead:
	// actions SUCCEEDED, KILLED, READY and WAITING (on a done-flag).
	Hourly CoordFacts
	// Suspended is a SUSPENDED daily coordinator with a WAITING action.
	Suspended CoordFacts
	// Paused is a PAUSED coordinator whose blobs are gzip-compressed.
	Paused CoordFacts
	// Launcher is a RUNNING coordinator whose RUNNING action's workflow has
	// an action RUNNING in an Oozie launcher (YARN application LauncherApp).
	Launcher    CoordFacts
	LauncherApp string
	// Bundle is a RUNNING bundle; InBundle its coordinator.
	Bundle   string
	InBundle CoordFacts
	// Finished is a coordinator that SUCCEEDED 60 days before Now.
	Finished string
	// History is a standalone workflow that SUCCEEDED 5 days before Now.
	History string
	// WaitingFlag is the done-flag Hourly's WAITING action waits for.
	WaitingFlag string
	// SLAs are the ids with SLA registrations.
	SLAs []string
	// Jobs is every top-level job id (bundles, coordinators outside
	// bundles, standalone workflows).
	Jobs []string
}

// CoordFacts are what an imported coordinator must keep.
type CoordFacts struct {
	ID               string
	Status           string
	LastActionNumber int
	NextMatd         time.Time
	Start            time.Time
	Actions          map[int]string // action number → status
	Workflows        map[int]string // action number → workflow id
}

// JobID returns an Oozie job id: sequence, start and kind as Oozie's
// UUIDService writes them (system id "oozie-oozi").
func JobID(seq int, kind byte) string {
	return fmt.Sprintf("%07d-260101000000000-oozie-oozi-%c", seq, kind)
}

// ts is a TIMESTAMP value: NULL for the zero time.
func ts(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC()
}

// blob is a StringBlob value, compressed when gz is set.
func blob(s string, gz bool) any {
	if s == "" {
		return nil
	}
	return oozie.EncodeBlob([]byte(s), gz)
}

const oozieTime = "2006-01-02T15:04Z"

// ConfXML returns a job configuration as Oozie stores it.
func ConfXML(kv ...string) string {
	var b strings.Builder
	b.WriteString("<configuration>\n")
	for i := 0; i+1 < len(kv); i += 2 {
		fmt.Fprintf(&b, "  <property>\n    <name>%s</name>\n    <value>%s</value>\n  </property>\n", kv[i], kv[i+1])
	}
	b.WriteString("</configuration>")
	return b.String()
}

// coordSpec is one coordinator of the fixture.
type coordSpec struct {
	id, name, status, user    string
	freq, unit                string // Oozie's stored frequency: "60" MINUTE, "1" DAY
	step                      time.Duration
	start, end, pause         time.Time
	lastAction                int
	throttle, concurrency, to int
	bundle                    string
	gz                        bool
	lastModified              time.Time
	done                      bool
}

// JobXML is the coordinator's job_xml: the app with submission EL resolved,
// datasets copied into their events, as Oozie stores it.
func (c coordSpec) jobXML(nn string) string {
	return fmt.Sprintf(`<coordinator-app xmlns="uri:oozie:coordinator:0.4" name="%s" frequency="%s" start="%s" end="%s" timezone="UTC" freq_timeunit="%s" end_of_duration="NONE">
  <controls>
    <timeout>%d</timeout>
    <concurrency>%d</concurrency>
    <execution>FIFO</execution>
    <throttle>%d</throttle>
  </controls>
  <input-events>
    <data-in name="input" dataset="logs">
      <dataset name="logs" frequency="%s" initial-instance="2026-01-01T00:00Z" timezone="UTC" freq_timeunit="%s" end_of_duration="NONE">
        <uri-template>%s/data/%s/${YEAR}/${MONTH}/${DAY}/${HOUR}</uri-template>
        <done-flag>_SUCCESS</done-flag>
      </dataset>
      <instance>${coord:current(0)}</instance>
    </data-in>
  </input-events>
  <action>
    <workflow>
      <app-path>%s/apps/%s</app-path>
      <configuration>
        <property>
          <name>input</name>
          <value>${coord:dataIn('input')}</value>
        </property>
      </configuration>
    </workflow>
  </action>
</coordinator-app>`, c.name, c.freq, c.start.Format(oozieTime), c.end.Format(oozieTime), c.unit, c.to, c.concurrency,
		c.throttle, c.freq, c.unit, nn, c.name, nn, c.name)
}

// actionXML is a materialized action of the coordinator: the job_xml for
// one nominal time with its input resolved.
func (c coordSpec) actionXML(nn string, n int, nominal, created time.Time) (xml, uri string) {
	uri = fmt.Sprintf("%s/data/%s/%s", nn, c.name, nominal.Format("2006/01/02/15"))
	return fmt.Sprintf(`<coordinator-app xmlns="uri:oozie:coordinator:0.4" name="%s" frequency="%s" timezone="UTC" freq_timeunit="%s" end_of_duration="NONE" instance-number="%d" action-nominal-time="%s" action-actual-time="%s">
  <controls>
    <timeout>%d</timeout>
    <concurrency>%d</concurrency>
    <execution>FIFO</execution>
    <throttle>%d</throttle>
  </controls>
  <input-events>
    <data-in name="input" dataset="logs">
      <dataset name="logs" frequency="%s" initial-instance="2026-01-01T00:00Z" timezone="UTC" freq_timeunit="%s" end_of_duration="NONE">
        <uri-template>%s/data/%s/${YEAR}/${MONTH}/${DAY}/${HOUR}</uri-template>
        <done-flag>_SUCCESS</done-flag>
      </dataset>
      <uris>%s</uris>
    </data-in>
  </input-events>
  <action>
    <workflow>
      <app-path>%s/apps/%s</app-path>
      <configuration>
        <property>
          <name>input</name>
          <value>%s</value>
        </property>
      </configuration>
    </workflow>
  </action>
</coordinator-app>`, c.name, c.freq, c.unit, n, nominal.Format(oozieTime), created.Format(oozieTime), c.to, c.concurrency,
		c.throttle, c.freq, c.unit, nn, c.name, uri, nn, c.name, uri), uri
}

// workflowXML is the one-action workflow every fixture coordinator runs.
func workflowXML(name string) string {
	return `<workflow-app xmlns="uri:oozie:workflow:0.5" name="` + name + `-wf">
  <start to="work"/>
  <action name="work"><fs/><ok to="end"/><error to="fail"/></action>
  <kill name="fail"><message>failed</message></kill>
  <end name="end"/>
</workflow-app>`
}

// loader writes the fixture's rows.
type loader struct {
	ctx context.Context
	db  *sql.DB
	o   Options
	err error
}

func (l *loader) insert(table string, row Row) {
	if l.err == nil {
		l.err = l.o.dialect().Insert(l.ctx, l.db, table, row)
	}
}

// Load creates Oozie's schema in db (of o.Dialect) and fills it.
func Load(ctx context.Context, db *sql.DB, o Options) (*Fixture, error) {
	if err := o.dialect().Create(ctx, db); err != nil {
		return nil, err
	}
	l := &loader{ctx: ctx, db: db, o: o}
	now := o.Now.UTC().Truncate(time.Minute)
	hour := now.Truncate(time.Hour)
	day := now.Truncate(24 * time.Hour)
	f := &Fixture{LauncherApp: "application_1767225600000_0042"}

	hourly := coordSpec{id: JobID(1, 'C'), name: "hourly", status: "RUNNING", user: "alice", freq: "60", unit: "MINUTE",
		step: time.Hour, start: day.Add(-48 * time.Hour), end: day.AddDate(1, 0, 0), throttle: 12, concurrency: 1,
		to: 120, lastModified: now}
	n := int(hour.Sub(hourly.start)/time.Hour) + 1 // the action of the current hour
	hourly.lastAction = n
	f.Hourly = l.coord(hourly, map[int]string{n - 3: "SUCCEEDED", n - 2: "KILLED", n - 1: "READY", n: "WAITING"}, f)
	_, flagDir := hourly.actionXML(o.NameNode, n, hourly.start.Add(time.Duration(n-1)*time.Hour), now)
	f.WaitingFlag = flagDir + "/_SUCCESS"

	susp := coordSpec{id: JobID(2, 'C'), name: "daily", status: "SUSPENDED", user: "bob", freq: "1", unit: "DAY",
		step: 24 * time.Hour, start: day.AddDate(0, 0, -9), end: day.AddDate(0, 6, 0), throttle: 3, concurrency: 2,
		to: -1, lastModified: now.Add(-time.Hour)}
	susp.lastAction = 10
	f.Suspended = l.coord(susp, map[int]string{9: "SUCCEEDED", 10: "WAITING"}, f)

	paused := coordSpec{id: JobID(3, 'C'), name: "paused", status: "PAUSED", user: "alice", freq: "60", unit: "MINUTE",
		step: time.Hour, start: hour.Add(-4 * time.Hour), end: day.AddDate(0, 1, 0), pause: hour.Add(2 * time.Hour),
		throttle: 5, concurrency: 1, to: 60, gz: true, lastModified: now}
	paused.lastAction = 5
	f.Paused = l.coord(paused, map[int]string{4: "SUCCEEDED", 5: "WAITING"}, f)

	launcher := coordSpec{id: JobID(4, 'C'), name: "launcher", status: "RUNNING", user: "carol", freq: "60",
		unit: "MINUTE", step: time.Hour, start: hour.Add(-2 * time.Hour), end: day.AddDate(0, 1, 0), throttle: 5,
		concurrency: 1, to: 60, lastModified: now}
	launcher.lastAction = 3
	f.Launcher = l.coord(launcher, map[int]string{2: "SUCCEEDED", 3: "RUNNING"}, f)

	f.Bundle = JobID(5, 'B')
	inBundle := coordSpec{id: JobID(6, 'C'), name: "bundled", status: "RUNNING", user: "alice", freq: "60",
		unit: "MINUTE", step: time.Hour, start: hour.Add(-1 * time.Hour), end: day.AddDate(0, 1, 0), throttle: 5,
		concurrency: 1, to: 60, bundle: f.Bundle, lastModified: now}
	inBundle.lastAction = 2
	l.bundle(f.Bundle, inBundle, now)
	f.InBundle = l.coord(inBundle, map[int]string{1: "SUCCEEDED", 2: "WAITING"}, f)

	fin := coordSpec{id: JobID(7, 'C'), name: "finished", status: "SUCCEEDED", user: "alice", freq: "1", unit: "DAY",
		step: 24 * time.Hour, start: day.AddDate(0, 0, -90), end: day.AddDate(0, 0, -60), throttle: 3,
		concurrency: 1, to: -1, lastModified: now.AddDate(0, 0, -60), done: true}
	fin.lastAction = 30
	f.Finished = l.coord(fin, map[int]string{30: "SUCCEEDED"}, f).ID

	f.History = JobID(8, 'W')
	end := now.AddDate(0, 0, -5)
	l.workflow(f.History, "history", "alice", "", "SUCCEEDED", end.Add(-10*time.Minute), end, "OK", "")
	l.sla(f.History, "", "history-wf", "WORKFLOW_JOB", "alice", end.Add(-10*time.Minute), end.Add(-5*time.Minute),
		end.Add(20*time.Minute), end.Add(-10*time.Minute), end, "SUCCEEDED", "MET", "START_MISS,END_MET")
	f.SLAs = append(f.SLAs, f.History)

	f.Jobs = []string{f.Bundle, f.Hourly.ID, f.Suspended.ID, f.Paused.ID, f.Launcher.ID, f.Finished, f.History}
	return f, l.err
}

// coord writes a coordinator with the actions given (number → status) and
// the workflows of those that ran; the job's materialization ends after
// the last action.
func (l *loader) coord(c coordSpec, actions map[int]string, f *Fixture) CoordFacts {
	nn := l.o.NameNode
	nominal := func(k int) time.Time { return c.start.Add(time.Duration(k-1) * c.step) }
	next := nominal(c.lastAction + 1)
	confXML := ConfXML("user.name", c.user, "oozie.coord.application.path", nn+"/apps/"+c.name, "nameNode", nn)
	job := Row{"id": c.id, "app_name": c.name, "app_path": nn + "/apps/" + c.name, "user_name": c.user,
		"group_name": "", "status": c.status, "conf": blob(confXML, c.gz), "job_xml": blob(c.jobXML(nn), c.gz),
		"orig_job_xml": blob(c.jobXML(nn), c.gz), "frequency": c.freq, "time_unit": c.unit, "time_zone": "UTC",
		"execution": "FIFO", "app_namespace": "uri:oozie:coordinator:0.4", "concurrency": c.concurrency,
		"mat_throttling": c.throttle, "time_out": c.to, "last_action_number": c.lastAction,
		"start_time": ts(c.start), "end_time": ts(c.end), "pause_time": ts(c.pause),
		"created_time": ts(c.start.Add(-time.Hour)), "last_action": ts(next), "next_matd_time": ts(next),
		"last_modified_time": ts(c.lastModified), "pending": 0, "done_materialization": b2i(c.done)}
	if c.bundle != "" {
		job["bundle_id"] = c.bundle
	}
	if c.status == "SUSPENDED" {
		job["suspended_time"] = ts(c.lastModified)
	}
	l.insert("coord_jobs", job)
	facts := CoordFacts{ID: c.id, Status: c.status, LastActionNumber: c.lastAction, NextMatd: next, Start: c.start,
		Actions: actions, Workflows: map[int]string{}}
	for k, st := range actions {
		nom := nominal(k)
		created := nom.Add(-5 * time.Minute)
		xml, uri := c.actionXML(nn, k, nom, created)
		id := fmt.Sprintf("%s@%d", c.id, k)
		row := Row{"id": id, "job_id": c.id, "action_number": k, "status": st, "nominal_time": ts(nom),
			"created_time": ts(created), "last_modified_time": ts(c.lastModified), "action_xml": blob(xml, c.gz),
			"created_conf": blob(confXML, c.gz), "run_conf": blob(confXML, c.gz), "time_out": c.to, "pending": 0,
			"job_type": "wf"}
		if st == "WAITING" {
			row["missing_dependencies"] = blob(uri+"/_SUCCESS", c.gz)
		}
		if st != "WAITING" && st != "READY" {
			wf := fmt.Sprintf("%07d-260101000000000-oozie-oozi-W", 1000*seqOf(c.id)+k)
			row["external_id"], row["external_status"] = wf, st
			facts.Workflows[k] = wf
			wfStatus, work, app := st, "OK", ""
			if st == "RUNNING" {
				work, app = "RUNNING", "application_1767225600000_0042"
			}
			if st == "KILLED" {
				work = "KILLED"
			}
			l.workflow(wf, c.name, c.user, id, wfStatus, nom.Add(time.Minute), nom.Add(30*time.Minute), work, app)
		}
		if st == "SUCCEEDED" && c.name == "hourly" {
			l.sla(id, c.id, c.name, "COORDINATOR_ACTION", c.user, nom, nom.Add(10*time.Minute), nom.Add(45*time.Minute),
				nom.Add(time.Minute), nom.Add(30*time.Minute), "SUCCEEDED", "MET", "START_MET,END_MET")
			f.SLAs = append(f.SLAs, id)
		}
		l.insert("coord_actions", row)
	}
	return facts
}

func seqOf(id string) int {
	var n int
	fmt.Sscanf(id, "%07d", &n)
	return n
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// workflow writes a workflow job running the one-action workflow, with its
// control nodes and its action "work" in status work (RUNNING in a
// launcher when app is set).
func (l *loader) workflow(id, name, user, parent, status string, start, end time.Time, work, app string) {
	nn := l.o.NameNode
	confXML := ConfXML("user.name", user, "oozie.wf.application.path", nn+"/apps/"+name)
	def := workflowXML(name)
	inst := oozie.EncodeWorkflowInstance(id, confXML, name+"-wf", def)
	row := Row{"id": id, "app_name": name + "-wf", "app_path": nn + "/apps/" + name, "user_name": user,
		"group_name": "", "status": status, "conf": blob(confXML, false), "wf_instance": oozie.EncodeBlob(inst, true),
		"run": 0, "created_time": ts(start), "start_time": ts(start), "last_modified_time": ts(end),
		"log_token": "", "bean_type": "workflow"}
	if parent != "" {
		row["parent_id"] = parent
	}
	if status != "RUNNING" {
		row["end_time"] = ts(end)
	}
	l.insert("wf_jobs", row)
	l.action(id, ":start:", ":START:", "OK", start, start, "", "work")
	wEnd := end
	if work == "RUNNING" {
		wEnd = time.Time{}
	}
	l.action(id, "work", "shell", work, start, wEnd, app, map[string]string{"OK": "end", "KILLED": "fail"}[work])
	if status == "SUCCEEDED" {
		l.action(id, "end", ":END:", "OK", end, end, "", "")
	}
}

func (l *loader) action(wfID, name, typ, status string, start, end time.Time, app, transition string) {
	row := Row{"id": wfID + "@" + name, "wf_id": wfID, "name": name, "type": typ, "status": status,
		"created_time": ts(start), "start_time": ts(start), "end_time": ts(end), "execution_path": "/",
		"pending": 0, "retries": 0, "user_retry_count": 0, "user_retry_max": 0, "user_retry_interval": 10,
		"transition": transition, "conf": blob("<fs/>", false), "last_check_time": ts(start)}
	if app != "" {
		row["external_id"], row["external_status"] = app, "RUNNING"
		row["tracker_uri"] = "rm:8032"
		row["console_url"] = "http://rm:8088/proxy/" + app + "/"
	}
	l.insert("wf_actions", row)
}

// sla writes an SLA registration and its summary.
func (l *loader) sla(id, parent, app, appType, user string, nominal, expStart, expEnd, actStart, actEnd time.Time,
	jobStatus, slaStatus, events string) {
	l.insert("sla_registration", Row{"job_id": id, "parent_id": nullable(parent), "app_name": app,
		"app_type": appType, "user_name": user, "nominal_time": ts(nominal), "expected_start": ts(expStart),
		"expected_end": ts(expEnd), "expected_duration": int64(30 * time.Minute / time.Millisecond),
		"created_time": ts(nominal.Add(-5 * time.Minute)), "sla_config": "{alert_events=END_MISS},{alert_contact=ops@example.com},",
		"notification_msg": "", "upstream_apps": ""})
	l.insert("sla_summary", Row{"job_id": id, "parent_id": nullable(parent), "app_name": app, "app_type": appType,
		"user_name": user, "nominal_time": ts(nominal), "expected_start": ts(expStart), "expected_end": ts(expEnd),
		"expected_duration": int64(30 * time.Minute / time.Millisecond), "actual_start": ts(actStart),
		"actual_end": ts(actEnd), "actual_duration": int64(actEnd.Sub(actStart) / time.Millisecond),
		"job_status": jobStatus, "sla_status": slaStatus, "event_status": events, "event_processed": 7,
		"last_modified": ts(actEnd), "created_time": ts(nominal.Add(-5 * time.Minute))})
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// bundle writes a RUNNING bundle with one coordinator.
func (l *loader) bundle(id string, c coordSpec, now time.Time) {
	nn := l.o.NameNode
	xml := fmt.Sprintf(`<bundle-app xmlns="uri:oozie:bundle:0.2" name="nightly">
  <coordinator name="%s">
    <app-path>%s/apps/%s</app-path>
  </coordinator>
</bundle-app>`, c.name, nn, c.name)
	confXML := ConfXML("user.name", c.user, "oozie.bundle.application.path", nn+"/apps/nightly")
	l.insert("bundle_jobs", Row{"id": id, "app_name": "nightly", "app_path": nn + "/apps/nightly", "user_name": c.user,
		"group_name": "", "status": "RUNNING", "conf": blob(confXML, false), "job_xml": blob(xml, false),
		"orig_job_xml": blob(xml, false), "time_out": 0, "time_unit": "NONE", "kickoff_time": ts(c.start),
		"start_time": ts(c.start), "end_time": ts(c.end), "created_time": ts(c.start.Add(-time.Hour)),
		"last_modified_time": ts(now), "pending": 0})
	l.insert("bundle_actions", Row{"bundle_action_id": id + "_" + c.name, "bundle_id": id, "coord_name": c.name,
		"coord_id": c.id, "critical": 0, "pending": 0, "status": "RUNNING", "last_modified_time": ts(now)})
}
