package jobs

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gozie/gozie/oozieerr"
)

// TestBulkFailedJobIsTyped: the job a failed bulk command stopped at comes from the
// *oozieerr.BulkError runBulk returns, whatever wraps it and whatever its message says; a
// message that merely reads "job <id>: ..." names no job.
func TestBulkFailedJobIsTyped(t *testing.T) {
	t.Parallel()
	const id = "0000001-100101000000000-gozie-test-W"
	cause := oozieerr.New(oozieerr.E0717, "Workflow not suspended")
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{"bulk error", &oozieerr.BulkError{JobID: id, Err: cause}, id},
		{"wrapped", fmt.Errorf("resuming: %w", &oozieerr.BulkError{JobID: id, Err: errors.New("x: y")}), id},
		{"not a job id", &oozieerr.BulkError{JobID: "nope", Err: cause}, ""},
		{"only the text", fmt.Errorf("job %s: %w", id, cause), ""},
		{"nil", nil, ""},
	} {
		got, ok := bulkFailedJob(tt.err)
		if ok != (tt.want != "") || (ok && got != tt.want) {
			t.Errorf("%s: bulkFailedJob = %q, %v; want %q", tt.name, got, ok, tt.want)
		}
	}
}
