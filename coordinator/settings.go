package coordinator

import (
	"time"

	"github.com/gozie/gozie/conf"
)

// Execution is the order in which ready actions start (<execution>).
type Execution string

// Execution orders.
const (
	FIFO     Execution = "FIFO"
	LIFO     Execution = "LIFO"
	LastOnly Execution = "LAST_ONLY"
	None     Execution = "NONE"
)

// Settings are the server-wide defaults and limits of coordinators, named after the Oozie
// properties they replace. Start from DefaultSettings; numeric fields left at zero take their
// default.
type Settings struct {
	// DefaultTimeout is the action timeout in minutes without <timeout>
	// (oozie.service.coord.normal.default.timeout, 120).
	DefaultTimeout int
	// MaxTimeout caps timeouts; negative ones become it too
	// (oozie.service.coord.default.max.timeout, 86400 minutes = 60 days).
	MaxTimeout int
	// DefaultConcurrency is used without <concurrency> (oozie.service.coord.default.concurrency, 1).
	DefaultConcurrency int
	// DefaultThrottle is used without <throttle> (oozie.service.coord.default.throttle, 12):
	// the most actions a job keeps queued, WAITING or READY (see Queued).
	DefaultThrottle int
	// MaxThrottle replaces throttles below 1 or above it: queue size × throttling factor
	// (10000 × 0.05 = 500).
	MaxThrottle int
	// CheckMaximumFrequency rejects integer frequencies under five minutes
	// (oozie.service.coord.check.maximum.frequency). Oozie defaults to true; gozie defaults to
	// false because it materializes and checks inputs without Oozie's minute-scale polling.
	CheckMaximumFrequency bool
	// LookupInterval is how far ahead of now a job's next materialization may lie
	// (CoordMaterializeTriggerService.lookup.interval, 300 s).
	LookupInterval time.Duration
	// Window is how much time one materialization covers
	// (CoordMaterializeTriggerService.materialization.window, 3600 s).
	Window time.Duration
	// ActionBatchSize bounds the SKIPPED actions one materialization creates for a LAST_ONLY
	// or NONE job catching up (CoordMaterializeTriggerService.action.batch.size, 10000); -1
	// is unlimited. The actions that wait are bounded by the throttle.
	ActionBatchSize int
	// NoneTolerance is how late a NONE action may start (oozie.coord.execution.none.tolerance,
	// 1 minute).
	NoneTolerance time.Duration
	// LatestUsesCurrentTime makes coord:latest look back from now instead of from the action's
	// creation time (oozie.service.ELService.latest-el.use-current-time, false).
	LatestUsesCurrentTime bool
	// InputCheckInterval is the delay between two input checks of a waiting action
	// (oozie.service.coord.input.check.requeue.interval, 60 s).
	InputCheckInterval time.Duration
	// HideErrorStates maps RUNNINGWITHERROR, SUSPENDEDWITHERROR and PAUSEDWITHERROR to
	// RUNNING, SUSPENDED and PAUSED in status roll-ups
	// (StatusTransitService.backward.support.for.states.without.error, true).
	HideErrorStates bool
	// SLADisableAlertsOlderThan disables SLA alerts of actions whose nominal time is older
	// than this at materialization (oozie.sla.disable.alerts.older.than, 48 h); a job property
	// of the same name overrides it.
	SLADisableAlertsOlderThan time.Duration
	// MaxInstances bounds the dataset instances of one data-in or data-out of an action, and
	// of each range it names (start-instance..end-instance, coord:currentRange,
	// coord:latestRange, coord:futureRange, coord:absoluteRange, offset ranges): a range is
	// measured before it is expanded, so an oversized one costs nothing. It also bounds how
	// far coord:latest looks back and how far coord:future looks ahead, in instances. Oozie
	// has no such bound; gozie's default, DefaultMaxInstances, is a week of one-minute
	// instances. A submission over it is refused (E1010), naming the element.
	MaxInstances int
}

// DefaultMaxInstances is the default of Settings.MaxInstances, that of
// gozie.coord.max-instances (conf.DefaultCoordMaxInstances): a week of one-minute instances.
const DefaultMaxInstances = conf.DefaultCoordMaxInstances

// DefaultSettings returns Oozie's defaults, with gozie's one deliberate difference: no
// five-minute minimum frequency. Those that are server settings (gozie.coord.*) are the
// settings' defaults, written in package conf.
func DefaultSettings() Settings {
	return Settings{
		DefaultTimeout:            int(conf.DefaultCoordTimeout / time.Minute),
		MaxTimeout:                int(conf.DefaultCoordMaxTimeout / time.Minute),
		DefaultConcurrency:        conf.DefaultCoordConcurrency,
		DefaultThrottle:           conf.DefaultCoordThrottle,
		MaxThrottle:               500,
		LookupInterval:            300 * time.Second,
		Window:                    conf.DefaultCoordMaterializationWindow,
		ActionBatchSize:           10000,
		NoneTolerance:             time.Minute,
		InputCheckInterval:        60 * time.Second,
		HideErrorStates:           true,
		SLADisableAlertsOlderThan: conf.DefaultSLADisableAlertsOlderThan,
		MaxInstances:              DefaultMaxInstances,
	}
}

// WithDefaults returns s with its zero numeric fields set to their DefaultSettings value;
// the booleans are taken as given.
func (s Settings) WithDefaults() Settings {
	d := DefaultSettings()
	setInt := func(v *int, def int) {
		if *v == 0 {
			*v = def
		}
	}
	setDur := func(v *time.Duration, def time.Duration) {
		if *v == 0 {
			*v = def
		}
	}
	setInt(&s.DefaultTimeout, d.DefaultTimeout)
	setInt(&s.MaxTimeout, d.MaxTimeout)
	setInt(&s.DefaultConcurrency, d.DefaultConcurrency)
	setInt(&s.DefaultThrottle, d.DefaultThrottle)
	setInt(&s.MaxThrottle, d.MaxThrottle)
	setInt(&s.ActionBatchSize, d.ActionBatchSize)
	setInt(&s.MaxInstances, d.MaxInstances)
	setDur(&s.LookupInterval, d.LookupInterval)
	setDur(&s.Window, d.Window)
	setDur(&s.NoneTolerance, d.NoneTolerance)
	setDur(&s.InputCheckInterval, d.InputCheckInterval)
	setDur(&s.SLADisableAlertsOlderThan, d.SLADisableAlertsOlderThan)
	return s
}
