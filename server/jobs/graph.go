package jobs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/workflow/graph"
)

// show=graph and its parameters, as Oozie names them.
const (
	showGraph     = "graph"
	paramFormat   = "format"
	paramShowKill = "show-kill"
)

// graphFormats maps the format parameter to a renderer and the content type it is sent with;
// Oozie's default format is png.
var graphFormats = map[string]struct {
	contentType string
	render      func(io.Writer, *graph.Graph) error
}{
	"png": {"image/png", graph.PNG},
	"svg": {"image/svg+xml", graph.SVG},
	"dot": {textContentType, graph.DOT},
}

// getGraph serves GET job/<workflow id>?show=graph[&format=png|svg|dot][&show-kill=true|false]:
// the workflow's graph with the nodes coloured by the statuses of the job's actions and the
// transitions the run took drawn thick and dark (see package workflow/graph). Kill nodes follow
// show-kill: true draws every kill node and every transition into one, false (Oozie's default,
// kept when a client asks for it) none; without the parameter the graph draws the kill nodes the
// run reached and the transitions into them it took, so a failed run shows where it ended. The
// SVG is self-contained, for pages that embed it inline: see graph.SVG for its markup. Only
// workflow jobs have a graph: other ids are 400 E0302, an unknown format or a show-kill other
// than true or false 400 E0303.
func (a *api) getGraph(w http.ResponseWriter, r *http.Request, id string) error {
	q := r.URL.Query()
	format := strings.ToLower(q.Get(paramFormat))
	if format == "" {
		format = "png"
	}
	out, ok := graphFormats[format]
	if !ok {
		return server.ErrInvalidParamValue(paramFormat, q.Get(paramFormat))
	}
	kill := graph.KillReached
	switch v := q.Get(paramShowKill); strings.ToLower(v) {
	case "":
	case "false":
		kill = graph.KillNone
	case "true":
		kill = graph.KillAll
	default:
		return server.ErrInvalidParamValue(paramShowKill, v)
	}
	switch kindOfID(id) {
	case idWorkflow:
	case idUnknown:
		return errJobNotFound(id)
	case idWorkflowAction, idCoordinator, idCoordAction, idBundle:
		return server.ErrInvalidParam("show=graph is only for workflow jobs")
	}

	var (
		job  store.WorkflowJob
		acts []store.WorkflowAction
	)
	err := a.Store.View(r.Context(), func(x store.Tx) error {
		var err error
		if job, err = x.GetWorkflowJob(r.Context(), id); err != nil {
			return err
		}
		acts, err = x.ListWorkflowActions(r.Context(), id)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return errJobNotFound(id)
	}
	if err != nil {
		return fmt.Errorf("reading workflow job %s: %w", id, err)
	}
	// The engine reloads a job's definition the same way on every event; the fork/join
	// rules do not matter to a drawing.
	opts := a.WorkflowOptions
	opts.SkipForkJoinValidation = true
	app, err := workflow.Load([]byte(job.Definition), opts)
	if err != nil {
		return fmt.Errorf("reading the definition of workflow job %s: %w", id, err)
	}
	g, err := graph.Layout(app, acts, graph.Options{Kill: kill,
		Title: fmt.Sprintf("%s  %s  %s", job.AppName, job.ID, job.Status)})
	if err != nil {
		return fmt.Errorf("drawing workflow job %s: %w", id, err)
	}
	// Render first, so that a failure is still an error response.
	var buf bytes.Buffer
	if err := out.render(&buf, g); err != nil {
		return fmt.Errorf("drawing workflow job %s: %w", id, err)
	}
	w.Header().Set("Content-Type", out.contentType)
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("writing the graph of workflow job %s: %w", id, err)
	}
	return nil
}
