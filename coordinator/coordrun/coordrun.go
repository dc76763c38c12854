package coordrun

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow/wfrun"
)

// Trigger kinds owned by the coordinator engine.
const (
	KindMaterialize store.TriggerKind = "coord-materialize"  // entity: job id
	KindInputCheck  store.TriggerKind = "coord-input-check"  // entity: action id
	KindTimeout     store.TriggerKind = "coord-timeout"      // entity: job id
	KindStart       store.TriggerKind = "coord-start"        // entity: job id
	KindStatus      store.TriggerKind = "coord-status"       // entity: job id
	KindWorkflow    store.TriggerKind = "coord-workflow-cmd" // entity: action id
	KindKill        store.TriggerKind = "coord-kill"         // entity: job id
)

// Config configures a Runner. Zero values take the documented defaults.
type Config struct {
	Store  store.Store
	Clock  clock.Clock  // default clock.Real{}
	Logger *slog.Logger // default slog.Default()
	// FS reads applications and checks dataset done-flags; it takes full
	// URIs (hdfs://, file://).
	FS hadoop.FileSystem
	// HCat checks hcat:// datasets (hcat.go); nil: they wait, failing.
	HCat HCatDatasets
	// IDs hands out coordinator job ids.
	IDs *ids.Generator
	// Workflows submits and controls the actions' workflows.
	Workflows *wfrun.Runner
	// Format is the processing time zone; the zero value is UTC.
	Format oozietime.Format
	// Settings are the coordinator defaults and limits. Start from
	// coordinator.DefaultSettings(): numeric fields left at zero take their
	// default, but booleans (HideErrorStates, CheckMaximumFrequency, ...) are
	// taken as given.
	Settings coordinator.Settings
	// InputCheckMinInterval and InputCheckMaxInterval bound the delay
	// between two input checks of a waiting action: it grows with how long
	// the action has waited (a sixteenth of it), from the minimum to the
	// maximum, and with how late the server claims the check (see
	// checkInterval). Defaults conf.DefaultCoordInputCheckMinInterval and
	// conf.DefaultCoordInputCheckMaxInterval (gozie.coord.input-check.*).
	InputCheckMinInterval time.Duration
	InputCheckMaxInterval time.Duration
	// MaxConcurrentChecks bounds the filesystem existence checks running at
	// once across all input checks. Default 32.
	MaxConcurrentChecks int
	// SubstituteDepth bounds ${x} substitution in job configurations.
	SubstituteDepth int
	// JobCacheSize is how many parsed coordinator definitions are kept.
	// Default 4096.
	JobCacheSize int
	// OnJobChange, when set, is called in the transaction of every status
	// change of a coordinator job that belongs to a bundle, so the bundle
	// follows its coordinators atomically.
	OnJobChange func(ctx context.Context, x store.Tx, job store.CoordJob) error

	// testHook, when set (tests only), is called at named points of the
	// handlers, inside their transactions, to stall or kill them there.
	testHook func(point string)
}

// Runner runs coordinator jobs.
type Runner struct {
	cfg  Config
	log  *slog.Logger
	set  coordinator.Settings
	jobs *jobCache
	rows *rowCache // job rows as last read, for passes that read them again
	docs *docCache // parsed action documents, for input checks
	sem  chan struct{}
}

