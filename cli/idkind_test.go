package cli

import (
	"maps"
	"testing"
)

// TestIDKinds pins how the CLI tells a job's kind from its id, odd ids included, as
// Oozie's CLI does: by the id's text, a bundle or coordinator suffix before anything else.
func TestIDKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id            string
		bundle, coord bool
		poll          string // what -poll waits for: "wf", "job", "action" or "" (refused)
	}{
		{"", false, false, ""},
		{"-W", false, false, "wf"},
		{"-C", false, true, "job"},
		{"-B", true, false, "job"},
		{"0000001-250127091857123-oozie-oozi-C@3", false, false, "action"},
		{"0000001-250127091857123-oozie-oozi-W@load", false, false, ""},
		{"0000001-250127091857123-oozie-oozi-W@load-C", false, true, "job"},
		{"x-w", false, false, ""},
	}
	kinds := map[string]map[string]bool{"wf": finishedWorkflow, "job": finishedJob, "action": finishedCoordAct}
	for _, tc := range tests {
		if got := isBundleID(tc.id); got != tc.bundle {
			t.Errorf("isBundleID(%q) = %v", tc.id, got)
		}
		if got := isCoordinatorID(tc.id); got != tc.coord {
			t.Errorf("isCoordinatorID(%q) = %v", tc.id, got)
		}
		got, err := finishedFor(tc.id)
		if tc.poll == "" {
			if err == nil {
				t.Errorf("finishedFor(%q) = %v, want an error", tc.id, got)
			}
			continue
		}
		if want := kinds[tc.poll]; err != nil || !maps.Equal(got, want) {
			t.Errorf("finishedFor(%q) = %v, %v; want the %s statuses", tc.id, got, err, tc.poll)
		}
	}
}
