// Package wfrun is the effectful half of the workflow engine: it keeps
// workflow jobs in the store, turns user commands and action completions
// into workflow.Decide events, applies the resulting steps in one
// transaction each, and drives the actions' executors from triggers.
//
// Trigger kinds (entity = action id unless noted):
//
//	wf-action-start  launch the action (record its YARN tag first, then Start)
//	wf-action-check  ask the executor whether the action ended (callback, poll, fallback)
//	wf-action-kill   kill the action's external work
//	wf-action-retry  a user retry's delay has passed
//	wf-poll          (entity "yarn") one batched look at every running YARN action
//
// Completion is a callback (a hint that schedules wf-action-check at once)
// plus polling (the truth): while YARN actions run, wf-poll asks the
// ResourceManager once per PollInterval about all of them, so a lost
// callback costs at most one interval.
package wfrun

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
)

// Trigger kinds owned by the runner.
const (
	KindActionStart store.TriggerKind = "wf-action-start"
	KindActionCheck store.TriggerKind = "wf-action-check"
	KindActionKill  store.TriggerKind = "wf-action-kill"
	KindActionRetry store.TriggerKind = "wf-action-retry"
	KindPoll        store.TriggerKind = "wf-poll"
)

// pollEntity is the one entity id of the batched poll's trigger.
const pollEntity = "yarn"

// Config configures a Runner. Zero durations take the documented defaults.
type Config struct {
	Store  store.Store
	Clock  clock.Clock
	Logger *slog.Logger
	// FS reads application definitions; it takes full URIs.
	FS hadoop.FileSystem
	// Executors runs each action type.
	Executors actions.Registry
	// IDs hands out job ids.
	IDs *ids.Generator
	// CallbackBaseURL is the URL of the callback endpoint
	// (.../oozie/callback); actions call it with ?id=&status=.
	CallbackBaseURL string
	// Options are the workflow engine settings (defaults for name node and
	// resource manager, user retries).
	Options workflow.Options
	// SubstituteDepth bounds ${x} substitution in job configurations.
	SubstituteDepth int
	// SystemDir is the directory under each user's home that holds action
	// directories: <nameNode>/user/<user>/<SystemDir>/<jobID>/... Default
	// "gozie-sys".
	SystemDir string
	// PollInterval is how often running YARN actions are looked at in one
	// batch (gozie.action.poll.interval). Default
	// conf.DefaultActionPollInterval.
	PollInterval time.Duration
	// CheckInterval is how often an action whose executor cannot be polled
	// in batch is checked (gozie.action.check.interval). Default
	// conf.DefaultActionCheckInterval.
	CheckInterval time.Duration
	// FallbackCheckInterval is how often an action that the batched poll
	// follows is also checked on its own, for the rare run the batch misses
	// (an application the ResourceManager forgot between two polls)
	// (gozie.action.fallback-check.interval). Default
	// conf.DefaultActionFallbackCheckInterval.
	FallbackCheckInterval time.Duration
	// StartRetry says how a start that failed transiently is retried before
	// the action waits for a person. Zero: DefaultStartRetry.
	StartRetry StartRetry
	// DefinitionCacheSize bounds how many jobs' parsed definitions are kept
	// (gozie.workflow.definition-cache.size). Default
	// conf.DefaultWorkflowDefinitionCacheSize.
	DefinitionCacheSize int
	// Location is the processing time zone of timestamp(); nil is UTC.
	Location *time.Location
	// Metrics, when set, receives the runner's Prometheus metrics.
	Metrics prometheus.Registerer
	// OnJobChange, when set, is called in the transaction of every change
	// of a job that has a parent (a coordinator action or a parent
	// workflow), so the parent follows its child atomically.
	OnJobChange func(ctx context.Context, x store.Tx, job store.WorkflowJob) error
	// OnChange, when set, is called in the transaction of every change the
	// runner writes to a job or its actions, after the writes: job is the
	// job as written when jobWritten, else as the runner read it for the
	// change (nil where it did not read it), inserted reports that the job
	// was created in this transaction, and actions are the actions created
	// or updated. Observers that follow jobs (the SLA service) hook in
	// here; an error rolls the change back.
	OnChange func(ctx context.Context, x store.Tx, job *store.WorkflowJob, jobWritten, inserted bool, actions []store.WorkflowAction) error
}

