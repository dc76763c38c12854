package bundlerun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/gozie/gozie/bundle"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/store"
)

// Trigger kinds owned by the bundle engine.
const (
	KindKickoff = "bundle-kickoff" // entity: bundle id; due at the kick-off time
	KindStatus  = "bundle-status"  // entity: bundle id; the roll-up and the pause time
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
	Format coordinator.TimeFormat
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

// Register registers the bundle engine's trigger handlers on e.
func (r *Runner) Register(e *engine.Engine) {
	for kind, h := range r.handlers() {
		e.Handle(kind, h)
	}
}

// handlers maps each trigger kind to its handler.
func (r *Runner) handlers() map[string]engine.Handler {
	return map[string]engine.Handler{
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
func (r *Runner) now() time.Time { return r.cfg.Clock.Now().UTC().Truncate(time.Millisecond) }

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
		return job, errorf(CodeJobNotFound, "Job does not exist [%s]", id)
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
	props, err := readConf(job.Conf, "bundle job "+job.ID+" configuration")
	if err != nil {
		return nil, err
	}
	def, err := bundle.LoadJob(job.Definition, props, r.cfg.Format)
	if err != nil {
		return nil, fmt.Errorf("bundle job %s: %w", job.ID, err)
	}
	return def, nil
}

// readConf reads a configuration XML into the core's form.
func readConf(xml, name string) (coordinator.Props, error) {
	if strings.TrimSpace(xml) == "" {
		return nil, nil
	}
	p, err := conf.ReadConfigurationXML(strings.NewReader(xml), name)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return fromProperties(p), nil
}

// fromProperties converts a configuration to the core's form.
func fromProperties(p *conf.Properties) coordinator.Props {
	out := make(coordinator.Props, 0, p.Len())
	for k, v := range p.All() {
		out = append(out, coordinator.Property{Name: k, Value: v})
	}
	return out
}

// toProperties converts the core's form to a configuration.
func toProperties(ps []coordinator.Property) *conf.Properties {
	out := &conf.Properties{}
	for _, p := range ps {
		out.Set(p.Name, p.Value)
	}
	return out
}

// configurationXML writes ps as a Hadoop configuration document.
func configurationXML(ps []coordinator.Property) (string, error) {
	var b bytes.Buffer
	if err := conf.WriteConfigurationXML(&b, toProperties(ps)); err != nil {
		return "", fmt.Errorf("writing configuration: %w", err)
	}
	return b.String(), nil
}
