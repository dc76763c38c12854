package jobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"

	"github.com/gozie/gozie/actions/subwf"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/workflow/wfrun"
)

// A workflow's sub-workflows are submitted only when their actions run, so an action type
// gozie does not run in a child would surface only then (the child's E0723, ending the
// parent's action). checkSubWorkflows finds it at the parent's submission instead, for the
// children it can know then: those whose app-path is static (no EL, or EL that the job's
// configuration alone resolves). A dynamic app-path keeps the old behaviour: the child is
// judged when it is submitted.
const (
	// maxSubWorkflowCheckDepth bounds how many levels of static sub-workflows the check
	// follows (Oozie allows 50 at run time; reading that deep at every submission is not
	// worth it).
	maxSubWorkflowCheckDepth = 8
	// maxSubWorkflowCheckApps bounds the child apps one submission reads.
	maxSubWorkflowCheckApps = 32
	// maxConfigDefaultBytes bounds a config-default.xml the check reads.
	maxConfigDefaultBytes = 1 << 20
)

// staticFuncs are the EL functions whose value at submission is their value when the
// sub-workflow action runs: the basic ones but timestamp(), and the wf: functions that read
// only the job's configuration, user and application path. Any other function (wf:id(),
// wf:actionData(), fs:exists(), ...) makes an app-path dynamic.
var staticFuncs = func() *el.Registry {
	r := el.NewRegistry()
	basic := el.Basic()
	for _, name := range basic.Names() {
		if name != "timestamp" {
			f, _ := basic.Lookup(name)
			r.Register(name, f)
		}
	}
	wf := workflow.Functions()
	for _, name := range []string{"wf:user", "wf:conf", "wf:appPath"} {
		f, _ := wf.Lookup(name)
		r.Register(name, f)
	}
	return r
}()

// staticApp is a workflow app read at submission: its directory, its parsed definition and
// the configuration it would run with.
type staticApp struct {
	dir  string
	app  *workflow.App
	conf *conf.Properties
	user string
}

// eval resolves text as the action's EL would be resolved when it runs, or reports that it
// cannot be known before then.
func (s *staticApp) eval(text string) (string, bool) {
	if !el.Contains(text) {
		return text, true
	}
	env := &el.Env{Funcs: staticFuncs, Vars: workflow.Variables(s.conf),
		Data: &workflow.Context{Job: &store.WorkflowJob{User: s.user, AppPath: s.dir, AppName: s.app.Name}, Conf: s.conf}}
	v, err := env.EvalString(text)
	return v, err == nil
}

// subWorkflowCheck is one submission's walk through its static sub-workflows.
type subWorkflowCheck struct {
	a    *api
	seen map[string]bool // definitions read (or refused), by path
}

// checkSubWorkflows refuses a prepared workflow submission with 400 E0723 when one of
// its sub-workflow actions, followed through static app-paths (recursively, up to
// maxSubWorkflowCheckDepth levels, each app once), reaches an action type gozie does not
// run; the message names the chain of sub-workflow actions, the child's path and the
// type. The submitted app itself is the one the submission read and resolved; whatever
// the check cannot read or resolve of a child is left to that child's own submission.
func (a *api) checkSubWorkflows(ctx context.Context, p *wfrun.Prepared) error {
	if a.FS == nil || len(subWorkflowNodes(p.App())) == 0 {
		return nil
	}
	ctx = hadoop.AsUser(ctx, p.User()) // the apps are read as the submitting user
	parent := &staticApp{dir: p.AppDir(), app: p.App(), conf: p.Conf(), user: p.User()}
	c := &subWorkflowCheck{a: a, seen: map[string]bool{p.DefinitionFile(): true}}
	return c.walk(ctx, parent, nil, 1)
}