// StartRetry is Oozie's transient retry of an action start
// (oozie.action.retries.max, oozie.action.retry.interval,
// oozie.action.retry.policy): a start that fails transiently is tried Max
// more times, Interval apart (under the exponential policy the interval
// doubles with each retry); after that, as after a non-transient failure,
// the action waits in START_MANUAL and its job is SUSPENDED, for a person to
// fix the cause and resume the job, which starts the action again with its
// retries afresh.
type StartRetry struct {
	Max      int
	Interval time.Duration
	Policy   string // workflow.RetryPeriodic or workflow.RetryExponential
}

// DefaultStartRetry is Oozie's: 3 retries 10 s apart, the defaults of
// gozie.action.retries.max, gozie.action.retry.interval and
// gozie.action.retry.policy.
var DefaultStartRetry = StartRetry{Max: conf.DefaultActionRetriesMax, Interval: conf.DefaultActionRetryInterval,
	Policy: conf.DefaultActionRetryPolicy}

// Runner runs workflow jobs.
type Runner struct {
	cfg Config
	log *slog.Logger
	// defs keeps the parsed definitions of recently used jobs (bounded,
	// see defCache).
	defs *defCache
	// nextLaunch observes callback → next action launched.
	nextLaunch prometheus.Histogram
}

// parsedJob is a job's definition and configuration, parsed once per run.
type parsedJob struct {
	app  *workflow.App
	conf *conf.Properties
	fs   bool // the workflow calls fs: functions (see prefetch)
}

// New returns a runner.
func New(cfg Config) (*Runner, error) {
	if cfg.Store == nil || cfg.FS == nil || cfg.IDs == nil {
		return nil, errors.New("runner: Store, FS and IDs are required")
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Executors == nil {
		cfg.Executors = actions.Registry{}
	}
	if cfg.SystemDir == "" {
		cfg.SystemDir = "gozie-sys"
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = conf.DefaultActionPollInterval
	}
	if cfg.CheckInterval <= 0 {
		cfg.CheckInterval = conf.DefaultActionCheckInterval
	}
	if cfg.FallbackCheckInterval <= 0 {
		cfg.FallbackCheckInterval = conf.DefaultActionFallbackCheckInterval
	}
	if cfg.StartRetry.Interval <= 0 {
		cfg.StartRetry = DefaultStartRetry
	}
	if cfg.SubstituteDepth <= 0 {
		cfg.SubstituteDepth = conf.DefaultSubstituteDepth
	}
	if cfg.DefinitionCacheSize <= 0 {
		cfg.DefinitionCacheSize = conf.DefaultWorkflowDefinitionCacheSize
	}
	r := &Runner{cfg: cfg, log: cfg.Logger, defs: newDefCache(cfg.DefinitionCacheSize)}
	r.nextLaunch = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "gozie_callback_to_next_launch_seconds",
		Help:    "Time from an action's completion callback to the launch of the action that follows it.",
		Buckets: []float64{.005, .01, .02, .035, .05, .075, .1, .15, .2, .3, .5, .75, 1, 2, 5, 10, 30},
	})
	if cfg.Metrics != nil {
		if err := cfg.Metrics.Register(r.nextLaunch); err != nil {
			return nil, fmt.Errorf("runner metrics: %w", err)
		}
	}
	return r, nil
}

// Register registers the runner's trigger handlers on e. Starting an
// action and its retry start new work (engine.StartsNewWork), which SAFEMODE
// holds.
func (r *Runner) Register(e *engine.Engine) {
	e.Handle(KindActionStart, r.handleStart, engine.StartsNewWork())
	e.Handle(KindActionCheck, r.handleCheck)
	e.Handle(KindActionKill, r.handleKill)
	e.Handle(KindActionRetry, r.handleRetry, engine.StartsNewWork())
	e.Handle(KindPoll, r.handlePoll)
	// Launch failures of the cluster are retried inside the start handlers; what still
	// fails them is the server's own trouble, given up on after bounded attempts. Checks,
	// kills and the poll ride out cluster outages instead (engine.HandleGiveUp).
	e.HandleGiveUp(KindActionStart, r.giveUp)
	e.HandleGiveUp(KindActionRetry, r.giveUp)
}

