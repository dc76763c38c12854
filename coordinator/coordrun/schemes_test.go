package coordrun

import (
	"os/user"
	"strings"
	"testing"

	"github.com/gozie/gozie/store"
)

// TestServerDiskRefusedAtSubmission: with the server's default filesystems
// (hdfs only), a coordinator whose app, dataset include, dataset URIs or
// workflow app-path are on the server's own disk, in any spelling, is refused at submission with
// E0904 and the refusal's message, and nothing is stored.
func TestServerDiskRefusedAtSubmission(t *testing.T) {
	t.Parallel()
	w := setup(t, options{hdfs: true, schemes: []string{"hdfs"}})
	// Submitted as the server's own user, whom MiniDFS knows without
	// proxy-user rules.
	me, err := user.Current()
	if err != nil {
		t.Skipf("no current operating-system user: %v", err)
	}
	local := t.TempDir()
	withInput := w.app("with-input", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-02T00:00Z", "", true))
	include := w.app("include", strings.Replace(coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-02T00:00Z", "", false),
		"<action>", "<datasets><include>FILE:///etc/passwd</include></datasets><action>", 1))
	tests := []struct {
		name, uri string
		props     []string
	}{
		{"app on file", "file:///etc", []string{PropAppPath, "file:///etc"}},
		{"app on a missing file", "file:///does/not/exist", []string{PropAppPath, "file:///does/not/exist"}},
		{"dataset on file", "file://" + local + "/data/logs/${YEAR}${MONTH}${DAY}${HOUR}",
			[]string{PropAppPath, withInput, "nameNode", "file://" + local}},
		{"dataset on FILE", "FILE://" + local + "/data/logs/${YEAR}${MONTH}${DAY}${HOUR}",
			[]string{PropAppPath, withInput, "nameNode", "FILE://" + local}},
		{"dataset include", "FILE:///etc/passwd", []string{PropAppPath, include}},
		{"workflow app-path", "File:/etc", []string{PropAppPath, withInput, "wfApp", "File:/etc"}},
	}
	for _, tt := range tests {
		_, err := w.coords.Submit(bg, w.props(withInput, append(tt.props, "user.name", me.Username)...), SubmitOptions{})
		want := "E0904: Scheme [file] not supported in uri [" + tt.uri + "]"
		if ErrorCode(err) != "E0904" || err.Error() != want {
			t.Errorf("%s: %v, want %q", tt.name, err, want)
		}
	}
	var jobs []store.CoordJob
	if err := w.store.Tx(bg, func(x store.Tx) (err error) {
		jobs, _, err = x.ListCoordJobs(bg, store.JobFilter{})
		return err
	}); err != nil || len(jobs) != 0 {
		t.Errorf("jobs stored: %v, %v", jobs, err)
	}
	// The same dataset on the cluster is accepted.
	w.submit(w.props(withInput, "user.name", me.Username))
}
