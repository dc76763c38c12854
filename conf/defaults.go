package conf

import (
	"strconv"
	"time"
)

// The defaults of the settings that components also take as Go values. They are written once,
// here: the settings table (settings.go) formats its Default strings from them, and a component
// whose Config field is left at zero takes the same constant, so that a component built
// without the daemon (in a test) runs with the numbers `gozie server` runs with.
const (
	// DefaultEngineWorkers is gozie.engine.workers.
	DefaultEngineWorkers = 10
	// DefaultEngineLease is gozie.engine.lease.
	DefaultEngineLease = 30 * time.Second
	// DefaultEngineMaxSleep is gozie.engine.max-sleep.
	DefaultEngineMaxSleep = 5 * time.Second
	// DefaultEngineMaxAttempts is gozie.engine.max-attempts. With the engine's default
	// backoff, ten failures in a row take about ten minutes (1 s doubling to 256 s), long
	// enough to ride out a restart of a cluster service, and ten crashes of the server in a
	// row mean the work itself takes the server down.
	DefaultEngineMaxAttempts = 10

	// DefaultCoordMaterializationWindow is gozie.coord.materialization.window.
	DefaultCoordMaterializationWindow = time.Hour
	// DefaultCoordTimeout is gozie.coord.default.timeout.
	DefaultCoordTimeout = 120 * time.Minute
	// DefaultCoordMaxTimeout is gozie.coord.default.max-timeout.
	DefaultCoordMaxTimeout = 86400 * time.Minute
	// DefaultCoordConcurrency is gozie.coord.default.concurrency.
	DefaultCoordConcurrency = 1
	// DefaultCoordThrottle is gozie.coord.default.throttle.
	DefaultCoordThrottle = 12
	// DefaultCoordMaxInstances is gozie.coord.max-instances: a week of one-minute instances
	// (7 × 24 × 60), more than any input a real pipeline declares (a year of hourly data is
	// 8,760) while keeping one action's instances, URIs and done-flag checks to a few
	// megabytes and a few thousand filesystem calls.
	DefaultCoordMaxInstances = 7 * 24 * 60
	// DefaultCoordInputCheckMinInterval is gozie.coord.input-check.min-interval.
	DefaultCoordInputCheckMinInterval = time.Second
	// DefaultCoordInputCheckMaxInterval is gozie.coord.input-check.max-interval.
	DefaultCoordInputCheckMaxInterval = 60 * time.Second
	// DefaultCoordEditStream is gozie.coord.input-check.edit-stream: on, for it only works
	// where the NameNode allows it (the server is an HDFS superuser) and polling stays.
	DefaultCoordEditStream = true

	// DefaultActionRetriesMax is gozie.action.retries.max.
	DefaultActionRetriesMax = 3
	// DefaultActionRetryInterval is gozie.action.retry.interval.
	DefaultActionRetryInterval = 10 * time.Second
	// DefaultActionRetryPolicy is gozie.action.retry.policy.
	DefaultActionRetryPolicy = "periodic"
	// DefaultActionUserRetryMax is gozie.action.user-retry.max.
	DefaultActionUserRetryMax = 3
	// DefaultActionUserRetryInterval is gozie.action.user-retry.interval.
	DefaultActionUserRetryInterval = 10 * time.Minute
	// DefaultActionUserRetryPolicy is gozie.action.user-retry.policy.
	DefaultActionUserRetryPolicy = "periodic"
	// DefaultActionPollInterval is gozie.action.poll.interval.
	DefaultActionPollInterval = 10 * time.Second
	// DefaultActionCheckInterval is gozie.action.check.interval.
	DefaultActionCheckInterval = 30 * time.Second
	// DefaultActionFallbackCheckInterval is gozie.action.fallback-check.interval.
	DefaultActionFallbackCheckInterval = 5 * time.Minute
	// DefaultWorkflowDefinitionCacheSize is gozie.workflow.definition-cache.size: more
	// jobs than one server usually has running, each entry a parsed workflow.xml and its
	// configuration.
	DefaultWorkflowDefinitionCacheSize = 1024

	// DefaultSLAAlertEvents is gozie.sla.default.alert-events.
	DefaultSLAAlertEvents = "END_MISS"
	// DefaultSLADisableAlertsOlderThan is gozie.sla.disable-alerts.older-than.
	DefaultSLADisableAlertsOlderThan = 48 * time.Hour

	// DefaultPurgeWorkflowOlderThan is gozie.purge.workflow.older-than.
	DefaultPurgeWorkflowOlderThan = 30 * day
	// DefaultPurgeCoordOlderThan is gozie.purge.coord.older-than.
	DefaultPurgeCoordOlderThan = 7 * day
	// DefaultPurgeBundleOlderThan is gozie.purge.bundle.older-than.
	DefaultPurgeBundleOlderThan = 7 * day
	// DefaultPurgeOldCoordAction is gozie.purge.old-coord-action.
	DefaultPurgeOldCoordAction = true
	// DefaultPurgeInterval is gozie.purge.interval.
	DefaultPurgeInterval = time.Hour
	// DefaultPurgeLimit is gozie.purge.limit.
	DefaultPurgeLimit = 100
)

// day is the unit "d" of ParseDuration.
const day = 24 * time.Hour

// in formats d as a whole number of unit (day, time.Hour, time.Minute or time.Second) the way
// the table writes it, e.g. in(48*time.Hour, time.Hour) = "48h"; it panics when d is not a
// whole number of unit, a mistake in the table.
func in(d, unit time.Duration) string {
	suffix := map[time.Duration]string{day: "d", time.Hour: "h", time.Minute: "m", time.Second: "s"}[unit]
	if suffix == "" || d%unit != 0 {
		panic("conf: default " + d.String() + " is not a whole number of " + unit.String())
	}
	return strconv.FormatInt(int64(d/unit), 10) + suffix
}
