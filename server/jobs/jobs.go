package jobs

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/gozie/gozie/bundle/bundlerun"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/auth"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/workflow/wfrun"
)

// Deps is what the job endpoints need.
type Deps struct {
	// Store is read directly for job info and listings. Required.
	Store store.Store
	// Workflows runs workflow commands. Required.
	Workflows *wfrun.Runner
	// Coordinators runs coordinator commands and dataset notifications. Without it
	// coordinator requests answer 400 E0302 "not supported".
	Coordinators *coordrun.Runner
	// Bundles runs bundle submissions and commands. Without it bundle requests answer
	// 400 E0302 "not supported".
	Bundles *bundlerun.Runner
	// Clock gives "now" for relative filter times (startcreatedtime=-2d); default the real
	// clock.
	Clock clock.Clock
	// Logger receives warnings; default discards.
	Logger *slog.Logger
	// FS reads application files for workflow dry runs and for validating hdfs:// files.
	// Without it those two requests fail with 500 E0307.
	FS hadoop.FileSystem
	// WorkflowOptions are the engine's workflow settings, used by dry runs to judge a
	// workflow as a submission would.
	WorkflowOptions workflow.Options
	// SLA applies sla-enable, sla-disable and sla-change; without it those
	// commands answer 400 E0302 "not supported".
	SLA SLAControl
	// SubstituteDepth bounds ${x} substitution in dry runs; zero means Oozie's default.
	SubstituteDepth int
	// ActionLogs reaches the YARN cluster of an action for its container logs
	// (show=log of a workflow action, actionlog.go); without it that answer says
	// the logs are not available.
	ActionLogs ActionLogClusters
}

// api holds the registered endpoints' dependencies.
type api struct {
	Deps
	srv *server.Server
}

// Route templates, relative to server.ContextPath.
const (
	jobsPath     = "/v{version:[12]}/jobs"
	jobPath      = "/v{version:[12]}/job/{id}"
	callbackPath = "/callback"
	validatePath = "/v2/validate"
	datasetPath  = "/v2/dataset"
)

// Register adds the job endpoints (see the package documentation) to srv. It fails when a
// required dependency is missing.
func Register(srv *server.Server, d Deps) error {
	if d.Store == nil || d.Workflows == nil {
		return errors.New("jobs: Deps.Store and Deps.Workflows are required")
	}
	if d.Clock == nil {
		d.Clock = clock.Real{}
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	a := &api{Deps: d, srv: srv}
	srv.SetJobLookup(a.jobACL)
	srv.Handle(http.MethodPost, jobsPath, auth.PermSubmit, a.audited(auditSubmit, a.submit))
	srv.Handle(http.MethodGet, jobsPath, auth.PermRead, a.list)
	srv.Handle(http.MethodPut, jobsPath, auth.PermSubmit, a.audited(auditBulk, a.bulk))
	srv.Handle(http.MethodGet, jobPath, auth.PermReadJob, a.get)
	srv.Handle(http.MethodPut, jobPath, auth.PermModifyJob, a.audited(auditCommand, a.put))
	// Launchers call back whatever the system mode, as Oozie's callback servlet allows.
	srv.Handle(http.MethodGet, callbackPath, auth.PermOpen, a.callback, server.AllowInSafeMode())
	srv.Handle(http.MethodPost, callbackPath, auth.PermOpen, a.callback, server.AllowInSafeMode())
	srv.Handle(http.MethodPost, validatePath, auth.PermRead, a.validate)
	srv.Handle(http.MethodPut, datasetPath, auth.PermSubmit, a.notifyDataset)
	return nil
}