// walk checks the static children of parent, which is depth levels below the submitted
// workflow (1 for the submitted one itself); chain describes how parent was reached.
func (c *subWorkflowCheck) walk(ctx context.Context, parent *staticApp, chain []string, depth int) error {
	for _, n := range subWorkflowNodes(parent.app) {
		sw := n.Action.Body.(*workflow.SubWorkflow)
		p, ok := parent.eval(sw.AppPath)
		if !ok || strings.TrimSpace(p) == "" {
			continue // dynamic: judged when the action runs
		}
		childPath := subwf.QualifyAppPath(strings.TrimSpace(p), c.a.WorkflowOptions.DefaultNameNode, parent.dir, parent.user)
		_, file := workflow.AppFiles(childPath)
		if c.seen[file] || len(c.seen) > maxSubWorkflowCheckApps {
			continue
		}
		c.seen[file] = true
		hops := append(chain[:len(chain):len(chain)], fmt.Sprintf("sub-workflow action [%s] runs [%s]", n.Name, childPath))
		def, ok := c.a.readDefinition(ctx, file)
		if !ok {
			continue
		}
		child, err := workflow.Parse(def)
		if err != nil {
			continue // the child's own fault, reported when it is submitted
		}
		if bad := reachableUnsupported(child, c.a.WorkflowOptions); bad != nil {
			return unsupportedInSubWorkflow(hops, bad)
		}
		if depth >= maxSubWorkflowCheckDepth {
			continue
		}
		childConf, ok := parent.childConf(sw, childPath)
		if !ok {
			continue
		}
		next, ok := c.a.resolveApp(ctx, childPath, child, childConf, parent.user)
		if !ok {
			continue
		}
		if err := c.walk(ctx, next, hops, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// subWorkflowNodes returns the sub-workflow actions of app that a run can reach, in
// document order.
func subWorkflowNodes(app *workflow.App) []*workflow.Node {
	unreachable := map[string]bool{}
	for _, name := range app.Unreachable() {
		unreachable[name] = true
	}
	var out []*workflow.Node
	for _, n := range app.Nodes {
		if n.Kind != workflow.KindAction || unreachable[n.Name] {
			continue
		}
		if _, ok := n.Action.Body.(*workflow.SubWorkflow); ok {
			out = append(out, n)
		}
	}
	return out
}

// reachableUnsupported returns the E0723 error of the first action of app that a run can
// reach and gozie does not run, or nil: what the child's own submission would refuse.
func reachableUnsupported(app *workflow.App, opts workflow.Options) *workflow.Error {
	unreachable := map[string]bool{}
	for _, name := range app.Unreachable() {
		unreachable[name] = true
	}
	for _, e := range app.UnsupportedActions(opts) {
		if !unreachable[e.Node] {
			return e
		}
	}
	return nil
}

// unsupportedInSubWorkflow is the refusal of a submission whose sub-workflow chain hops
// reaches the unsupported action of bad.
func unsupportedInSubWorkflow(hops []string, bad *workflow.Error) error {
	where := strings.Join(hops, ", whose ")
	msg := strings.ToUpper(where[:1]) + where[1:] + ", where: " + bad.Msg
	if bad.Line > 0 {
		msg += fmt.Sprintf(" (line %d)", bad.Line)
	}
	return server.NewError(http.StatusBadRequest, oozieerr.E0723, "%s", msg)
}

// childConf is the configuration a sub-workflow action gives its child, as the
// sub-workflow executor builds it: the parent's configuration when it propagates it, the
// action's <configuration>, the child's app path and the user. It reports false when a
// value depends on the run.
func (s *staticApp) childConf(sw *workflow.SubWorkflow, childPath string) (*conf.Properties, bool) {
	out := &conf.Properties{}
	if sw.PropagateConfiguration {
		out = s.conf.Plain()
	}
	for _, p := range sw.Configuration {
		name, ok := s.eval(p.Name)
		if !ok {
			return nil, false
		}
		value, ok := s.eval(p.Value)
		if !ok {
			return nil, false
		}
		out.Set(strings.TrimSpace(name), value)
	}
	out.Set(PropWorkflowPath, childPath)
	out.Set(PropUser, s.user)
	return out, true
}

// resolveApp reads the config-default.xml beside app and returns app with the
// configuration it would run with under jobConf.
func (a *api) resolveApp(ctx context.Context, appPath string, app *workflow.App, jobConf *conf.Properties, user string) (*staticApp, bool) {
	dir, _ := workflow.AppFiles(appPath)
	var defaults *conf.Properties
	raw, err := a.readFile(ctx, dir+"/"+workflow.ConfigDefaultFile, maxConfigDefaultBytes)
	switch {
	case err == nil:
		p, err := conf.ReadConfigurationXML(bytes.NewReader(raw), dir+"/"+workflow.ConfigDefaultFile)
		if err != nil {
			return nil, false
		}
		defaults = p.Plain()
	case !errors.Is(err, fs.ErrNotExist):
		return nil, false
	}
	merged, err := workflow.ResolveJobConf(app, defaults, jobConf)
	if err != nil {
		return nil, false
	}
	return &staticApp{dir: dir, app: app, conf: merged, user: user}, true
}

// readDefinition reads a workflow definition, reporting false when it cannot (a filesystem
// the server refuses, a missing or unreadable file, one longer than the server takes).
func (a *api) readDefinition(ctx context.Context, file string) ([]byte, bool) {
	limit := a.WorkflowOptions.MaxDefinitionLength
	if limit <= 0 {
		limit = workflow.DefaultMaxDefinitionLength
	}
	def, err := a.readFile(ctx, file, limit)
	return def, err == nil
}

// readFile reads at most limit bytes of a file the caller may name; a longer file is an
// error.
func (a *api) readFile(ctx context.Context, path string, limit int) ([]byte, error) {
	if err := hadoop.CheckScheme(a.FS, path); err != nil {
		return nil, err
	}
	f, err := a.FS.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(data) > limit {
		return nil, fmt.Errorf("%s is longer than %d bytes", path, limit)
	}
	return data, nil
}
