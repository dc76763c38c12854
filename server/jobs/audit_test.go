package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/store"
)

// auditStep is one request of an audit test and the line it must leave.
type auditStep struct {
	method, path, contentType, body string
	status                          int    // the answer expected
	code                            string // the Oozie error code expected, if any
	user, op, param                 string // the line's USER, OPERATION and PARAMETER
}

// run sends the step's request a minute after the previous one and returns
// the line it must leave: its time, and the status, code and message that
// were actually sent.
func (s auditStep) run(t *testing.T, f *fixture, target, group, app string) string {
	t.Helper()
	f.Clock.Advance(time.Minute)
	r := f.call(t, s.method, s.path, s.contentType, s.body)
	if r.status != s.status || r.header.Get(server.HeaderErrorCode) != s.code {
		t.Fatalf("%s %s: %d %s %s, want %d %s", s.method, s.path, r.status, r.header.Get(server.HeaderErrorCode),
			r.header.Get(server.HeaderErrorMessage), s.status, s.code)
	}
	status := "SUCCESS"
	if r.status >= 300 {
		status = "FAILED"
	}
	return oozieAuditLine(f.Clock.Now(), s.user, group, app, target, s.op, s.param, status, r.status,
		r.header.Get(server.HeaderErrorCode), r.header.Get(server.HeaderErrorMessage))
}

// oozieAuditLine is a line of Oozie's audit log, written here from its
// format so that the server's own formatting is checked against it.
func oozieAuditLine(at time.Time, user, group, app, jobID, op, param, status string, code int, errCode, errMsg string) string {
	null := func(s string) string {
		if s == "" {
			return "null"
		}
		return s
	}
	return fmt.Sprintf("%s  INFO oozieaudit:520 - IP [127.0.0.1], USER [%s], GROUP [%s], APP [%s], JOBID [%s], "+
		"OPERATION [%s], PARAMETER [%s], STATUS [%s], HTTPCODE [%d], ERRORCODE [%s], ERRORMESSAGE [%s]",
		at.UTC().Format("2006-01-02 15:04:05,000"), null(user), null(group), null(app), null(jobID), null(op), null(param),
		status, code, null(errCode), null(errMsg))
}

// auditLog reads GET job/<id>?show=auditlog with extra query parameters.
func (f *fixture) auditLog(t *testing.T, id, query string) string {
	t.Helper()
	r := f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=auditlog"+query, "", "")
	if r.status != http.StatusOK {
		t.Fatalf("auditlog of %s%s: %d %s %s", id, query, r.status, r.header.Get(server.HeaderErrorMessage), r.body)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("auditlog content type %q", ct)
	}
	return r.body
}

