package workflow

import (
	"testing"
	"time"
)

func TestRetryDelay(t *testing.T) {
	const iv = 10 * time.Second
	for _, tc := range []struct {
		policy string
		done   int
		want   time.Duration
	}{
		{RetryPeriodic, 0, iv},
		{RetryPeriodic, 3, iv},
		{RetryExponential, 0, iv},
		{RetryExponential, 1, 2 * iv},
		{RetryExponential, 3, 8 * iv},
		{RetryExponential, 1000, iv << 20}, // capped, no overflow
		{"", 2, iv},
	} {
		if got := RetryDelay(tc.policy, iv, tc.done); got != tc.want {
			t.Errorf("RetryDelay(%q, %v, %d) = %v, want %v", tc.policy, iv, tc.done, got, tc.want)
		}
	}
}
