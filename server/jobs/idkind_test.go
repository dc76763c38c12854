package jobs

import "testing"

// TestKindOfID pins how a request's id is routed, odd ids included: the text decides, in
// Oozie's order (an action id before a job id), and an id need not be well formed.
func TestKindOfID(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]idKind{
		"":                                     idUnknown,
		"-":                                    idUnknown,
		"W":                                    idUnknown,
		"-W":                                   idWorkflow,
		"-C":                                   idCoordinator,
		"-B":                                   idBundle,
		"0000001-250127091857123-oozie-oozi-W": idWorkflow,
		"0000001-250127091857123-oozie-oozi-C": idCoordinator,
		"0000001-250127091857123-oozie-oozi-B": idBundle,
		"0000001-250127091857123-oozie-oozi-W@load":   idWorkflowAction,
		"0000001-250127091857123-oozie-oozi-C@3":      idCoordAction,
		"0000001-250127091857123-oozie-oozi-W@load-C": idWorkflowAction,
		"0000001-250127091857123-oozie-oozi-B@x-W":    idWorkflow,
		"0000001-250127091857123-oozie-oozi-B@3":      idUnknown,
		"x-w":                                         idUnknown,
	} {
		if got := kindOfID(id); got != want {
			t.Errorf("kindOfID(%q) = %v, want %v", id, got, want)
		}
	}
}
