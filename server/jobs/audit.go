package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/auth"
	"github.com/gozie/gozie/store"
)

// The audit trail: every job operation through the REST API leaves one
// record per job it concerns (Oozie's oozieaudit log; GET
// job/<id>?show=auditlog reads it back). Decisions:
//
//   - What is recorded: the changing routes on jobs, POST jobs (submit, run,
//     dryrun), PUT job/<id> (every action) and bulk PUT jobs (one record per
//     job the command was applied to), successful or not. Reads (GET job,
//     GET jobs) are not: pollers and dashboards read a job many times a
//     second, and an audit row per read would make the trail the largest
//     table and put a database write on the read path (the REST bench's 100
//     clients of show=info). Every request, reads included, is in the
//     server's request log.
//   - When: after the handler returns, before the response is finished, as a
//     write of its own outside the command's transaction (store.Audits): a
//     failed command keeps its record, and a client that has its answer can
//     read the record back. A failure to write is logged and never changes
//     the answer.
//   - Who: USER is auth.User (the effective user, after doAs); a proxy user
//     acting for someone is named in PARAMETER ("realUser=..."). IP is the
//     address of the connection, not X-Forwarded-For: that header is
//     whatever the client says, and would let anyone write someone else's
//     address into the trail. Behind a proxy the proxy's address is seen.
//   - Status: SUCCESS for a 2xx answer, FAILED otherwise; HTTPCODE, ERRORCODE
//     and ERRORMESSAGE are what the server sent (201 for a submission, where
//     Oozie's own line says 200).

// auditRoute is what an audited route does.
type auditRoute int

const (
	auditSubmit  auditRoute = iota // POST jobs: one record, of the new job
	auditCommand                   // PUT job/<id>: one record, of the job named
	auditBulk                      // PUT jobs: one record per job commanded
)

// Submission operations, as the CLI names them (Oozie logs the action
// parameter: null, start, dryrun).
const (
	auditOpSubmit = "submit"
	auditOpRun    = "run"
	auditOpDryRun = "dryrun"
)

// auditWriteTimeout bounds the writing of one request's records; the
// request's own cancellation does not stop it (the command has happened).
const auditWriteTimeout = 10 * time.Second

// maxAuditedBody bounds the part of a submission's or bulk command's answer
// kept to read the job ids in it.
const maxAuditedBody = 8 << 20

// audited wraps h, a handler of route, so that every call leaves its audit
// records, panics included (the server turns those into 500 E0307).
func (a *api) audited(route auditRoute, h server.HandlerFunc) server.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		rec := &auditRecorder{ResponseWriter: w, keep: route != auditCommand}
		defer func() {
			if p := recover(); p != nil {
				a.audit(r, route, rec, fmt.Errorf("panic: %v", p))
				panic(p)
			}
		}()
		err := h(rec, r)
		a.audit(r, route, rec, err)
		return err
	}
}

// auditRecorder passes a response on, noting its status and, with keep, its
// body (up to maxAuditedBody).
type auditRecorder struct {
	http.ResponseWriter
	status   int
	wrote    bool
	keep     bool
	overflow bool
	body     bytes.Buffer
}

// WriteHeader notes the first final status.
func (r *auditRecorder) WriteHeader(status int) {
	if !r.wrote && status >= 200 {
		r.status, r.wrote = status, true
	}
	r.ResponseWriter.WriteHeader(status)
}

// Write keeps what the recorder should keep; a body without a header is 200.
func (r *auditRecorder) Write(b []byte) (int, error) {
	if !r.wrote {
		r.status, r.wrote = http.StatusOK, true
	}
	if r.keep && !r.overflow {
		if r.body.Len()+len(b) > maxAuditedBody {
			r.overflow = true
			r.body = bytes.Buffer{}
		} else {
			r.body.Write(b)
		}
	}
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (r *auditRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// auditOutcome is how a request ended, as the client saw it.
type auditOutcome struct {
	status           store.AuditStatus
	httpCode         int
	errCode, errText string
}

// outcomeOf tells how a request ended from what its handler wrote and
// returned.
func outcomeOf(rec *auditRecorder, err error) auditOutcome {
	if err != nil && !rec.wrote {
		// The server sends the error (see sentError).
		status, code, msg := sentError(err)
		return auditOutcome{status: store.AuditFailed, httpCode: status, errCode: code, errText: msg}
	}
	o := auditOutcome{status: store.AuditSuccess, httpCode: http.StatusOK}
	if rec.wrote {
		o.httpCode = rec.status
	}
	o.errCode = rec.Header().Get(server.HeaderErrorCode)
	o.errText = rec.Header().Get(server.HeaderErrorMessage)
	if err != nil { // failed after its answer had begun: the status stands
		_, o.errCode, o.errText = sentError(err)
	}
	if err != nil || o.httpCode >= 300 {
		o.status = store.AuditFailed
	}
	return o
}

// sentError is the status, Oozie code and message the server sends for a
// handler's error (server.ErrorFor, the server's one mapping).
func sentError(err error) (status int, code, msg string) {
	e := server.ErrorFor(err)
	return e.Status, e.Code, e.Msg
}

// audit writes the records of one request.
func (a *api) audit(r *http.Request, route auditRoute, rec *auditRecorder, err error) {
	out := outcomeOf(rec, err)
	q := r.URL.Query()
	base := store.AuditRecord{At: a.Clock.Now(), IP: clientIP(r), User: auth.User(r), Operation: q.Get(paramAction),
		Status: out.status, HTTPCode: out.httpCode, ErrorCode: out.errCode, ErrorMessage: out.errText}
	params := auditParams(r)
	var targets []string
	switch route {
	case auditSubmit:
		base.Operation = submitOperation(q)
		if out.status == store.AuditSuccess && base.Operation != auditOpDryRun {
			targets = idsInAnswer(rec)
		}
	case auditCommand:
		targets = []string{mux.Vars(r)["id"]}
		params = joinNonEmpty(targets[0], params)
	case auditBulk:
		if out.status == store.AuditSuccess {
			targets = idsInAnswer(rec)
		} else if id, ok := bulkFailedJob(err); ok {
			targets = []string{id}
		}
	}
	if len(targets) == 0 {
		targets = []string{""} // still one record, of no job
	}
	recs := make([]store.AuditRecord, len(targets))
	for i, id := range targets {
		recs[i] = base
		recs[i].Target, recs[i].Parameter = id, params
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), auditWriteTimeout)
	defer cancel()
	if err := a.attachJobs(ctx, recs, route == auditSubmit); err != nil {
		a.Logger.Warn("reading the jobs of audit records", "operation", base.Operation, "error", err)
	}
	for i := range recs {
		if err := a.Store.AppendAudit(ctx, &recs[i]); err != nil {
			a.Logger.Warn("writing an audit record", "job_id", recs[i].Target, "operation", base.Operation,
				"status", string(base.Status), "error", err)
		}
	}
}

// submitOperation names a submission by its action parameter.
func submitOperation(q url.Values) string {
	switch action := q.Get(paramAction); action {
	case "":
		return auditOpSubmit
	case submitStart:
		return auditOpRun
	default:
		return action
	}
}

// auditParams is the request's query, as "name=value&..." in name order,
// without what other fields hold (action, user.name, doAs); a proxy user
// acting for another is added as realUser.
func auditParams(r *http.Request) string {
	q := r.URL.Query()
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if k == paramAction || k == auth.ParamUser || k == auth.ParamDoAs {
			continue
		}
		for _, v := range q[k] {
			parts = append(parts, k+"="+v)
		}
	}
	if id, ok := auth.FromContext(r.Context()); ok && id.RealUser != "" && id.RealUser != id.User {
		parts = append(parts, "realUser="+id.RealUser)
	}
	return strings.Join(parts, "&")
}

