package wfrun

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"strconv"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// Job configuration properties the runner reads.
const (
	PropAppPath  = "oozie.wf.application.path"
	PropUser     = "user.name"
	PropACL      = "oozie.job.acl"
	PropGroup    = "group.name"
	PropParentID = "oozie.wf.parent.id"
)

// SubmitOptions are the choices of one submission.
type SubmitOptions struct {
	// Start starts the job in the same transaction as its creation.
	Start bool
	// ParentID is the coordinator action or workflow that submits this job.
	ParentID string
	// ExternalID is stored as the job's external id: a sub-workflow's
	// parent records its action run's key there (Oozie's recovery id), so
	// that a repeated submission finds the child (and the child's end
	// reaches the parent's action, see ParentActionOf).
	ExternalID string
}

// Submit creates a workflow job from a job configuration: it reads the app
// (workflow.xml and config-default.xml) from the app path, validates it,
// resolves the configuration, and stores the job in PREP (or RUNNING when
// opts.Start is set). Nothing is stored when any of that fails.
func (r *Runner) Submit(ctx context.Context, props *conf.Properties, opts SubmitOptions) (string, error) {
	p, err := r.Prepare(ctx, props, opts)
	if err != nil {
		return "", err
	}
	return r.SubmitPrepared(ctx, p)
}

// SubmitPrepared stores a prepared submission in a transaction of its own
// and returns the job's id: the end of Submit, for callers that look at
// the prepared app first.
func (r *Runner) SubmitPrepared(ctx context.Context, p *Prepared) (string, error) {
	if err := r.cfg.Store.Tx(ctx, func(x store.Tx) error { return p.Insert(ctx, x) }); err != nil {
		return "", err
	}
	r.log.Info("workflow job submitted", "job_id", p.job.ID, "app_name", p.job.AppName, "user", p.job.User, "started", p.start)
	return p.job.ID, nil
}

// Prepared is a validated submission, ready to be stored.
type Prepared struct {
	r     *Runner
	job   store.WorkflowJob
	start bool
	memo  *fsMemo // the filesystem answers of the start's decisions
	app   *workflow.App
	conf  *conf.Properties // the job's configuration, resolved
	file  string           // the definition file read
}

// ID returns the job id the submission will have.
func (p *Prepared) ID() string { return p.job.ID }

// App returns the parsed workflow application.
func (p *Prepared) App() *workflow.App { return p.app }

// Conf returns the job's resolved configuration (the submitted one over the
// app's defaults); the caller must not change it.
func (p *Prepared) Conf() *conf.Properties { return p.conf }

// DefinitionFile returns the path of the definition the submission read.
func (p *Prepared) DefinitionFile() string { return p.file }

// AppDir returns the application's directory.
func (p *Prepared) AppDir() string { return p.job.AppPath }

// User returns the submitting user.
func (p *Prepared) User() string { return p.job.User }

// Prepare does everything of Submit but storing: the reads of the app and
// the validation. Callers that create a workflow as part of their own
// transaction (a coordinator action) then call Insert in it.
func (r *Runner) Prepare(ctx context.Context, props *conf.Properties, opts SubmitOptions) (*Prepared, error) {
	props = props.Trimmed()
	user, _ := props.Get(PropUser)
	if user == "" {
		return nil, oozieerr.New(oozieerr.E0401, "Missing configuration property [%s]", PropUser)
	}
	props, err := conf.Substitute(props, r.cfg.SubstituteDepth)
	if err != nil {
		return nil, &Error{Code: oozieerr.E0307, Msg: err.Error(), Err: err}
	}
	appPath, _ := props.Get(PropAppPath)
	if appPath == "" {
		return nil, oozieerr.New(oozieerr.E0302, "Invalid parameter [%s]", PropAppPath)
	}
	// The app is read as the submitting user.
	dir, def, defaults, err := r.readApp(hadoop.AsUser(ctx, user), appPath)
	if err != nil {
		return nil, err
	}
	app, err := workflow.Load(def, workflow.OptionsForJob(r.cfg.Options, props))
	if err != nil {
		return nil, err
	}
	merged, err := workflow.ResolveJobConf(app, defaults, props)
	if err != nil {
		return nil, err
	}
	confXML, err := configurationXML(merged, props)
	if err != nil {
		return nil, err
	}
	parent := opts.ParentID
	if parent == "" {
		parent = merged.Value(PropParentID)
	}
	group := merged.Value(PropACL)
	if group == "" {
		group = merged.Value(PropGroup)
	}
	now := r.now()
	_, file := workflow.AppFiles(appPath)
	p := &Prepared{r: r, start: opts.Start, app: app, conf: merged, file: file, job: store.WorkflowJob{
		ID: r.cfg.IDs.Next(ids.Workflow), AppName: app.Name, AppPath: dir, User: user, Group: group,
		Status: store.WorkflowPrep, ParentID: parent, ExternalID: opts.ExternalID, Conf: confXML, Definition: string(def),
		CreatedTime: now, LastModified: now,
	}}
	if p.start && usesFSFunctions(p.job.Definition) {
		// The start's decisions ask the filesystem here, not in Insert's
		// transaction (see prefetch).
		p.memo, _ = r.prefetchRows(ctx, p.job, nil, workflow.Event{Kind: workflow.EventStart}).Value(fsMemoKey{}).(*fsMemo)
	}
	return p, nil
}

