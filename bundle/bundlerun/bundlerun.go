package bundlerun

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/gozie/gozie/bundle"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

// Trigger kinds owned by the bundle engine.
const (
	KindKickoff store.TriggerKind = "bundle-kickoff" // entity: bundle id; due at the kick-off time
	KindStatus  store.TriggerKind = "bundle-status"  // entity: bundle id; the roll-up and the pause time
)

// Config configures a Runner. Zero values take the documented defaults.
type Config struct {
	Store  store.Store
	Clock  clock.Clock  // default clock.Real{}
	Logger *slog.Logger // default slog.Default()
	// FS reads bundle applications and bundle-config-default.xml; it takes full URIs.
	FS hadoop.FileSystem
	// IDs hands out bundle job ids.
	IDs *ids.Generator
	// Coordinators submits and commands the bundles' coordinators. Its
	// Config.OnJobChange must call OnCoordinatorChange, so that bundles follow their
	// coordinators.
	Coordinators *coordrun.Runner
	// Format is the processing time zone; the zero value is UTC.
	Format oozietime.Format
	// ShowErrorStates keeps the *WITHERROR statuses; by default they are hidden, as
	// Oozie's backward.support.for.states.without.error (true) hides them.
	ShowErrorStates bool
	// SubstituteDepth bounds ${x} substitution in job configurations; default Oozie's 20.
	SubstituteDepth int
}

// Runner runs bundle jobs.
type Runner struct {
	cfg  Config
	log  *slog.Logger
	hide bool
}

// New returns a bundle engine. Register its handlers on an engine, and make the
// coordinator engine call OnCoordinatorChange.
func New(cfg Config) (*Runner, error) {
	if cfg.Store == nil || cfg.FS == nil || cfg.IDs == nil || cfg.Coordinators == nil {
		return nil, errors.New("bundlerun: Store, FS, IDs and Coordinators are required")
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.SubstituteDepth <= 0 {
		cfg.SubstituteDepth = conf.DefaultSubstituteDepth
	}
	return &Runner{cfg: cfg, log: cfg.Logger, hide: !cfg.ShowErrorStates}, nil
}

// Register registers the bundle engine's trigger handlers on e; the
// kick-off starts new work (engine.StartsNewWork), which SAFEMODE holds.
func (r *Runner) Register(e *engine.Engine) {
	for kind, h := range r.handlers() {
		var opts []engine.Option
		if kind == KindKickoff {
			opts = append(opts, engine.StartsNewWork())
		}
		e.Handle(kind, h, opts...)
	}
}

// handlers maps each trigger kind to its handler.
func (r *Runner) handlers() map[store.TriggerKind]engine.Handler {
	return map[store.TriggerKind]engine.Handler{
		KindKickoff: r.handleKickoff,
		KindStatus:  r.handleStatus,
	}
}

// OnCoordinatorChange is the coordinator engine's hook (coordrun.Config.OnJobChange): a
// coordinator of a bundle changed status in x, so the bundle's roll-up is due at once, in
// the same transaction.
func (r *Runner) OnCoordinatorChange(ctx context.Context, x store.Tx, job store.CoordJob) error {
	if job.BundleID == "" {
		return nil
	}
	return x.Schedule(ctx, KindStatus, job.BundleID, r.now(), "")
}

// now is the engine's time as the store keeps it: UTC, milliseconds.
func (r *Runner) now() time.Time { return store.StoredTime(r.cfg.Clock.Now()) }

// retryConflicts repeats fn while it fails with store.ErrConflict: a row changed between
// read and write, so the decision is taken again on fresh rows.
func retryConflicts(ctx context.Context, fn func() error) error {
	var err error
	for range 20 {
		if err = fn(); !errors.Is(err, store.ErrConflict) || ctx.Err() != nil {
			return err
		}
	}
	return err
}

// tx runs fn in a transaction, retrying on conflicts.
func (r *Runner) tx(ctx context.Context, fn func(store.Tx) error) error {
	return retryConflicts(ctx, func() error { return r.cfg.Store.Tx(ctx, fn) })
}

// getJob reads a bundle, turning a missing one into E0604.
func getJob(ctx context.Context, x store.Tx, id string) (store.BundleJob, error) {
	job, err := x.GetBundleJob(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return job, oozieerr.New(oozieerr.E0604, "Job does not exist [%s]", id)
	}
	return job, err
}

// coordinators returns a bundle's coordinator jobs.
func coordinators(ctx context.Context, x store.Tx, bundleID string) ([]store.CoordJob, error) {
	jobs, _, err := x.ListCoordJobs(ctx, store.JobFilter{BundleID: bundleID})
	if err != nil {
		return nil, fmt.Errorf("listing the coordinators of bundle %s: %w", bundleID, err)
	}
	return jobs, nil
}

// scheduleStatus makes the bundle's roll-up due now.
func (r *Runner) scheduleStatus(ctx context.Context, x store.Tx, id string) error {
	return x.Schedule(ctx, KindStatus, id, r.now(), "")
}

// definition reads back a bundle's resolved definition and configuration.
func (r *Runner) definition(job *store.BundleJob) (*bundle.Job, error) {
	props, err := conf.ParseConfigurationXML(job.Conf, "bundle job "+job.ID+" configuration")
	if err != nil {
		return nil, err
	}
	def, err := bundle.LoadJob(job.Definition, props, r.cfg.Format)
	if err != nil {
		return nil, fmt.Errorf("bundle job %s: %w", job.ID, err)
	}
	return def, nil
}