// joinNonEmpty joins the non-empty strings with a space.
func joinNonEmpty(s ...string) string {
	return strings.Join(slices.DeleteFunc(slices.Clone(s), func(v string) bool { return v == "" }), " ")
}

// clientIP is the host of the connection's remote address.
func clientIP(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// idsInAnswer reads the job ids in a JSON answer the recorder kept: a
// submission's {"id"} or the job list of a bulk command.
func idsInAnswer(rec *auditRecorder) []string {
	if rec.overflow || rec.body.Len() == 0 {
		return nil
	}
	var v struct {
		ID        string `json:"id"`
		Workflows []struct {
			ID string `json:"id"`
		} `json:"workflows"`
		Coordinators []struct {
			ID string `json:"coordJobId"`
		} `json:"coordinatorjobs"`
		Bundles []struct {
			ID string `json:"bundleJobId"`
		} `json:"bundlejobs"`
	}
	if json.Unmarshal(rec.body.Bytes(), &v) != nil {
		return nil
	}
	var ids []string
	if kindOfID(v.ID) != idUnknown {
		ids = append(ids, v.ID)
	}
	for _, j := range v.Workflows {
		ids = append(ids, j.ID)
	}
	for _, j := range v.Coordinators {
		ids = append(ids, j.ID)
	}
	for _, j := range v.Bundles {
		ids = append(ids, j.ID)
	}
	return ids
}

// bulkFailedJob is the job a failed bulk command stopped at: runBulk returns
// an *oozieerr.BulkError naming it.
func bulkFailedJob(err error) (string, bool) {
	var be *oozieerr.BulkError
	if !errors.As(err, &be) {
		return "", false
	}
	return be.JobID, kindOfID(be.JobID) != idUnknown
}

// auditJob is what a record takes from the job it belongs to.
type auditJob struct {
	id, group, app, appPath string
}

// attachJobs fills in each record's job (the job its target names or
// belongs to), group and application; a record whose job does not exist
// stays a record of no job. With submitted, the parameter starts with the
// new job's app path.
func (a *api) attachJobs(ctx context.Context, recs []store.AuditRecord, submitted bool) error {
	return a.Store.View(ctx, func(x store.Tx) error {
		for i := range recs {
			r := &recs[i]
			if r.Target == "" {
				continue
			}
			j, err := auditJobOf(ctx, x, r.Target)
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			r.JobID, r.Group, r.App = j.id, j.group, j.app
			if submitted {
				r.Parameter = joinNonEmpty(j.appPath, r.Parameter)
			}
		}
		return nil
	})
}

// auditJobOf reads the job that target (a job or action id) names or
// belongs to; store.ErrNotFound when there is none.
func auditJobOf(ctx context.Context, x store.Tx, target string) (auditJob, error) {
	id, _, _ := strings.Cut(target, "@")
	switch kindOfID(target) {
	case idWorkflow, idWorkflowAction:
		j, err := x.GetWorkflowJob(ctx, id)
		return auditJob{j.ID, j.Group, j.AppName, j.AppPath}, err
	case idCoordinator, idCoordAction:
		j, err := x.GetCoordJob(ctx, id)
		return auditJob{j.ID, j.Group, j.AppName, j.AppPath}, err
	case idBundle:
		j, err := x.GetBundleJob(ctx, id)
		return auditJob{j.ID, j.Group, j.AppName, j.AppPath}, err
	}
	return auditJob{}, fmt.Errorf("audit target %q: %w", target, store.ErrNotFound)
}