// Insert stores the prepared job in x, started if the submission asked.
func (p *Prepared) Insert(ctx context.Context, x store.Tx) error {
	job := p.job
	if err := x.InsertWorkflowJob(ctx, &job); err != nil {
		return err
	}
	if err := p.r.changed(ctx, x, &job, true, true, nil); err != nil {
		return err
	}
	if !p.start {
		return nil
	}
	if p.memo != nil {
		ctx = context.WithValue(ctx, fsMemoKey{}, p.memo)
	}
	st, err := p.r.decide(ctx, x, job.ID, workflow.Event{Kind: workflow.EventStart})
	if err != nil {
		return err
	}
	return p.r.apply(ctx, x, st, "")
}

// readApp reads the workflow definition and config-default.xml of an app
// path (a directory, or a .xml file in one).
func (r *Runner) readApp(ctx context.Context, appPath string) (dir string, def []byte, defaults *conf.Properties, err error) {
	dir, file := workflow.AppFiles(appPath)
	// A filesystem the server refuses is E0904 before anything is looked at,
	// so that the answer says nothing about what is there.
	if err := hadoop.CheckScheme(r.cfg.FS, appPath); err != nil {
		return "", nil, nil, err
	}
	def, err = r.cfg.FS.ReadFile(ctx, file)
	if errors.Is(err, fs.ErrNotExist) {
		// Which is missing, the directory or the definition in it, is
		// looked at only now: a submission that reads its app pays no stat.
		if _, err := r.cfg.FS.Stat(ctx, dir); errors.Is(err, fs.ErrNotExist) {
			return "", nil, nil, oozieerr.New(oozieerr.E0504, "App directory [%s] does not exist", dir)
		} else if err != nil {
			return "", nil, nil, appIOError(err)
		}
		return "", nil, nil, oozieerr.New(oozieerr.E0505, "App definition [%s] does not exist", file)
	}
	if err != nil {
		return "", nil, nil, appIOError(err)
	}
	defaultsFile := dir + "/" + workflow.ConfigDefaultFile
	raw, err := r.cfg.FS.ReadFile(ctx, defaultsFile)
	switch {
	case err == nil:
		p, perr := conf.ReadConfigurationXML(bytes.NewReader(raw), defaultsFile)
		if perr != nil {
			return "", nil, nil, &Error{Code: oozieerr.E0701, Msg: perr.Error(), Err: perr}
		}
		defaults = p.Plain()
	case errors.Is(err, fs.ErrNotExist):
	default:
		return "", nil, nil, appIOError(err)
	}
	return dir, def, defaults, nil
}

// appIOError is the error of a filesystem failure reading an app: E0902 for
// a scheme gozie has no filesystem for, as Oozie's HadoopAccessorService
// reports it (not retried by a parent's sub-workflow action), E0710 for a
// refusal, which is not retried either, and E0803, retried, otherwise.
func appIOError(err error) *Error {
	var nf *hadoop.NoFileSystemError
	if errors.As(err, &nf) {
		return &Error{Code: oozieerr.Code(nf.ErrorCode()), Msg: nf.Message(), Err: err}
	}
	if errors.Is(err, fs.ErrPermission) {
		// Refused (the user may not read it; the NameNode refuses the
		// server's authentication): retrying cannot help, as Oozie's
		// WorkflowAppService.readDefinition gives up.
		return &Error{Code: oozieerr.E0710, Msg: "Could not read the workflow definition, " + err.Error(), Err: err}
	}
	return &Error{Code: oozieerr.E0803, Msg: "IO error, " + err.Error(), Err: err}
}

