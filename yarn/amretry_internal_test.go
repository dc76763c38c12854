package yarn

import (
	"testing"
	"time"
)

// TestAMRetryPause checks the pauses of RetryPolicies'
// FailoverOnNetworkExceptionRetry: none before the first failover, then
// base·2^n capped at the maximum, give or take half; a fixed interval
// without failover.
func TestAMRetryPause(t *testing.T) {
	t.Parallel()
	r := AMRetry{Interval: 7 * time.Millisecond, FailoverBase: 10 * time.Millisecond, FailoverMax: 100 * time.Millisecond}
	if got := r.pause(false, 3); got != r.Interval {
		t.Errorf("without failover: %v, want %v", got, r.Interval)
	}
	if got := r.pause(true, 0); got != 0 {
		t.Errorf("before the first failover: %v, want 0", got)
	}
	for n, want := range map[int]time.Duration{1: 20 * time.Millisecond, 2: 40 * time.Millisecond, 3: 80 * time.Millisecond, 4: 100 * time.Millisecond, 40: 100 * time.Millisecond} {
		for range 20 {
			if got := r.pause(true, n); got < want/2 || got > want*3/2 {
				t.Errorf("failover %d: %v, want %v ± 50%%", n, got, want)
			}
		}
	}
}
