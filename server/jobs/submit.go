package jobs

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/auth"
	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/workflow/wfrun"
)

// Job configuration properties that choose what is submitted.
const (
	PropWorkflowPath    = "oozie.wf.application.path"
	PropCoordinatorPath = "oozie.coord.application.path"
	PropBundlePath      = "oozie.bundle.application.path"
	PropLibPath         = "oozie.libpath"
	PropUser            = "user.name"
	// PropExternalID is the caller's own id of a workflow submission, stored as the job's
	// external id (GET jobs?external-id= finds the job by it).
	PropExternalID = "oozie.wf.external.id"
)

// Values of the action parameter of POST jobs.
const (
	submitStart  = "start"
	submitDryRun = "dryrun"
)

// dryRunOK is the id a workflow dry run answers.
const dryRunOK = "OK"

// submit serves POST jobs: it reads the XML job configuration, picks the job type by the
// app-path property that is set, and submits (action=start also starts the job; dryrun only
// checks it). The answer is 201 {"id":"<job id>"}.
func (a *api) submit(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	action := q.Get(paramAction)
	if q.Has(paramAction) && action != submitStart && action != submitDryRun {
		return server.ErrInvalidParamValue(paramAction, action)
	}
	if q.Has(paramJobType) {
		// Oozie's proxy submissions of bare MapReduce, Pig, Hive and Sqoop jobs
		// (proxysubmit.go); they always start.
		return a.submitProxy(w, r, q.Get(paramJobType), action == submitDryRun)
	}
	props, err := readConfiguration(r)
	if err != nil {
		return err
	}
	props = props.Trimmed()
	if u := auth.User(r); u != "" {
		// The authenticated user (after doAs) is who submits, whatever the configuration
		// says, as in Oozie; an anonymous request keeps the configuration's user.name.
		props.Set(PropUser, u)
	}
	if v, _ := props.Get(PropUser); v == "" {
		return server.NewError(http.StatusBadRequest, oozieerr.E0401, "Missing configuration property [%s]", PropUser)
	}
	kind, err := appKind(props)
	if err != nil {
		return err
	}
	if err := checkAppPath(props, kind, a.SubstituteDepth); err != nil {
		return err
	}
	switch kind {
	case TypeCoordinator:
		return a.submitCoordinator(r.Context(), w, props, action == submitDryRun)
	case TypeBundle:
		return a.submitBundle(r.Context(), w, props, action == submitDryRun)
	}
	opts := wfrun.SubmitOptions{Start: action == submitStart}
	if action != submitDryRun {
		opts.ExternalID, _ = props.Get(PropExternalID)
	}
	p, err := a.Workflows.Prepare(r.Context(), props, opts)
	if err != nil {
		return fmt.Errorf("submitting workflow job: %w", err)
	}
	if err := a.checkSubWorkflows(r.Context(), p); err != nil {
		return err
	}
	id := dryRunOK
	if action != submitDryRun {
		if id, err = a.Workflows.SubmitPrepared(r.Context(), p); err != nil {
			return fmt.Errorf("submitting workflow job: %w", err)
		}
	}
	return server.WriteJSON(w, http.StatusCreated, oozieapi.JobID{ID: id})
}

// appKind tells which kind of job a configuration submits: exactly one of the workflow,
// coordinator and bundle app paths must be set (400 E0302 otherwise). Without any, the first
// entry of oozie.libpath becomes the workflow app path, as in Oozie; with no libpath either,
// the answer is 400 E0405.
func appKind(props *conf.Properties) (JobType, error) {
	set := func(k string) bool { v, _ := props.Get(k); return v != "" }
	n := 0
	kind := TypeWorkflow
	for _, c := range []struct {
		prop string
		kind JobType
	}{{PropBundlePath, TypeBundle}, {PropCoordinatorPath, TypeCoordinator}, {PropWorkflowPath, TypeWorkflow}} {
		if set(c.prop) {
			n++
			kind = c.kind
		}
	}
	switch {
	case n > 1:
		return "", server.ErrInvalidParam("Multiple app paths specified, only one is allowed")
	case n == 1:
		return kind, nil
	}
	lib, _ := props.Get(PropLibPath)
	first := strings.TrimSpace(strings.Split(lib, ",")[0])
	if first == "" {
		return "", server.NewError(http.StatusBadRequest, oozieerr.E0405,
			"Submission request does not have any application or lib path")
	}
	props.Set(PropWorkflowPath, first)
	return TypeWorkflow, nil
}
