package jobs_test

import (
	"net/http"
	"testing"
)

// TestAppPathUndefinedVariable: a job.properties without nameNode whose app path is
// ${nameNode}/user/... is refused with 400 E1004 naming the variable, for each job type
// and for a dry run, instead of a complaint about a relative or missing path.
func TestAppPathUndefinedVariable(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for _, tc := range []struct {
		name, query, key string
	}{
		{"workflow", "", "oozie.wf.application.path"},
		{"workflow run", "?action=start", "oozie.wf.application.path"},
		{"workflow dry run", "?action=dryrun", "oozie.wf.application.path"},
		{"coordinator", "", "oozie.coord.application.path"},
		{"coordinator dry run", "?action=dryrun", "oozie.coord.application.path"},
		{"bundle", "", "oozie.bundle.application.path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := configXML(t, "user.name", "joe", "examplesRoot", "examples",
				tc.key, "${nameNode}/user/${user.name}/${examplesRoot}/apps/no-op")
			r := f.call(t, http.MethodPost, "/oozie/v1/jobs"+tc.query, "application/xml", body)
			// As in Oozie, substitution stops at the first variable it cannot resolve.
			checkError(t, r, http.StatusBadRequest, "E1004", "E1004: Expression language evaluation error, "+
				"variable [nameNode] cannot be resolved in ["+tc.key+"] = [${nameNode}/user/${user.name}/${examplesRoot}/apps/no-op]")
		})
	}
	// A path whose variables are all defined goes through.
	body := configXML(t, "user.name", "joe", "nameNode", "file://"+f.Apps, "oozie.wf.application.path", "${nameNode}/"+appNoOp)
	if r := f.call(t, http.MethodPost, "/oozie/v1/jobs", "application/xml", body); r.status != http.StatusCreated {
		t.Fatalf("submission with nameNode: %d %s", r.status, r.header.Get("oozie-error-message"))
	}
}
