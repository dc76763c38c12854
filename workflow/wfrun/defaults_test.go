package wfrun_test

import (
	"testing"

	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/workflow/wfrun"
)

// TestDefaultStartRetryPolicy: the settings' default retry policy, written in
// package conf, is one the runner knows.
func TestDefaultStartRetryPolicy(t *testing.T) {
	if p := wfrun.DefaultStartRetry.Policy; p != workflow.RetryPeriodic {
		t.Errorf("DefaultStartRetry.Policy = %q, want %q", p, workflow.RetryPeriodic)
	}
}