// New returns a coordinator engine. Register its handlers on an engine, and
// make the workflow runner call OnWorkflowChange.
func New(cfg Config) (*Runner, error) {
	if cfg.Store == nil || cfg.FS == nil || cfg.IDs == nil || cfg.Workflows == nil {
		return nil, errors.New("coordrun: Store, FS, IDs and Workflows are required")
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.InputCheckMinInterval <= 0 {
		cfg.InputCheckMinInterval = conf.DefaultCoordInputCheckMinInterval
	}
	if cfg.InputCheckMaxInterval <= 0 {
		cfg.InputCheckMaxInterval = conf.DefaultCoordInputCheckMaxInterval
	}
	if cfg.InputCheckMaxInterval < cfg.InputCheckMinInterval {
		cfg.InputCheckMaxInterval = cfg.InputCheckMinInterval
	}
	if cfg.MaxConcurrentChecks <= 0 {
		cfg.MaxConcurrentChecks = 32
	}
	if cfg.SubstituteDepth <= 0 {
		cfg.SubstituteDepth = conf.DefaultSubstituteDepth
	}
	if cfg.JobCacheSize <= 0 {
		cfg.JobCacheSize = 4096
	}
	jobs := newJobCache(cfg.JobCacheSize)
	return &Runner{
		cfg:  cfg,
		log:  cfg.Logger,
		set:  cfg.Settings.WithDefaults(),
		jobs: jobs,
		rows: newRowCache(rowCacheSize, jobs),
		docs: newDocCache(docCacheSize),
		sem:  make(chan struct{}, cfg.MaxConcurrentChecks),
	}, nil
}

// Register registers the coordinator engine's trigger handlers on e, and
// what ends a job or action whose trigger the engine gives up on (see
// giveUps); materialization and input checks are handled in batches (see
// handleMaterializeBatch and handleInputCheckBatch). Materialization and
// the start of actions' workflows start new work (engine.StartsNewWork),
// which SAFEMODE holds.
func (r *Runner) Register(e *engine.Engine) {
	for kind, g := range r.giveUps() {
		e.HandleGiveUp(kind, g)
	}
	for kind, h := range r.handlers() {
		var opts []engine.Option
		if kind == KindMaterialize || kind == KindStart {
			opts = append(opts, engine.StartsNewWork())
		}
		switch kind {
		case KindMaterialize:
			e.HandleBatch(kind, materializeBatch, r.handleMaterializeBatch, opts...)
			continue
		case KindInputCheck:
			e.HandleBatch(kind, inputCheckBatch, r.handleInputCheckBatch, opts...)
			continue
		}
		e.Handle(kind, h, opts...)
	}
}

// handlers maps each trigger kind to its handler.
func (r *Runner) handlers() map[store.TriggerKind]engine.Handler {
	return map[store.TriggerKind]engine.Handler{
		KindMaterialize: r.handleMaterialize,
		KindInputCheck:  r.handleInputCheck,
		KindTimeout:     r.handleTimeout,
		KindStart:       r.handleStart,
		KindStatus:      r.handleStatus,
		KindWorkflow:    r.handleWorkflowCommand,
		KindKill:        r.handleKill,
	}
}

// now is the engine's time as the store keeps it: UTC, milliseconds.
func (r *Runner) now() time.Time { return store.StoredTime(r.cfg.Clock.Now()) }

// definition returns the job's parsed definition and configuration.
func (r *Runner) definition(row *store.CoordJob) (*coordinator.Job, *conf.Properties, error) {
	if e, ok := r.jobs.get(row); ok {
		return e.job, e.conf, nil
	}
	props, err := conf.ParseConfigurationXML(row.Conf, "coordinator job "+row.ID+" configuration")
	if err != nil {
		return nil, nil, err
	}
	job, err := coordinator.LoadJob(row.Definition, props, r.cfg.Format)
	if err != nil {
		return nil, nil, fmt.Errorf("coordinator job %s: loading its definition: %w", row.ID, err)
	}
	r.jobs.put(row, job, props)
	return job, props, nil
}

// lockJobs locks the rows of the jobs with the given ids and returns them
// as they are now, in id order, leaving out the jobs that are gone. A row
// in read (read before, without the lock) whose version is unchanged is
// used as it is; only the others are read again.
func lockJobs(ctx context.Context, x store.Tx, ids []string, read map[string]*store.CoordJob) ([]store.CoordJob, error) {
	versions, err := x.LockCoordJobVersions(ctx, ids)
	if err != nil {
		return nil, err
	}
	return current(ctx, x, versions, func(id string) (store.CoordJob, bool) {
		if j, ok := read[id]; ok {
			return *j, true
		}
		return store.CoordJob{}, false
	}, nil)
}

// retryConflicts repeats fn while it fails with store.ErrConflict: a row
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

// finish commits fn and releases the trigger in one transaction, retrying
// on conflicts. fn decides on the rows it reads itself, so a retry decides
// again. Handlers that know their next due time only inside fn pass a zero
// next and schedule their own trigger there (see reschedule).
func (r *Runner) finish(ctx context.Context, run *engine.Claim, next time.Time, fn func(store.Tx) error) error {
	return retryConflicts(ctx, func() error {
		return run.Finish(ctx, next, fn)
	})
}

// hook calls the test hook at a named point.
func (r *Runner) hook(point string) {
	if r.cfg.testHook != nil {
		r.cfg.testHook(point)
	}
}

// reschedule keeps the claimed trigger due at next: scheduling a trigger
// that is leased is kept for its release, which then leaves it due at the
// earlier of the two.
func reschedule(ctx context.Context, x store.Tx, run *engine.Claim, next time.Time) error {
	if next.IsZero() {
		return nil
	}
	return x.Schedule(ctx, run.Trigger.Kind, run.Trigger.EntityID, next, "")
}

// tx runs fn in a transaction, retrying on conflicts.
func (r *Runner) tx(ctx context.Context, fn func(store.Tx) error) error {
	return retryConflicts(ctx, func() error { return r.cfg.Store.Tx(ctx, fn) })
}

// jobChanged calls the bundle hook for a coordinator job whose status
// changed.
func (r *Runner) jobChanged(ctx context.Context, x store.Tx, before store.JobStatus, job store.CoordJob) error {
	if before == job.Status || job.BundleID == "" || r.cfg.OnJobChange == nil {
		return nil
	}
	return r.cfg.OnJobChange(ctx, x, job)
}

// getJob reads a job, turning a missing one into E0604.
func getJob(ctx context.Context, x store.Tx, id string) (store.CoordJob, error) {
	job, err := x.GetCoordJob(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return job, oozieerr.New(oozieerr.E0604, "Job does not exist [%s]", id)
	}
	return job, err
}

// lockJob locks a job's row and reads it, turning a missing one into
// E0604. Every transaction of this package that writes more than one row
// takes its job's lock first, so that transactions of one job (and the
// workflow runner's, which reach a job through OnWorkflowChange) never wait
// on each other in a cycle on PostgreSQL.
func lockJob(ctx context.Context, x store.Tx, id string) (store.CoordJob, error) {
	job, err := x.LockCoordJob(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return job, oozieerr.New(oozieerr.E0604, "Job does not exist [%s]", id)
	}
	return job, err
}

// lockAction locks the job of an action and reads both, the action once
// the lock is held (every writer of an action holds it).
func lockAction(ctx context.Context, x store.Tx, actionID string) (store.CoordAction, store.CoordJob, error) {
	a, err := x.GetCoordAction(ctx, actionID)
	if err != nil {
		return a, store.CoordJob{}, err
	}
	job, err := x.LockCoordJob(ctx, a.JobID)
	if err != nil {
		return a, job, err
	}
	a, err = x.GetCoordAction(ctx, actionID)
	return a, job, err
}
