package purge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/store"
)

// Kind is the trigger kind of the periodic purge.
const Kind store.TriggerKind = "purge"

// Entity is the one entity id of the periodic purge's trigger.
const Entity = "purge"

// Settings are what to purge and how often. DefaultSettings holds gozie's
// defaults, which are Oozie's except OldCoordActions.
type Settings struct {
	// WorkflowAge, CoordAge and BundleAge are the ages after which finished
	// jobs of each kind are old.
	WorkflowAge, CoordAge, BundleAge time.Duration
	// Limit is the number of jobs looked at per batch.
	Limit int
	// Interval is the time between two periodic purges.
	Interval time.Duration
	// OldCoordActions also purges the old finished actions of coordinators
	// that are still running (Oozie's purge.old.coord.action).
	OldCoordActions bool
}

// DefaultSettings returns the defaults of the gozie.purge.* settings: 30
// days for workflows, 7 for coordinators and bundles, batches of 100, every
// hour, old coordinator actions included.
func DefaultSettings() Settings {
	return Settings{WorkflowAge: conf.DefaultPurgeWorkflowOlderThan, CoordAge: conf.DefaultPurgeCoordOlderThan,
		BundleAge: conf.DefaultPurgeBundleOlderThan, Limit: conf.DefaultPurgeLimit, Interval: conf.DefaultPurgeInterval,
		OldCoordActions: conf.DefaultPurgeOldCoordAction}
}

func (s Settings) validate() error {
	switch {
	case s.WorkflowAge < 0 || s.CoordAge < 0 || s.BundleAge < 0:
		return fmt.Errorf("purge ages must not be negative (workflow %v, coordinator %v, bundle %v)",
			s.WorkflowAge, s.CoordAge, s.BundleAge)
	case s.Limit < 1:
		return fmt.Errorf("purge limit %d: must be at least 1", s.Limit)
	case s.Interval <= 0:
		return fmt.Errorf("purge interval %v: must be positive", s.Interval)
	}
	return nil
}

// Request is one purge asked for through the admin endpoint. A nil field
// takes the configured setting.
type Request struct {
	WorkflowAge, CoordAge, BundleAge *time.Duration
	Limit                            *int
	OldCoordActions                  *bool
}

// Counts are the jobs a purge removed.
type Counts struct {
	Workflows    int // sub-workflows and coordinators' workflows included
	CoordActions int
	Coordinators int
	Bundles      int
}

func (c *Counts) add(r store.PurgeResult) {
	c.Workflows += r.Workflows
	c.CoordActions += r.CoordActions
	c.Coordinators += r.Coordinators
	c.Bundles += r.Bundles
}

// Total is the number of jobs removed.
func (c Counts) Total() int { return c.Workflows + c.CoordActions + c.Coordinators + c.Bundles }

// DefaultRunBatches bounds the batches of one periodic run.
const DefaultRunBatches = 20

// Config configures a Purger. Zero values take the documented defaults.
type Config struct {
	Store  store.Store
	Clock  clock.Clock  // default clock.Real{}
	Logger *slog.Logger // default slog.Default()
	// Metrics receives the purge metrics; nil registers none.
	Metrics prometheus.Registerer
	// Settings are validated by New; the zero value means DefaultSettings.
	Settings Settings
	// RunBatches bounds the batches one periodic run does before it yields
	// to other triggers (its trigger re-armed due at once). This bounds how
	// long a run holds a worker, and how long a shutdown waits for it.
	// Default DefaultRunBatches.
	RunBatches int
	// Paused turns the periodic purge off: a run of its trigger removes
	// nothing and only re-arms it an interval later, so that a server with
	// the purge off neither spins on nor drops a trigger other servers
	// armed. Purge still runs.
	Paused bool
}

// Purger runs purges: periodically as a trigger of the engine, and on
// demand.
type Purger struct {
	cfg Config
	m   *metrics
	// mu lets one purge of this process run at a time; purges of several
	// servers are safe together, each batch checking what it removes.
	mu sync.Mutex
}