// configurationXML writes merged in the order of the submitted properties,
// then the keys that came from defaults and parameters.
func configurationXML(merged, submitted *conf.Properties) (string, error) {
	out := &conf.Properties{}
	for _, k := range submitted.Keys() {
		if v, ok := merged.Get(k); ok {
			out.Set(k, v)
		}
	}
	for _, k := range merged.Sorted().Keys() {
		if _, seen := out.Get(k); !seen {
			out.Set(k, merged.Value(k))
		}
	}
	var b bytes.Buffer
	if err := conf.WriteConfigurationXML(&b, out); err != nil {
		return "", err
	}
	return b.String(), nil
}

// Start starts a PREP job. Starting a job in another state does nothing,
// as in Oozie.
func (r *Runner) Start(ctx context.Context, id string) error {
	return r.event(ctx, id, workflow.Event{Kind: workflow.EventStart})
}

// Kill kills a job and the external work of its running actions.
func (r *Runner) Kill(ctx context.Context, id string) error {
	return r.event(ctx, id, workflow.Event{Kind: workflow.EventKill})
}

// Suspend suspends a RUNNING job: running actions go on, nothing new starts.
// The running sub-workflows of the job are suspended with it, in the same
// transaction, as Oozie's SuspendXCommand does.
func (r *Runner) Suspend(ctx context.Context, id string) error {
	return r.event(ctx, id, workflow.Event{Kind: workflow.EventSuspend})
}

// Resume resumes a SUSPENDED job and, in the same transaction, its
// suspended sub-workflows.
func (r *Runner) Resume(ctx context.Context, id string) error {
	return r.event(ctx, id, workflow.Event{Kind: workflow.EventResume})
}

// Rerun reruns a finished job with props merged over its configuration
// (props win), skipping the nodes oozie.wf.rerun.skip.nodes names or, with
// oozie.wf.rerun.failnodes=true, every node that ended OK. The definition
// is read again from the app path, so a fixed app can be rerun.
func (r *Runner) Rerun(ctx context.Context, id string, props *conf.Properties) error {
	props = props.Trimmed()
	return r.retryConflicts(ctx, func() error {
		return r.cfg.Store.Tx(ctx, func(x store.Tx) error {
			job, err := x.GetWorkflowJob(ctx, id)
			if errors.Is(err, store.ErrNotFound) {
				return oozieerr.New(oozieerr.E0604, "Job does not exist [%s]", id)
			}
			if err != nil {
				return err
			}
			old, err := conf.ReadConfigurationXML(strings.NewReader(job.Conf), "job "+id+" configuration")
			if err != nil {
				return err
			}
			old.Merge(props)
			merged, err := conf.Substitute(old, r.cfg.SubstituteDepth)
			if err != nil {
				return &Error{Code: oozieerr.E0307, Msg: err.Error(), Err: err}
			}
			skip, failNodes, err := workflow.RerunOptions(merged)
			if err != nil {
				return err
			}
			appPath, _ := merged.Get(PropAppPath)
			if appPath == "" {
				appPath = job.AppPath
			}
			_, def, defaults, err := r.readApp(hadoop.AsUser(ctx, job.User), appPath)
			if err != nil {
				return err
			}
			app, err := workflow.Load(def, workflow.OptionsForJob(r.cfg.Options, merged))
			if err != nil {
				return err
			}
			resolved, err := workflow.ResolveJobConf(app, defaults, merged)
			if err != nil {
				return err
			}
			confXML, err := configurationXML(resolved, merged)
			if err != nil {
				return err
			}
			st, err := r.decide(ctx, x, id, workflow.Event{Kind: workflow.EventRerun, SkipNodes: skip,
				FailNodes: failNodes, Conf: confXML, Definition: string(def)})
			if err != nil {
				return err
			}
			if st.Ignored != nil {
				return st.Ignored
			}
			if err := r.apply(ctx, x, st, ""); err != nil {
				return err
			}
			st, err = r.decide(ctx, x, id, workflow.Event{Kind: workflow.EventStart})
			if err != nil {
				return err
			}
			return r.apply(ctx, x, st, "")
		})
	})
}

// Callback is the hint an action's launcher sends when it ends: the action
// is checked at once. The status the launcher reports is not trusted; the
// executor's Check is.
func (r *Runner) Callback(ctx context.Context, actionID, status string) error {
	return r.cfg.Store.Tx(ctx, func(x store.Tx) error {
		act, err := x.GetWorkflowAction(ctx, actionID)
		if errors.Is(err, store.ErrNotFound) {
			return oozieerr.New(oozieerr.E0605, "Action does not exist [%s]", actionID)
		}
		if err != nil {
			return err
		}
		if act.Status.Terminal() {
			return nil
		}
		now := r.now()
		return x.Schedule(ctx, KindActionCheck, actionID, now, strconv.FormatInt(now.UnixNano(), 10))
	})
}