// text is lines as a text answer holds them.
func text(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

// TestAuditTrailOfCommands: a submission and every command on a workflow,
// successful or refused, leave exactly one line each, in order, with the
// user of the request and the status and error the client got; reads leave
// none.
func TestAuditTrailOfCommands(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.Clock.Advance(time.Minute)
	r := f.call(t, http.MethodPost, "/oozie/v1/jobs?user.name=joe", "application/xml", f.jobConf(t, appFS))
	if r.status != http.StatusCreated {
		t.Fatalf("submit: %d %s", r.status, r.body)
	}
	var out struct{ ID string }
	decode(t, r.body, &out)
	id := out.ID
	job := f.workflowJob(t, id)
	want := []string{oozieAuditLine(f.Clock.Now(), "joe", job.Group, job.AppName, id, "submit", f.appPath(appFS), "SUCCESS",
		http.StatusCreated, "", "")}
	put := func(query string) string { return "/oozie/v2/job/" + id + "?" + query }
	rerunConf := configXML(t, "user.name", "joe")
	for _, s := range []auditStep{
		{method: http.MethodPut, path: put("action=start&user.name=joe"), status: 200, user: "joe", op: "start", param: id},
		{method: http.MethodGet, path: put("show=info&user.name=joe"), status: 200}, // not audited
		{method: http.MethodPut, path: put("action=suspend&user.name=ann"), status: 200, user: "ann", op: "suspend", param: id},
		{method: http.MethodPut, path: put("action=resume&user.name=ann"), status: 200, user: "ann", op: "resume", param: id},
		{method: http.MethodPut, path: put("action=change&value=endtime%3D2030-01-01T00:00Z&user.name=joe"), status: 400,
			code: "E1017", user: "joe", op: "change", param: id + " value=endtime=2030-01-01T00:00Z"},
		{method: http.MethodPut, path: put("action=rerun&user.name=joe"), contentType: "application/xml", body: rerunConf,
			status: 400, code: "E0805", user: "joe", op: "rerun", param: id},
		{method: http.MethodPut, path: put("action=bogus"), status: 400, code: "E0303", op: "bogus", param: id},
		{method: http.MethodPut, path: put("action=kill&user.name=joe"), status: 200, user: "joe", op: "kill", param: id},
	} {
		line := s.run(t, f, id, job.Group, job.AppName)
		if s.method == http.MethodPut {
			want = append(want, line)
		}
	}
	if got := f.workflowJob(t, id).Status; got != store.WorkflowKilled {
		t.Fatalf("job is %s after the commands, want KILLED", got)
	}
	if got := f.auditLog(t, id, ""); got != text(want...) {
		t.Errorf("auditlog:\n%s\nwant:\n%s", got, text(want...))
	}

	// A command on a job that does not exist is recorded, as no job's.
	unknown := strings.Replace(id, "0000000", "0000099", 1)
	f.call(t, http.MethodPut, "/oozie/v1/job/"+unknown+"?action=kill&user.name=joe", "", "")
	recs, err := f.Store.ListAudit(context.Background(), store.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Target != unknown || recs[0].HTTPCode != http.StatusNotFound || recs[0].ErrorCode != "E0604" ||
		recs[0].Status != store.AuditFailed || recs[0].ErrorMessage != "E0604: Job does not exist ["+unknown+"]" {
		t.Errorf("records of no job: %+v", recs)
	}
	r = f.call(t, http.MethodGet, "/oozie/v2/job/"+unknown+"?show=auditlog", "", "")
	checkError(t, r, http.StatusNotFound, "E0604", "E0604: Job does not exist ["+unknown+"]")
}

// TestAuditSubmissions: runs, dry runs and refused submissions are
// recorded; only a created job has a trail.
func TestAuditSubmissions(t *testing.T) {
	t.Parallel()
	f := setup(t)
	conf := f.jobConf(t, appNoOp)
	// Anonymous (no user.name): USER is null, whoever the configuration names.
	r := f.call(t, http.MethodPost, "/oozie/v2/jobs?action=start", "application/xml", conf)
	var out struct{ ID string }
	decode(t, r.body, &out)
	job := f.workflowJob(t, out.ID)
	want := oozieAuditLine(f.Clock.Now(), "", job.Group, job.AppName, out.ID, "run", f.appPath(appNoOp), "SUCCESS", 201, "", "")
	if got := f.auditLog(t, out.ID, ""); got != text(want) {
		t.Errorf("auditlog of a run:\n%s\nwant:\n%s", got, want)
	}
	f.call(t, http.MethodPost, "/oozie/v2/jobs?action=dryrun&user.name=joe", "application/xml", conf)
	refused := f.call(t, http.MethodPost, "/oozie/v2/jobs?user.name=joe", "text/plain", conf)
	recs, err := f.Store.ListAudit(context.Background(), store.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("records of no job: %+v", recs)
	}
	if r := recs[0]; r.Operation != "dryrun" || r.Status != store.AuditSuccess || r.HTTPCode != 201 || r.User != "joe" || r.Target != "" {
		t.Errorf("dry run: %+v", r)
	}
	if r := recs[1]; r.Operation != "submit" || r.Status != store.AuditFailed || r.HTTPCode != refused.status ||
		r.ErrorCode != "E0300" || r.ErrorMessage != refused.header.Get(server.HeaderErrorMessage) {
		t.Errorf("refused submission: %+v", r)
	}
}

// TestAuditBulk: a bulk command leaves one line in the trail of each job it
// was applied to, and a line of no job when it matched none or failed.
func TestAuditBulk(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a, b := f.submit(t, appFS, true), f.submit(t, appFS, true)
	filter := url.QueryEscape("user=joe")
	if r := f.call(t, http.MethodPut, "/oozie/v1/jobs?action=suspend&filter="+filter+"&user.name=admin", "", ""); r.status != 200 {
		t.Fatalf("bulk suspend: %d %s", r.status, r.body)
	}
	for _, id := range []string{a, b} {
		job := f.workflowJob(t, id)
		run := oozieAuditLine(f.Clock.Now(), "", job.Group, job.AppName, id, "run", f.appPath(appFS), "SUCCESS", 201, "", "")
		suspend := oozieAuditLine(f.Clock.Now(), "admin", job.Group, job.AppName, id, "suspend", "filter=user=joe", "SUCCESS", 200, "", "")
		if got := f.auditLog(t, id, ""); got != text(run, suspend) {
			t.Errorf("auditlog of %s:\n%s\nwant:\n%s", id, got, text(run, suspend))
		}
	}
	f.call(t, http.MethodPut, "/oozie/v1/jobs?action=kill&filter="+url.QueryEscape("name=nothing"), "", "")
	f.call(t, http.MethodPut, "/oozie/v1/jobs?action=kill", "", "")
	recs, err := f.Store.ListAudit(context.Background(), store.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[0].Status != store.AuditSuccess || recs[0].Parameter != "filter=name=nothing" ||
		recs[1].Status != store.AuditFailed || recs[1].ErrorCode != "E0305" {
		t.Errorf("records of no job: %+v", recs)
	}
}

// TestAuditCoordinatorAndBundle: a coordinator's trail holds the
// operations on it and on its actions; a bundle's, those on the bundle.
func TestAuditCoordinatorAndBundle(t *testing.T) {
	t.Parallel()
	f := setup(t)
	coord := f.submitCoord(t, f.WriteCoordApp(t, "hourly", jobstest.HourlyCoordApp(f.appPath(appNoOp),
		"2025-01-27T00:00Z", "2025-01-27T03:00Z")))
	f.call(t, http.MethodPut, "/oozie/v2/job/"+coord+"?action=suspend&user.name=joe", "", "")
	action := f.call(t, http.MethodPut, "/oozie/v2/job/"+coord+"@1?action=kill&user.name=joe", "", "")
	log := f.auditLog(t, coord, "")
	lines := strings.Split(strings.TrimSuffix(log, "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "JOBID ["+coord+"], OPERATION [submit]") ||
		!strings.Contains(lines[1], "JOBID ["+coord+"], OPERATION [suspend], PARAMETER ["+coord+"], STATUS [SUCCESS]") ||
		!strings.Contains(lines[2], "JOBID ["+coord+"@1], OPERATION [kill]") ||
		!strings.Contains(lines[2], fmt.Sprintf("HTTPCODE [%d], ERRORCODE [%s]", action.status, action.header.Get(server.HeaderErrorCode))) {
		t.Errorf("coordinator's auditlog:\n%s", log)
	}

	bundle := f.submitBundle(t, f.bundleApp(t, "2025-02-01T00:00Z"))
	f.call(t, http.MethodPut, "/oozie/v2/job/"+bundle+"?action=kill&user.name=joe", "", "")
	log = f.auditLog(t, bundle, "")
	lines = strings.Split(strings.TrimSuffix(log, "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "JOBID ["+bundle+"], OPERATION [submit]") ||
		!strings.Contains(lines[0], "APP [nightly-prod]") ||
		!strings.Contains(lines[1], "JOBID ["+bundle+"], OPERATION [kill], PARAMETER ["+bundle+"], STATUS [SUCCESS]") {
		t.Errorf("bundle's auditlog:\n%s", log)
	}
	r := f.call(t, http.MethodGet, "/oozie/v2/job/"+coord+"@1?show=auditlog", "", "")
	if r.status != http.StatusBadRequest || r.header.Get(server.HeaderErrorCode) != oozieerr.E0303 {
		t.Errorf("auditlog of an action: %d %s", r.status, r.body)
	}
	r = f.call(t, http.MethodGet, "/oozie/v2/job/not-an-id?show=auditlog", "", "")
	checkError(t, r, http.StatusNotFound, "E0604", "E0604: Job does not exist [not-an-id]")
}

// TestAuditLogFilter: show=auditlog takes the logfilter options and the
// timezone of show=log.
func TestAuditLogFilter(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.Clock.Advance(time.Minute)
	// Submitted at Epoch+1m, then one command a minute from Epoch+2m.
	id := f.submit(t, appFS, false)
	for _, action := range []string{"start", "suspend", "resume", "kill"} {
		f.Clock.Advance(time.Minute)
		if r := f.call(t, http.MethodPut, "/oozie/v2/job/"+id+"?action="+action, "", ""); r.status != 200 {
			t.Fatalf("%s: %d %s", action, r.status, r.body)
		}
	}
	f.Clock.Advance(time.Minute) // now: Epoch+6m; the job started at Epoch+2m
	at := func(minutes int, layout string, loc *time.Location) string {
		return url.QueryEscape(jobstest.Epoch.Add(time.Duration(minutes) * time.Minute).In(loc).Format(layout))
	}
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	const logTime = "2006-01-02 15:04:05,000"
	all := []string{"submit", "start", "suspend", "resume", "kill"}
	for _, tc := range []struct {
		name, query string
		want        []string
	}{
		{"no filter", "", all},
		{"text", "&logfilter=" + url.QueryEscape("text=OPERATION [suspend]"), []string{"suspend"}},
		{"limit", "&logfilter=limit%3D2", []string{"submit", "start"}},
		{"text and limit", "&logfilter=" + url.QueryEscape("text=STATUS [SUCCESS];limit=3"), []string{"submit", "start", "suspend"}},
		{"other levels", "&logfilter=loglevel%3DWARN%7CERROR", nil},
		{"levels", "&logfilter=loglevel%3Dwarn%7CINFO", all},
		{"ALL", "&logfilter=loglevel%3DALL", all},
		{"start time", "&logfilter=start%3D" + at(3, logTime, time.UTC), []string{"suspend", "resume", "kill"}},
		{"start time in the request's zone", "&timezone=America/Los_Angeles&logfilter=start%3D" + at(3, logTime, la),
			[]string{"suspend", "resume", "kill"}},
		{"end time", "&logfilter=end%3D" + at(2, logTime, time.UTC), []string{"submit", "start"}},
		{"window", "&logfilter=start%3D" + at(2, logTime, time.UTC) + "%3Bend%3D" + at(4, logTime, time.UTC),
			[]string{"start", "suspend", "resume"}},
		{"start offset from the job's start", "&logfilter=start%3D2m", []string{"resume", "kill"}},
		{"end offset from the job's start", "&logfilter=end%3D1M", []string{"submit", "start", "suspend"}},
		{"recent minutes", "&logfilter=recent%3D2m", []string{"resume", "kill"}},
		{"recent hours", "&logfilter=recent%3D1", all},
		{"recent before an end", "&logfilter=recent%3D1m%3Bend%3D" + at(3, logTime, time.UTC), []string{"start", "suspend"}},
		{"minute date", "&logfilter=start%3D" + at(4, "2006-01-02T15:04Z", time.UTC), []string{"resume", "kill"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := operations(t, f.auditLog(t, id, tc.query))
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("operations %v, want %v", got, tc.want)
			}
		})
	}

	la5 := jobstest.Epoch.Add(5 * time.Minute).In(la).Format(logTime)
	if log := f.auditLog(t, id, "&timezone=America/Los_Angeles&logfilter=text%3Dkill"); !strings.HasPrefix(log, la5+"  INFO") {
		t.Errorf("time not in the request's zone (%s): %s", la5, log)
	}
	log := f.auditLog(t, id, "&logfilter=debug%3Blimit%3D1")
	if lines := strings.Split(strings.TrimSuffix(log, "\n"), "\n"); len(lines) != 2 || !strings.Contains(lines[0], "limit [1]") ||
		!strings.Contains(lines[1], "OPERATION [submit]") {
		t.Errorf("debug:\n%s", log)
	}
	for _, bad := range []string{"bogus=1", "limit=0", "start=yesterday", "loglevel=LOUD", "recent=-1h", "text",
		"start=2025-01-28T00:00Z;end=2025-01-27T00:00Z"} {
		r := f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=auditlog&logfilter="+url.QueryEscape(bad), "", "")
		if r.status != http.StatusBadRequest || r.header.Get(server.HeaderErrorCode) != oozieerr.E0303 ||
			!strings.Contains(r.header.Get(server.HeaderErrorMessage), "[logfilter] = ["+bad+"]") {
			t.Errorf("logfilter %q: %d %s %s", bad, r.status, r.header.Get(server.HeaderErrorCode), r.header.Get(server.HeaderErrorMessage))
		}
	}
}

// operations returns the OPERATION of each line of an audit log.
func operations(t *testing.T, log string) []string {
	t.Helper()
	var ops []string
	for _, line := range strings.Split(strings.TrimSuffix(log, "\n"), "\n") {
		if line == "" {
			continue
		}
		_, rest, ok := strings.Cut(line, "OPERATION [")
		op, _, ok2 := strings.Cut(rest, "]")
		if !ok || !ok2 {
			t.Fatalf("not an audit line: %q", line)
		}
		ops = append(ops, op)
	}
	return ops
}

// TestAuditFailureDoesNotFailCommands: when the audit records cannot be
// stored the commands still work.
func TestAuditFailureDoesNotFailCommands(t *testing.T) {
	t.Parallel()
	faults := &faultyStore{}
	f := setupWith(t, jobstest.Options{WrapStore: faults.wrap})
	id := f.submit(t, appFS, true)
	faults.audit.Store(true)
	if r := f.call(t, http.MethodPut, "/oozie/v2/job/"+id+"?action=kill", "", ""); r.status != http.StatusOK {
		t.Fatalf("kill with the audit store failing: %d %s", r.status, r.body)
	}
	if got := f.workflowJob(t, id).Status; got != store.WorkflowKilled {
		t.Errorf("job is %s, want KILLED", got)
	}
}

// TestAuditRuntimeFailure: a command that fails inside the engine is
// recorded with the 500 E0307 the client got.
func TestAuditRuntimeFailure(t *testing.T) {
	t.Parallel()
	faults := &faultyStore{}
	f := setupWith(t, jobstest.Options{WrapStore: faults.wrap})
	id := f.submit(t, appFS, true)
	faults.actions.Store(true)
	r := f.call(t, http.MethodPut, "/oozie/v2/job/"+id+"?action=kill&user.name=joe", "", "")
	if r.status != http.StatusInternalServerError {
		t.Fatalf("kill with the action store failing: %d %s", r.status, r.body)
	}
	job := f.workflowJob(t, id)
	want := oozieAuditLine(f.Clock.Now(), "joe", job.Group, job.AppName, id, "kill", id, "FAILED", r.status,
		r.header.Get(server.HeaderErrorCode), r.header.Get(server.HeaderErrorMessage))
	lines := strings.Split(f.auditLog(t, id, ""), "\n")
	if len(lines) != 3 || lines[1] != want || r.header.Get(server.HeaderErrorCode) != oozieerr.E0307 {
		t.Errorf("auditlog:\n%s\nwant as its second line:\n%s", strings.Join(lines, "\n"), want)
	}
}

// faultyStore fails, once told to, what a store with a lost table would:
// appending audit records (audit) or reading workflow actions (actions).
type faultyStore struct {
	store.Store
	audit, actions atomic.Bool
}

// wrap is faultyStore for jobstest.Options.WrapStore.
func (s *faultyStore) wrap(st store.Store) store.Store {
	s.Store = st
	return s
}

var errLostTable = errors.New("the table is gone")

func (s *faultyStore) AppendAudit(ctx context.Context, r *store.AuditRecord) error {
	if s.audit.Load() {
		return errLostTable
	}
	return s.Store.AppendAudit(ctx, r)
}

func (s *faultyStore) Tx(ctx context.Context, fn func(store.Tx) error) error {
	return s.Store.Tx(ctx, func(x store.Tx) error { return fn(faultyTx{Tx: x, s: s}) })
}

// faultyTx is one transaction of a faultyStore.
type faultyTx struct {
	store.Tx
	s *faultyStore
}

func (x faultyTx) ListWorkflowActions(ctx context.Context, jobID string) ([]store.WorkflowAction, error) {
	if x.s.actions.Load() {
		return nil, errLostTable
	}
	return x.Tx.ListWorkflowActions(ctx, jobID)
}