// New returns a purger.
func New(cfg Config) (*Purger, error) {
	if cfg.Store == nil {
		return nil, errors.New("purge: no store")
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Settings == (Settings{}) {
		cfg.Settings = DefaultSettings()
	}
	if err := cfg.Settings.validate(); err != nil {
		return nil, fmt.Errorf("purge: %w", err)
	}
	if cfg.RunBatches <= 0 {
		cfg.RunBatches = DefaultRunBatches
	}
	m, err := newMetrics(cfg.Metrics)
	if err != nil {
		return nil, err
	}
	return &Purger{cfg: cfg, m: m}, nil
}

// Settings returns the configured settings.
func (p *Purger) Settings() Settings { return p.cfg.Settings }

// Register adds the handler of the periodic purge to e.
func (p *Purger) Register(e *engine.Engine) { e.Handle(Kind, p.handle) }

// Arm makes sure the periodic purge's trigger exists: on a database that
// has none, a first run is due at once; an existing schedule is kept.
func (p *Purger) Arm(ctx context.Context) error {
	err := p.cfg.Store.Tx(ctx, func(x store.Tx) error {
		_, err := x.GetTrigger(ctx, Kind, Entity)
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		return x.Schedule(ctx, Kind, Entity, p.cfg.Clock.Now(), position{}.String())
	})
	if err != nil {
		return fmt.Errorf("arming the purge: %w", err)
	}
	return nil
}

// plan is one purge's settings with its cutoffs fixed.
type plan struct {
	cuts       store.PurgeCutoffs
	limit      int
	oldActions bool
}

// plan applies req to the configured settings at now.
func (p *Purger) plan(req Request, now time.Time) (plan, error) {
	s := p.cfg.Settings
	if req.WorkflowAge != nil {
		s.WorkflowAge = *req.WorkflowAge
	}
	if req.CoordAge != nil {
		s.CoordAge = *req.CoordAge
	}
	if req.BundleAge != nil {
		s.BundleAge = *req.BundleAge
	}
	if req.Limit != nil {
		s.Limit = *req.Limit
	}
	if req.OldCoordActions != nil {
		s.OldCoordActions = *req.OldCoordActions
	}
	if err := s.validate(); err != nil {
		return plan{}, err
	}
	return plan{
		cuts:       store.PurgeCutoffs{Workflow: now.Add(-s.WorkflowAge), Coord: now.Add(-s.CoordAge), Bundle: now.Add(-s.BundleAge)},
		limit:      s.Limit,
		oldActions: s.OldCoordActions,
	}, nil
}

// Purge runs one whole purge now, with the configured settings overridden
// by req, and returns what it removed. It serves the admin endpoint.
func (p *Purger) Purge(ctx context.Context, req Request) (Counts, error) {
	pl, err := p.plan(req, p.cfg.Clock.Now())
	if err != nil {
		return Counts{}, fmt.Errorf("purge: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	c, _, _, err := p.run(ctx, pl, position{}, 0)
	p.report("admin", c, true, err)
	if err != nil {
		return c, fmt.Errorf("purge: %w", err)
	}
	return c, nil
}

// handle is one periodic run: batches from where the last run stopped,
// until the passes are done or the run's budget is spent.
func (p *Purger) handle(ctx context.Context, run *engine.Claim) error {
	if p.cfg.Paused {
		next := run.Clock().Now().Add(p.cfg.Settings.Interval)
		return run.Finish(ctx, next, func(x store.Tx) error { return x.Schedule(ctx, Kind, Entity, next, position{}.String()) })
	}
	pl, err := p.plan(Request{}, run.Now)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	c, at, done, err := p.run(ctx, pl, parsePosition(run.Trigger.Payload), p.cfg.RunBatches)
	p.report("schedule", c, done, err)
	if err != nil {
		return fmt.Errorf("purging: %w", err)
	}
	now := run.Clock().Now()
	next, payload := now.Add(p.cfg.Settings.Interval), position{}.String()
	if !done {
		next, payload = now, at.String()
	}
	return run.Finish(ctx, next, func(x store.Tx) error {
		// The payload goes with a schedule; Release keeps the earlier of
		// the two due times, which are the same.
		return x.Schedule(ctx, Kind, Entity, next, payload)
	})
}

// report logs and counts the outcome of a run.
func (p *Purger) report(origin string, c Counts, done bool, err error) {
	log := p.cfg.Logger.With("origin", origin, "workflows", c.Workflows, "coord_actions", c.CoordActions,
		"coordinators", c.Coordinators, "bundles", c.Bundles)
	switch {
	case err != nil:
		log.Warn("purge failed", "err", err)
	case c.Total() > 0:
		log.Info("purged old jobs", "done", done)
	default:
		log.Debug("purge found nothing old", "done", done)
	}
	if err == nil && done {
		p.m.completed(origin, p.cfg.Clock.Now())
	}
}
