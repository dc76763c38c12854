package jobs

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/auth"
	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/workflow/wfrun"
)

// Job types of proxy submissions, the values of POST jobs?jobtype=.
const (
	ProxyMapReduce = "mapreduce"
	ProxyHive      = "hive"
	ProxyPig       = "pig"
	ProxySqoop     = "sqoop"
)

// Configuration properties of proxy submissions, as Oozie's clients write them.
const (
	// PropProxySubmission marks a proxy submission; the server sets it to "true" in the
	// job's configuration.
	PropProxySubmission = "oozie.proxysubmission"
	// PropResourceManager is the <job-tracker> of the generated action; PropJobTracker and
	// PropJobTracker2, Oozie's older names, are read when it is not set.
	PropResourceManager = "yarn.resourcemanager.address"
	PropJobTracker      = "mapred.job.tracker"
	PropJobTracker2     = "mapreduce.jobtracker.address"
	// PropNameNode is the <name-node> of the generated action, and the filesystem its
	// application is written to; PropNameNode2 is read when it is not set.
	PropNameNode  = "fs.default.name"
	PropNameNode2 = "fs.defaultFS"
	// PropFiles and PropArchives are comma-separated paths that become <file> and
	// <archive> entries.
	PropFiles    = "oozie.files"
	PropArchives = "oozie.archives"
	// PropHiveScript holds a hive job's script text (not a path).
	PropHiveScript = "oozie.hive.script"
	// PropHiveOptions and PropHiveScriptParams are lists (<key>.size, <key>.0, ...): the
	// options of the hive command (-Dname=value ones go to <configuration>, the others
	// to <argument>) and the script's NAME=VALUE parameters (<param>).
	PropHiveOptions      = "oozie.hive.options"
	PropHiveScriptParams = "oozie.hive.script.params"
	// propMapReduceUser is the user property MapReduce reads; the launcher sets it.
	propMapReduceUser = "mapreduce.job.user.name"
)

// ProxyDir is where the application of a proxy submission is written: a new directory
// below it per submission, on the name node of the submission's configuration. "{user}"
// stands for the job's user.
const ProxyDir = "/user/{user}/gozie-sys/proxy"

// proxyAppFile is the generated definition's name in its application directory.
const proxyAppFile = "workflow.xml"

// submitProxy serves POST jobs?jobtype=: Oozie's proxy submission of a bare MapReduce,
// Hive, Pig or Sqoop job. It generates the one-action workflow Oozie would
// (generateProxyApp), writes it (and a hive or pig job's script) into a new application
// directory below ProxyDir, and submits and starts that workflow like any other; the
// answer is 201 {"id":"<job id>"}. action=dryrun only checks the submission and answers
// {"id":"OK"}.
//
// Nothing is left behind by a refused submission: everything that can be checked is
// checked before the directory is written, and the directory is removed again when the
// submission fails after that.
func (a *api) submitProxy(w http.ResponseWriter, r *http.Request, jobType string, dryRun bool) error {
	props, err := readConfiguration(r)
	if err != nil {
		return err
	}
	switch jobType {
	case ProxyMapReduce, ProxyHive, ProxyPig, ProxySqoop:
	default:
		return server.ErrInvalidParamValue(paramJobType, jobType)
	}
	props = props.Trimmed()
	if u := auth.User(r); u != "" {
		props.Set(PropUser, u)
	}
	sub, err := a.checkProxy(r.Context(), jobType, props)
	if err != nil {
		return err
	}
	// The application is written, and the job submitted, as the user.
	ctx := hadoop.AsUser(r.Context(), sub.user)
	app, err := generateProxyApp(jobType, sub.props, sub.rm, sub.nn)
	if err != nil {
		return err
	}
	// The runner checks the definition too, but only once it is written: checking it
	// first means a bad one leaves nothing behind.
	def, err := workflow.Load(app.Definition, workflow.OptionsForJob(a.WorkflowOptions, sub.props))
	if err != nil {
		return err
	}
	if _, err := workflow.ResolveJobConf(def, nil, sub.props); err != nil {
		return err
	}
	if dryRun {
		return server.WriteJSON(w, http.StatusCreated, oozieapi.JobID{ID: dryRunOK})
	}
	dir := a.proxyAppDir(jobType, sub)
	if err := a.writeProxyApp(ctx, dir, app); err != nil {
		return err
	}
	sub.props.Set(PropWorkflowPath, dir)
	id, err := a.Workflows.Submit(ctx, sub.props, wfrun.SubmitOptions{Start: true})
	if err != nil {
		a.removeProxyApp(ctx, dir)
		return fmt.Errorf("submitting proxy %s job: %w", jobType, err)
	}
	a.Logger.Info("proxy job submitted", "job_id", id, "job_type", jobType, "app_path", dir)
	return server.WriteJSON(w, http.StatusCreated, oozieapi.JobID{ID: id})
}

// proxySubmission is a checked proxy submission.
type proxySubmission struct {
	props  *conf.Properties // resolved configuration, oozie.proxysubmission set
	user   string
	rm, nn string
}

