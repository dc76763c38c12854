package wfrun_test

import (
	"testing"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow/wfrun"
)

func TestParentActionOf(t *testing.T) {
	t.Parallel()
	const parent = "0000001-250101000000000-gozie-W"
	tests := []struct {
		name string
		job  store.WorkflowJob
		want string
	}{
		{"sub-workflow", store.WorkflowJob{ParentID: parent, ExternalID: parent + "@sub#0.0"}, parent + "@sub"},
		{"rerun and retry", store.WorkflowJob{ParentID: parent, ExternalID: parent + "@load-all#2.1"}, parent + "@load-all"},
		{"coordinator's workflow", store.WorkflowJob{ParentID: "0000002-250101000000000-gozie-C@3"}, ""},
		{"external id of another parent", store.WorkflowJob{ParentID: parent, ExternalID: "0000009-250101000000000-gozie-W@x#0.0"}, ""},
		{"no parent", store.WorkflowJob{ExternalID: parent + "@sub#0.0"}, ""},
	}
	for _, tt := range tests {
		if got := wfrun.ParentActionOf(tt.job); got != tt.want {
			t.Errorf("%s: ParentActionOf = %q, want %q", tt.name, got, tt.want)
		}
	}
}