func (r *Runner) now() time.Time { return r.cfg.Clock.Now().UTC() }

// parsed returns the job's parsed definition and configuration.
func (r *Runner) parsed(job *store.WorkflowJob) (*parsedJob, error) {
	if p, ok := r.defs.get(job); ok {
		return p, nil
	}
	props, err := conf.ReadConfigurationXML(strings.NewReader(job.Conf), "job "+job.ID+" configuration")
	if err != nil {
		return nil, fmt.Errorf("workflow %s: %w", job.ID, err)
	}
	props = props.Plain()
	app, err := workflow.Load([]byte(job.Definition), workflow.OptionsForJob(r.cfg.Options, props))
	if err != nil {
		return nil, fmt.Errorf("workflow %s: %w", job.ID, err)
	}
	p := &parsedJob{app: app, conf: props, fs: usesFSFunctions(job.Definition)}
	r.defs.put(job, p)
	return p, nil
}

// forget drops a finished job's parsed form from the cache.
func (r *Runner) forget(job *store.WorkflowJob) {
	r.defs.forget(job.ID)
}

func (r *Runner) callbackURL(actionID, status string) string {
	return r.cfg.CallbackBaseURL + "?id=" + url.QueryEscape(actionID) + "&status=" + status
}

// decide runs the decision core for ev on the job's current rows.
func (r *Runner) decide(ctx context.Context, x store.Tx, jobID string, ev workflow.Event) (workflow.Step, error) {
	job, acts, err := r.rows(ctx, x, jobID)
	if err != nil {
		return workflow.Step{}, err
	}
	in, err := r.input(ctx, job, acts)
	if err != nil {
		return workflow.Step{}, err
	}
	return workflow.Decide(in, ev)
}

// rows reads a job and its actions in x.
func (r *Runner) rows(ctx context.Context, x store.Tx, jobID string) (store.WorkflowJob, []store.WorkflowAction, error) {
	job, err := x.GetWorkflowJob(ctx, jobID)
	if errors.Is(err, store.ErrNotFound) {
		return job, nil, oozieerr.New(oozieerr.E0604, "Job does not exist [%s]", jobID)
	}
	if err != nil {
		return job, nil, err
	}
	acts, err := x.ListWorkflowActions(ctx, jobID)
	return job, acts, err
}

// input is the decision core's input for job and its rows; its EL
// functions that reach the cluster run under ctx (see elFunctions).
func (r *Runner) input(ctx context.Context, job store.WorkflowJob, acts []store.WorkflowAction) (workflow.Input, error) {
	p, err := r.parsed(&job)
	if err != nil {
		return workflow.Input{}, err
	}
	return workflow.Input{
		App: p.app, Job: job, Actions: acts, Conf: p.conf, Now: r.now(), Options: r.cfg.Options,
		CallbackURL: r.callbackURL, Location: r.cfg.Location, Funcs: r.elFunctions(ctx),
	}, nil
}