// checkProxy checks a proxy submission's configuration as Oozie's server does, in its
// order: user.name (E0401); no coordinator or bundle app path (E0401 for the missing
// workflow app path); the application path Oozie would use, the workflow app path or else
// the first oozie.libpath entry, must be given (E0405) and exist (E0504); then the
// resource manager, the name node and the library path (E0401), and a hive or pig job's
// script or a sqoop job's command (E0401, proxyRequired). ${name} references are resolved first, as for any submission.
func (a *api) checkProxy(ctx context.Context, jobType string, props *conf.Properties) (proxySubmission, error) {
	missing := func(what string) error {
		return server.NewError(http.StatusBadRequest, oozieerr.E0401, "Missing configuration property [%s]", what)
	}
	user := props.Value(PropUser)
	if user == "" {
		return proxySubmission{}, missing(PropUser)
	}
	if user == "." || user == ".." || strings.ContainsAny(user, "/\\:{}") {
		// The user names a directory of ProxyDir.
		return proxySubmission{}, server.ErrInvalidParamValue(PropUser, user)
	}
	ctx = hadoop.AsUser(ctx, user)
	props.Set(PropProxySubmission, "true")
	props, err := conf.Substitute(props, a.SubstituteDepth)
	if err != nil {
		return proxySubmission{}, server.NewError(http.StatusBadRequest, oozieerr.E0307, "%s", err)
	}
	get := func(keys ...string) string {
		for _, k := range keys {
			if v := props.Value(k); v != "" {
				return v
			}
		}
		return ""
	}
	if get(PropCoordinatorPath, PropBundlePath) != "" {
		return proxySubmission{}, missing(PropWorkflowPath)
	}
	lib := strings.TrimSpace(strings.Split(get(PropLibPath), ",")[0])
	appPath := get(PropWorkflowPath)
	if appPath == "" {
		appPath = lib
	}
	if appPath == "" {
		return proxySubmission{}, server.NewError(http.StatusBadRequest, oozieerr.E0405,
			"Submission request does not have any application or lib path")
	}
	if a.FS == nil {
		return proxySubmission{}, errors.New("proxy submissions need the server's filesystem access, which is not configured")
	}
	// A filesystem the server refuses is E0904 before anything is looked at.
	if err := hadoop.CheckScheme(a.FS, appPath); err != nil {
		return proxySubmission{}, err
	}
	if _, err := a.FS.Stat(ctx, appPath); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return proxySubmission{}, server.NewError(http.StatusBadRequest, oozieerr.E0504, "App directory [%s] does not exist", appPath)
		}
		return proxySubmission{}, server.NewError(http.StatusBadRequest, oozieerr.E0803, "IO error, %s", err)
	}
	rm := get(PropResourceManager, PropJobTracker, PropJobTracker2)
	if rm == "" {
		return proxySubmission{}, missing(PropResourceManager + " or " + PropJobTracker)
	}
	nn := get(PropNameNode, PropNameNode2)
	if nn == "" {
		return proxySubmission{}, missing(PropNameNode + " or " + PropNameNode2)
	}
	if scheme, _, ok := strings.Cut(nn, "://"); !ok || scheme == "" {
		// The application is written on the name node: it must be a URI.
		return proxySubmission{}, server.ErrInvalidParamValue(propOf(props, PropNameNode, PropNameNode2), nn)
	}
	if err := hadoop.CheckScheme(a.FS, nn); err != nil {
		return proxySubmission{}, err // the application would be written there
	}
	if lib == "" {
		return proxySubmission{}, missing(PropLibPath)
	}
	if req := proxyRequired[jobType]; req != "" && strings.TrimSpace(props.Value(req)) == "" {
		return proxySubmission{}, missing(req)
	}
	return proxySubmission{props: props, user: user, rm: rm, nn: nn}, nil
}

// propOf returns the first of keys set in props.
func propOf(props *conf.Properties, keys ...string) string {
	for _, k := range keys {
		if props.Value(k) != "" {
			return k
		}
	}
	return keys[0]
}

// proxyAppDir is a new application directory for a submission: below ProxyDir on its
// name node, named by job type, time and a random suffix
// (mapreduce-20250127-091857-k3j9x2ab).
func (a *api) proxyAppDir(jobType string, sub proxySubmission) string {
	root := strings.TrimSuffix(sub.nn, "/")
	base := strings.ReplaceAll(ProxyDir, "{user}", sub.user)
	stamp := a.Clock.Now().UTC().Format("20060102-150405")
	return fmt.Sprintf("%s%s/%s-%s-%s", root, base, jobType, stamp, strings.ToLower(rand.Text()[:8]))
}

// writeProxyApp writes a generated application into dir; on failure it removes what it
// wrote.
func (a *api) writeProxyApp(ctx context.Context, dir string, app proxyApp) error {
	files := []struct {
		name string
		data []byte
	}{{proxyAppFile, app.Definition}}
	if app.Script != "" {
		files = append(files, struct {
			name string
			data []byte
		}{app.ScriptName, []byte(app.Script)})
	}
	if err := a.FS.MkdirAll(ctx, dir, 0o755); err != nil {
		a.removeProxyApp(ctx, dir)
		return fmt.Errorf("writing the proxy application %s: %w", dir, err)
	}
	for _, f := range files {
		// Readable by all: the launcher localizes the script as the job's user.
		if err := a.FS.WriteFile(ctx, dir+"/"+f.name, f.data, 0o644); err != nil {
			a.removeProxyApp(ctx, dir)
			return fmt.Errorf("writing the proxy application %s: %w", dir, err)
		}
	}
	return nil
}

// removeProxyApp removes an application directory of a submission that failed, even when
// the request's context is what ended.
func (a *api) removeProxyApp(ctx context.Context, dir string) {
	if err := a.FS.RemoveAll(context.WithoutCancel(ctx), dir); err != nil {
		a.Logger.Warn("removing the application of a failed proxy submission", "app_path", dir, "error", err)
	}
}
