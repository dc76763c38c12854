package coordinator

import "time"

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
	// DefaultThrottle is used without <throttle> (oozie.service.coord.default.throttle, 12).
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
	// ActionBatchSize bounds the actions one materialization creates for a LAST_ONLY or NONE
	// job catching up (CoordMaterializeTriggerService.action.batch.size, 10000); -1 is
	// unlimited.
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
}

// DefaultSettings returns Oozie's defaults, with gozie's one deliberate difference: no
// five-minute minimum frequency.
func DefaultSettings() Settings {
	return Settings{
		DefaultTimeout:            120,
		MaxTimeout:                86400,
		DefaultConcurrency:        1,
		DefaultThrottle:           12,
		MaxThrottle:               500,
		LookupInterval:            300 * time.Second,
		Window:                    3600 * time.Second,
		ActionBatchSize:           10000,
		NoneTolerance:             time.Minute,
		InputCheckInterval:        60 * time.Second,
		HideErrorStates:           true,
		SLADisableAlertsOlderThan: 48 * time.Hour,
	}
}

// normalized fills zero numeric fields with their defaults.
func (s Settings) normalized() Settings {
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
	setDur(&s.LookupInterval, d.LookupInterval)
	setDur(&s.Window, d.Window)
	setDur(&s.NoneTolerance, d.NoneTolerance)
	setDur(&s.InputCheckInterval, d.InputCheckInterval)
	setDur(&s.SLADisableAlertsOlderThan, d.SLADisableAlertsOlderThan)
	return s
}