// apply writes a step and schedules its side effects, in the caller's
// transaction. origin, when set, is the time (Unix nanoseconds) of the
// callback that led here; the actions the step starts carry it so the
// latency from callback to next launch can be measured.
func (r *Runner) apply(ctx context.Context, x store.Tx, st workflow.Step, origin string) error {
	now := r.now()
	if st.Job != nil {
		if err := x.UpdateWorkflowJob(ctx, st.Job); err != nil {
			return err
		}
		if st.Job.Status.Terminal() {
			r.forget(st.Job)
		}
		if st.Job.ParentID != "" && r.cfg.OnJobChange != nil {
			if err := r.cfg.OnJobChange(ctx, x, *st.Job); err != nil {
				return err
			}
		}
		if parent := ParentActionOf(*st.Job); parent != "" && st.Job.Status.Terminal() {
			// A sub-workflow ended: its parent's action learns it now, in
			// this transaction, instead of at its next check.
			if err := x.Schedule(ctx, KindActionCheck, parent, now, ""); err != nil {
				return err
			}
		}
	}
	for i := range st.Create {
		if err := x.InsertWorkflowAction(ctx, &st.Create[i]); err != nil {
			return err
		}
	}
	for i := range st.Update {
		if err := x.UpdateWorkflowAction(ctx, &st.Update[i]); err != nil {
			return err
		}
	}
	if err := attemptsEnded(ctx, x, st.Update); err != nil {
		return err
	}
	for _, id := range st.Delete {
		if err := x.DeleteWorkflowAction(ctx, id); err != nil {
			return err
		}
	}
	for _, id := range st.Start {
		if err := x.Schedule(ctx, KindActionStart, id, now, origin); err != nil {
			return err
		}
	}
	for _, id := range st.Kill {
		if err := x.Unschedule(ctx, KindActionCheck, id); err != nil {
			return err
		}
		if err := x.Schedule(ctx, KindActionKill, id, now, ""); err != nil {
			return err
		}
	}
	for _, rt := range st.Retry {
		if err := x.Schedule(ctx, KindActionRetry, rt.ActionID, rt.At, ""); err != nil {
			return err
		}
	}
	for _, w := range st.Warnings {
		r.log.Warn("workflow warning", "code", w.Code, "node", w.Node, "msg", w.Msg)
	}
	acts := append(append([]store.WorkflowAction(nil), st.Create...), st.Update...)
	if st.Job != nil {
		return r.changed(ctx, x, st.Job, true, false, acts)
	}
	return r.changed(ctx, x, st.Read, false, false, acts)
}

// changed calls the OnChange hook, if any, when the job was written or an
// action changed.
func (r *Runner) changed(ctx context.Context, x store.Tx, job *store.WorkflowJob, jobWritten, inserted bool, acts []store.WorkflowAction) error {
	if r.cfg.OnChange == nil || (!jobWritten && len(acts) == 0) {
		return nil
	}
	return r.cfg.OnChange(ctx, x, job, jobWritten, inserted, acts)
}

// event decides and applies ev in its own transaction, retrying when a
// concurrent change of the same job wins the compare-and-set.
func (r *Runner) event(ctx context.Context, jobID string, ev workflow.Event) error {
	ctx = r.prefetch(ctx, jobID, ev)
	return r.retryConflicts(ctx, func() error {
		return r.cfg.Store.Tx(ctx, func(x store.Tx) error {
			st, err := r.decide(ctx, x, jobID, ev)
			if err != nil {
				return err
			}
			if st.Ignored != nil {
				r.log.Info("workflow command had no effect", "job_id", jobID, "event", ev.Kind, "reason", st.Ignored.Msg)
			}
			if err := r.apply(ctx, x, st, ""); err != nil {
				return err
			}
			if st.Ignored == nil && (ev.Kind == workflow.EventSuspend || ev.Kind == workflow.EventResume) {
				return r.cascade(ctx, x, jobID, ev, 0)
			}
			return nil
		})
	})
}

// retryConflicts repeats fn while it fails with store.ErrConflict: the job
// changed between read and write, so the decision is taken again on fresh
// rows.
func retryConflicts(ctx context.Context, fn func() error) error {
	var err error
	for i := 0; i < 20; i++ {
		if err = fn(); !errors.Is(err, store.ErrConflict) || ctx.Err() != nil {
			return err
		}
	}
	return err
}

func (r *Runner) retryConflicts(ctx context.Context, fn func() error) error {
	return retryConflicts(ctx, fn)
}

