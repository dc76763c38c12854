package conf

import (
	"testing"
	"time"
)

// TestDefaultsTable checks the table's Default strings, which the configuration dump shows, and
// that Load turns them into the Default constants the components take.
func TestDefaultsTable(t *testing.T) {
	t.Parallel()
	s, err := Load(loadSetup(t, "", nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key, def  string
		got, want any
	}{
		{"gozie.engine.workers", "10", s.Engine.Workers, DefaultEngineWorkers},
		{"gozie.engine.lease", "30s", s.Engine.Lease, DefaultEngineLease},
		{"gozie.engine.max-sleep", "5s", s.Engine.MaxSleep, DefaultEngineMaxSleep},
		{"gozie.engine.max-attempts", "10", s.Engine.MaxAttempts, DefaultEngineMaxAttempts},
		{"gozie.coord.materialization.window", "1h", s.Coord.MaterializationWindow, DefaultCoordMaterializationWindow},
		{"gozie.coord.default.timeout", "120m", s.Coord.DefaultTimeout, DefaultCoordTimeout},
		{"gozie.coord.default.max-timeout", "86400m", s.Coord.MaxTimeout, DefaultCoordMaxTimeout},
		{"gozie.coord.default.concurrency", "1", s.Coord.DefaultConcurrency, DefaultCoordConcurrency},
		{"gozie.coord.default.throttle", "12", s.Coord.DefaultThrottle, DefaultCoordThrottle},
		{"gozie.coord.max-instances", "10080", s.Coord.MaxInstances, DefaultCoordMaxInstances},
		{"gozie.coord.input-check.edit-stream", "true", s.Coord.EditStream, DefaultCoordEditStream},
		{"gozie.action.user-retry.max", "3", s.Action.UserRetryMax, DefaultActionUserRetryMax},
		{"gozie.action.user-retry.interval", "10m", s.Action.UserRetryInterval, DefaultActionUserRetryInterval},
		{"gozie.action.user-retry.policy", "periodic", s.Action.UserRetryPolicy, DefaultActionUserRetryPolicy},
		{"gozie.coord.input-check.min-interval", "1s", s.Coord.InputCheckMinInterval, DefaultCoordInputCheckMinInterval},
		{"gozie.coord.input-check.max-interval", "60s", s.Coord.InputCheckMaxInterval, DefaultCoordInputCheckMaxInterval},
		{"gozie.action.retries.max", "3", s.Action.RetriesMax, DefaultActionRetriesMax},
		{"gozie.action.retry.interval", "10s", s.Action.RetryInterval, DefaultActionRetryInterval},
		{"gozie.action.retry.policy", "periodic", s.Action.RetryPolicy, DefaultActionRetryPolicy},
		{"gozie.action.poll.interval", "10s", s.Action.PollInterval, DefaultActionPollInterval},
		{"gozie.action.check.interval", "30s", s.Action.CheckInterval, DefaultActionCheckInterval},
		{"gozie.action.fallback-check.interval", "5m", s.Action.FallbackCheckInterval, DefaultActionFallbackCheckInterval},
		{"gozie.sla.default.alert-events", "END_MISS", s.SLA.DefaultAlertEvents, DefaultSLAAlertEvents},
		{"gozie.sla.disable-alerts.older-than", "48h", s.SLA.DisableAlertsOlderThan, DefaultSLADisableAlertsOlderThan},
		{"gozie.purge.workflow.older-than", "30d", s.Purge.WorkflowOlderThan, DefaultPurgeWorkflowOlderThan},
		{"gozie.purge.coord.older-than", "7d", s.Purge.CoordOlderThan, DefaultPurgeCoordOlderThan},
		{"gozie.purge.bundle.older-than", "7d", s.Purge.BundleOlderThan, DefaultPurgeBundleOlderThan},
		{"gozie.purge.old-coord-action", "true", s.Purge.OldCoordAction, DefaultPurgeOldCoordAction},
		{"gozie.purge.interval", "1h", s.Purge.Interval, DefaultPurgeInterval},
		{"gozie.purge.limit", "100", s.Purge.Limit, DefaultPurgeLimit},
	} {
		st, ok := settingByKey(c.key)
		if !ok {
			t.Errorf("%s: not in the table", c.key)
			continue
		}
		if st.Default != c.def {
			t.Errorf("%s: table default %q, want %q", c.key, st.Default, c.def)
		}
		if c.got != c.want {
			t.Errorf("%s: loaded %v, want the constant %v", c.key, c.got, c.want)
		}
	}
}

func TestInPanicsOnFraction(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("in(90s, time.Minute) did not panic")
		}
	}()
	_ = in(90*time.Second, time.Minute)
}
