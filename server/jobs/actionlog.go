package jobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/yarn"
)

// Bounds of an action log answer.
const (
	// ActionLogFileCap is how much of each container log file is shown:
	// its last MiB.
	ActionLogFileCap = 1 << 20
	// actionLogTimeout bounds the YARN requests of one answer.
	actionLogTimeout = 60 * time.Second
)

// actionLogFiles are the container log files shown, in this order, when
// the container has them: what the launcher's command wrote and YARN's
// syslog.
var actionLogFiles = []string{"stdout", "stderr", "syslog"}

// ActionLogCluster is the YARN cluster an action ran on, as the action
// log endpoint reaches it: the RM client (with the server's YARN
// authentication, acting for the job's user) and the log server
// (yarn.log.server.web-service.url, "" when the cluster names none).
type ActionLogCluster struct {
	YARN      *yarn.Client
	LogServer string
}

// ActionLogClusters finds the cluster of an action from its resource
// manager (the action's tracker URI, "" for the default cluster).
type ActionLogClusters func(resourceManager string) (ActionLogCluster, error)

// getActionLog serves GET job/<workflow action id>?show=log: the
// container logs of the action's launcher application and of its child
// applications, as text (see writeActionLog). An action that does not
// exist is 404 E0605.
func (a *api) getActionLog(w http.ResponseWriter, r *http.Request, id string) error {
	var (
		act store.WorkflowAction
		job store.WorkflowJob
	)
	err := a.Store.View(r.Context(), func(x store.Tx) error {
		var err error
		if act, err = x.GetWorkflowAction(r.Context(), id); err != nil {
			return err
		}
		job, err = x.GetWorkflowJob(r.Context(), act.JobID)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return errActionNotFound(id)
	}
	if err != nil {
		return fmt.Errorf("reading workflow action %s: %w", id, err)
	}
	w.Header().Set("Content-Type", textContentType)
	w.WriteHeader(http.StatusOK)
	ctx, cancel := context.WithTimeout(hadoop.AsUser(r.Context(), job.User), actionLogTimeout)
	defer cancel()
	return a.writeActionLog(ctx, w, &act)
}

// writeActionLog writes the action log: a line naming the action, then,
// for each YARN application of the action (the external id, then the
// child ids), each attempt's container with its stdout, stderr and
// syslog. A failure to reach YARN is written as a line, not an error:
// the answer has begun.
func (a *api) writeActionLog(ctx context.Context, w io.Writer, act *store.WorkflowAction) error {
	p := &logPrinter{w: w}
	p.line("Action %s  type=%s  status=%s  external id=%s", act.ID, act.Type, act.Status, orDash(act.ExternalID))
	apps, others := actionApps(act)
	if len(apps) == 0 {
		switch {
		case act.ExternalID == "" || act.ExternalID == "-":
			p.line("No YARN application: the action has not launched one (it has not started, or it runs in the server).")
		default:
			p.line("No YARN application: the external id %s is not one.", act.ExternalID)
		}
		return p.err
	}
	if len(apps) > 1 {
		p.line("Child applications: %s", joinIDs(apps[1:]))
	}
	if len(others) > 0 {
		p.line("Other external ids (not YARN applications): %s", strings.Join(others, ", "))
	}
	if a.ActionLogs == nil {
		p.line("Container logs are not available: the server has no YARN cluster configured.")
		return p.err
	}
	cl, err := a.ActionLogs(act.TrackerURI)
	if err != nil {
		p.line("Container logs are not available: %v", err)
		return p.err
	}
	for _, app := range apps {
		writeAppLogs(ctx, p, cl, app)
	}
	return p.err
}

// actionApps are the YARN applications of an action, the external id
// first, without repeats; others are the child ids that name no YARN
// application.
func actionApps(act *store.WorkflowAction) (apps []yarn.ApplicationID, others []string) {
	ids := append([]string{act.ExternalID}, strings.Split(act.ExternalChildIDs, ",")...)
	for i, s := range ids {
		s = strings.TrimSpace(s)
		if s == "" || s == "-" {
			continue
		}
		id, err := yarn.ParseApplicationID(strings.Replace(s, "job_", "application_", 1))
		switch {
		case err != nil:
			if i > 0 {
				others = append(others, s)
			}
		case !slices.Contains(apps, id):
			apps = append(apps, id)
		}
	}
	return apps, others
}

// writeAppLogs writes the logs of every attempt of one application.
func writeAppLogs(ctx context.Context, p *logPrinter, cl ActionLogCluster, app yarn.ApplicationID) {
	attempts, err := cl.YARN.Attempts(ctx, app)
	if err != nil {
		p.line("")
		p.line("==> Application %s: %v", app, err)
		return
	}
	if len(attempts) == 0 {
		p.line("")
		p.line("==> Application %s: no attempt has started", app)
		return
	}
	for _, at := range attempts {
		writeContainerLogs(ctx, p, cl, app, at)
	}
}

// writeContainerLogs writes the logs of one attempt's AM container.
func writeContainerLogs(ctx context.Context, p *logPrinter, cl ActionLogCluster, app yarn.ApplicationID, at yarn.AppAttempt) {
	p.line("")
	p.line("==> Application %s  attempt %s  container %s  node %s", app, orDash(at.AppAttemptID), orDash(at.ContainerID), orDash(at.NodeHTTPAddress))
	cid, err := yarn.ParseContainerID(at.ContainerID)
	if err != nil {
		p.line("No container: %v", err)
		return
	}
	place := yarn.LogPlace{Node: at.NodeHTTPAddress, LogServer: cl.LogServer}
	infos, err := cl.YARN.ContainerLogs(ctx, place, cid)
	if err != nil {
		p.line("Logs not available: %v", err)
		return
	}
	files, kind := logFileNames(infos)
	if kind != "" {
		p.line("Logs: %s", kind)
	}
	shown := 0
	for _, name := range actionLogFiles {
		if !files[name] {
			continue
		}
		shown++
		lf, err := cl.YARN.ContainerLogFile(ctx, place, cid, name, -ActionLogFileCap)
		if err != nil {
			p.line("--- %s: %v", name, err)
			continue
		}
		writeLogFile(p, name, lf)
	}
	if shown == 0 {
		p.line("(no stdout, stderr or syslog)")
	}
	var rest []string
	for name := range files {
		if !slices.Contains(actionLogFiles, name) {
			rest = append(rest, name)
		}
	}
	if len(rest) > 0 {
		slices.Sort(rest)
		p.line("Other log files: %s", strings.Join(rest, ", "))
	}
}

// logFileNames gathers the file names of a listing and says where they
// are (local on the NodeManager, or aggregated).
func logFileNames(infos []yarn.ContainerLogsInfo) (map[string]bool, string) {
	files := map[string]bool{}
	var kinds []string
	for _, in := range infos {
		if len(in.Files) == 0 {
			continue
		}
		switch in.AggregationType {
		case yarn.LogsLocal:
			kinds = append(kinds, "local, on the NodeManager")
		case yarn.LogsAggregated:
			kinds = append(kinds, "aggregated")
		}
		for _, f := range in.Files {
			files[f.FileName] = true
		}
	}
	return files, strings.Join(kinds, "; ")
}

// writeLogFile writes one file under a header with its size, saying when
// only its end is shown.
func writeLogFile(p *logPrinter, name string, lf yarn.ContainerLog) {
	switch {
	case lf.Truncated():
		p.line("--- %s (last %d of %d bytes) ---", name, len(lf.Data), lf.Length)
	default:
		p.line("--- %s (%d bytes) ---", name, len(lf.Data))
	}
	p.write(lf.Data)
	if len(lf.Data) > 0 && lf.Data[len(lf.Data)-1] != '\n' {
		p.write([]byte("\n"))
	}
}

// logPrinter writes lines, keeping the first write error.
type logPrinter struct {
	w   io.Writer
	err error
}

func (p *logPrinter) line(format string, args ...any) {
	p.write([]byte(fmt.Sprintf(format, args...) + "\n"))
}

func (p *logPrinter) write(b []byte) {
	if p.err != nil {
		return
	}
	if _, err := p.w.Write(b); err != nil {
		p.err = fmt.Errorf("writing the action log: %w", err)
	}
}

func joinIDs(ids []yarn.ApplicationID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = id.String()
	}
	return strings.Join(s, ", ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