// actionAttempt builds the executor's view of one attempt at an action.
func (r *Runner) actionAttempt(job *store.WorkflowJob, act *store.WorkflowAction, jobConf *conf.Properties) *actions.Attempt {
	actionID := act.ID
	key := fmt.Sprintf("%s#%d.%d", act.ID, job.Run, act.UserRetryCount)
	nn, rm := clusterOf(act.Conf)
	if nn == "" {
		nn = r.cfg.Options.DefaultNameNode
	}
	if nn == "" {
		// As in Oozie, the action directory is then on the application's
		// filesystem, never on a bare path that the server would read
		// against its own default (its local disk, without a cluster).
		nn = fsRoot(job.AppPath)
	}
	if rm == "" {
		rm = r.cfg.Options.DefaultResourceManager
	}
	dir := fmt.Sprintf("%s/user/%s/%s/%s/%s--%s/%d.%d", strings.TrimSuffix(nn, "/"), job.User, r.cfg.SystemDir,
		job.ID, act.Name, strings.ReplaceAll(act.Type, ":", ""), job.Run, act.UserRetryCount)
	tag := yarn.ActionTag(key)
	if adopted(act) {
		tag = act.LaunchTag // checked and killed by Oozie's tag
	}
	return &actions.Attempt{
		ActionID: act.ID, JobID: job.ID, Node: act.Name, Type: act.Type, Key: key, Tag: tag,
		User: job.User, Group: job.Group, AppPath: job.AppPath, Body: act.Conf, JobConf: jobConf.Sorted(),
		NameNode: nn, ResourceManager: rm, CallbackURL: r.callbackURL(act.ID, ""),
		ActionDir: dir, ExternalID: act.ExternalID, Credentials: r.actionCredentials(job, act.Name, jobConf),
		Notify: func() {
			if err := r.Callback(context.Background(), actionID, ""); err != nil {
				r.log.Warn("in-process completion notice failed; the action is checked later", "action_id", actionID, "err", err)
			}
		},
	}
}

// adopted reports whether act runs in an Oozie launcher adopted at the
// migration (`gozie migrate oozie -running-actions=follow` records Oozie's
// tag of the action): its executor judges it by its YARN application
// alone, and the batched poll (which looks for gozie's launchers) never
// sees it end. A new attempt at the node is gozie's own.
func adopted(act *store.WorkflowAction) bool {
	return yarn.IsOozieTag(act.LaunchTag) && (act.Status == store.ActionRunning || act.Status == store.ActionEndRetry)
}

// credentialRef matches a ${name} reference in a credential property.
var credentialRef = regexp.MustCompile(`\$\{([^{}]+)\}`)

// actionCredentials returns the credentials action node names in its cred
// attribute, from the workflow's <credentials>, with ${name} references in
// their values replaced from the job configuration (as Oozie evaluates
// them; a name the configuration lacks stays as written). A name the
// workflow does not define is returned without a type, for the launch to
// refuse.
func (r *Runner) actionCredentials(job *store.WorkflowJob, node string, jobConf *conf.Properties) []actions.Credential {
	p, err := r.parsed(job)
	if err != nil {
		return nil
	}
	n := p.app.Node(node)
	if n == nil || n.Action == nil || strings.TrimSpace(n.Action.Cred) == "" {
		return nil
	}
	var out []actions.Credential
	for _, name := range strings.Split(n.Action.Cred, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		c := actions.Credential{Name: name}
		for _, def := range p.app.Credentials {
			if def.Name != name {
				continue
			}
			c.Type = def.Type
			c.Properties = &conf.Properties{}
			for _, prop := range def.Properties {
				c.Properties.Set(prop.Name, credentialRef.ReplaceAllStringFunc(prop.Value, func(ref string) string {
					if v, ok := jobConf.Get(ref[2 : len(ref)-1]); ok {
						return v
					}
					return ref
				}))
			}
		}
		out = append(out, c)
	}
	return out
}

// fsRoot returns the root directory of a full URI's filesystem,
// scheme://authority/ (file:/// without authority), or "" for a path.
func fsRoot(uri string) string {
	scheme, rest, ok := strings.Cut(uri, "://")
	if !ok || scheme == "" || strings.Contains(scheme, "/") {
		return ""
	}
	authority, _, _ := strings.Cut(rest, "/")
	return scheme + "://" + authority + "/"
}

// clusterOf finds the name node and resource manager an action's resolved
// XML names.
func clusterOf(body string) (nameNode, resourceManager string) {
	b, err := workflow.ParseBody(body)
	if err != nil {
		return "", ""
	}
	if h, ok := b.(interface{ Cluster() (string, string) }); ok {
		return h.Cluster()
	}
	return "", ""
}
