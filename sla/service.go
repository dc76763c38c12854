package sla

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

// Trigger kinds owned by the SLA service.
const (
	// KindDeadline judges one registration when its next deadline passes
	// (entity: the registration's id, i.e. the job or action id). Insert
	// arms the first one when a registration is stored.
	KindDeadline = store.KindSLADeadline
	// KindEvent delivers one judged event to metrics and notifiers
	// (entity: the event's sequence number).
	KindEvent store.TriggerKind = "sla-event"
)

// DefaultAlertEvents are the events alerted by email when neither the
// registration nor the server names any (Oozie's default), the default of
// gozie.sla.default.alert-events.
const DefaultAlertEvents = conf.DefaultSLAAlertEvents

// Config configures a Service. Zero values take the documented defaults.
type Config struct {
	Store  store.Store
	Clock  clock.Clock  // default clock.Real{}
	Logger *slog.Logger // default slog.Default()
	// ParseTime reads nominal times (Oozie's datetime mask in the processing
	// time zone); default: yyyy-MM-dd'T'HH:mm'Z' in UTC.
	ParseTime func(string) (time.Time, error)
	// Location is the processing time zone of EL's timestamp(); nil is UTC.
	Location *time.Location
	// DefaultAlertEvents are emailed when a registration names no
	// alert-events; default DefaultAlertEvents.
	DefaultAlertEvents string
	// DisableAlertsOlderThan disables alerts of workflow registrations whose
	// nominal time is older than this when they are registered. Default
	// conf.DefaultSLADisableAlertsOlderThan; negative never disables.
	DisableAlertsOlderThan time.Duration
	// Notifiers receive judged events (webhooks, email).
	Notifiers []Notifier
	// Metrics, when set, receives the SLA metrics.
	Metrics prometheus.Registerer
}

// Service is the SLA service: registrations, the deadline calculator and
// the delivery of events.
type Service struct {
	cfg Config
	log *slog.Logger
	m   *metrics
}

// New returns an SLA service. Register its handlers on an engine, and call
// its hooks (WorkflowChanged, Track) in the transactions that change what
// registrations watch.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, errors.New("sla: Store is required")
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.ParseTime == nil {
		cfg.ParseTime = parseUTC
	}
	if cfg.DefaultAlertEvents == "" {
		cfg.DefaultAlertEvents = DefaultAlertEvents
	}
	if cfg.DisableAlertsOlderThan == 0 {
		cfg.DisableAlertsOlderThan = conf.DefaultSLADisableAlertsOlderThan
	}
	m, err := newMetrics(cfg.Metrics)
	if err != nil {
		return nil, err
	}
	return &Service{cfg: cfg, log: cfg.Logger, m: m}, nil
}

// parseUTC reads Oozie's UTC datetime mask.
func parseUTC(s string) (time.Time, error) {
	t, err := time.Parse(oozietime.Layout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("datetime %q: want yyyy-MM-ddTHH:mmZ", s)
	}
	return t, nil
}

// Register registers the service's trigger handlers on e.
func (s *Service) Register(e *engine.Engine) {
	e.Handle(KindDeadline, s.handleDeadline)
	e.Handle(KindEvent, s.handleEvent)
}

// now is the service's time as the store keeps it.
func (s *Service) now() time.Time { return s.cfg.Clock.Now().UTC().Truncate(time.Millisecond) }

// Insert stores a new registration and arms its deadlines, in x. It is the
// way in for registrations built elsewhere (a coordinator action's, at
// materialization).
func (s *Service) Insert(ctx context.Context, x store.Tx, reg store.SLA) error {
	if err := Insert(ctx, x, &reg); err != nil {
		return fmt.Errorf("registering SLA of %s: %w", reg.ID, err)
	}
	return s.Track(ctx, x, reg.ID)
}

// Track judges the registration id (if there is one) against the current
// rows of its job in x, records what changed and the events that became
// due, and arms its next deadline. Engines call it in the transaction of
// every change of a watched job or action; it is cheap when id has no
// registration.
func (s *Service) Track(ctx context.Context, x store.Tx, id string) error {
	return s.track(ctx, x, id, nil)
}

// track is Track with, optionally, the workflow of a coordinator action
// that is being written in x before the action names it.
func (s *Service) track(ctx context.Context, x store.Tx, id string, wf *store.WorkflowJob) error {
	reg, err := x.GetSLA(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	p, err := progressOf(ctx, x, reg, wf)
	if err != nil {
		return fmt.Errorf("reading the progress of %s: %w", id, err)
	}
	if Reset(reg, p) {
		reg = resetSummary(reg)
	}
	return s.apply(ctx, x, reg, p)
}

// apply judges reg, writes the outcome in x and arms the next deadline.
func (s *Service) apply(ctx context.Context, x store.Tx, reg store.SLA, p Progress) error {
	now := s.now()
	j := Judge(reg, p, now)
	if j.Changed {
		j.SLA.LastModified = now
		if err := x.UpdateSLA(ctx, &j.SLA); err != nil {
			return fmt.Errorf("updating SLA of %s: %w", reg.ID, err)
		}
	}
	for i := range j.Events {
		ev := j.Events[i]
		if err := x.InsertSLAEvent(ctx, &ev); err != nil {
			return err
		}
		if err := x.Schedule(ctx, KindEvent, strconv.FormatInt(ev.Seq, 10), now, ""); err != nil {
			return err
		}
		s.log.Info("SLA event", "sla_id", reg.ID, "app_name", reg.AppName, "event", ev.EventStatus,
			"lateness", ev.Lateness.String())
	}
	if !j.Next.IsZero() {
		return x.Schedule(ctx, KindDeadline, reg.ID, j.Next, "")
	}
	return nil
}

// resetSummary forgets what was judged of an earlier run.
func resetSummary(reg store.SLA) store.SLA {
	reg.ActualStart, reg.ActualEnd = time.Time{}, time.Time{}
	reg.ActualDuration = -1
	reg.EventStatus = ""
	reg.SLAStatus = store.SLANotStarted
	return reg
}

// handleDeadline judges a registration whose deadline passed, in one
// transaction with the trigger's release; the next deadline is armed there.
func (s *Service) handleDeadline(ctx context.Context, run *engine.Claim) error {
	id := run.Trigger.EntityID
	return retryConflicts(ctx, func() error {
		return run.Finish(ctx, time.Time{}, func(x store.Tx) error { return s.Track(ctx, x, id) })
	})
}

// retryConflicts repeats fn while a concurrent writer wins the
// compare-and-set; the judgment is then taken again on fresh rows.
func retryConflicts(ctx context.Context, fn func() error) error {
	var err error
	for i := 0; i < 20; i++ {
		if err = fn(); !errors.Is(err, store.ErrConflict) || ctx.Err() != nil {
			return err
		}
	}
	return err
}

// tx runs fn in a transaction, retrying on conflicts.
func (s *Service) tx(ctx context.Context, fn func(store.Tx) error) error {
	return retryConflicts(ctx, func() error { return s.cfg.Store.Tx(ctx, fn) })
}
